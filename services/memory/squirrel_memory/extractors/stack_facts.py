"""Stack facts (framework, data layer, libraries, test framework) from how the sessions' code
uses each dependency, weighed (`stack_evidence`) and each said where it holds."""

from __future__ import annotations

from collections import Counter
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.declared_libraries import declared_frameworks, declared_libraries
from squirrel_memory.extractors.file_reads import file_text, read_output
from squirrel_memory.extractors.framework_clients import framework_parts
from squirrel_memory.extractors.manifests import (
    EXTENSION_LANGUAGES,
    LIBRARIES,
    MANIFEST_LANGUAGES,
    code_texts,
    first_project_path,
    is_manifest,
    libraries_in,
)
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.stack_evidence import (
    StackEvidence,
    code_scope,
    family,
    is_test_code,
    is_test_data,
    test_runs,
)
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository import primary_ecosystems
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.manifests import manifest_reader
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.services import config_reader, is_env_example
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.stack import language_name

_FACT_TITLES = {
    "framework": "Built with {}.",
    "database": "Data layer: {}.",
    "libraries": "Key libraries: {}.",
    "testing": "Tests are written with {}.",
}
#: Facts said of a sub-folder when its code (not only its manifest) shows them.
_SCOPED_TITLES = {
    "framework": "In `{}/`, the code is built with {}.",
    "testing": "In `{}/`, tests are written with {}.",
}
_FACT_IMPORTANCE = {"libraries": 0.45, "testing": 0.5}


def _main_families(paths: list[tuple[str, str]], project_id: str) -> set[str]:
    """The project's main language families: the repository's primary ecosystems when it is
    read, else the languages of the root manifests the session touched, else of most code."""
    ecosystems = primary_ecosystems(project_id)
    if ecosystems:
        return {family(language_name(eco)) for eco in ecosystems}
    root = {
        family(language)
        for path, _ in paths
        if "/" not in path and (language := MANIFEST_LANGUAGES.get(path.lower()))
    }
    if root:
        return root
    counts = Counter(
        family(language)
        for path, _ in paths
        if (language := EXTENSION_LANGUAGES.get(PurePosixPath(path).suffix.lower()))
    )
    return {counts.most_common(1)[0][0]} if counts else set()


def _configured_databases(event: StoredEvent, path: str) -> set[str]:
    """Databases the data-access configuration a session read names (an ORM's adapter, a
    settings ENGINE, the app's connection URL), read with the repository's own readers."""
    reader = config_reader(path)
    output = read_output(event)
    if reader is None or output is None:
        return set()
    out = Readings()
    try:
        reader(TextFile.of(path, file_text(output)), out)
    except PARSE_ERRORS:
        return set()
    # A source the configuration only reads (a legacy database an import reads) keeps none of
    # the project's data.
    return {
        s.name for s in out.services if s.kind == "database" and s.configured and not s.read_only
    }


def _stack_evidence(
    events: list[StoredEvent], runs: list[CommandRun], paths: list[tuple[str, str]], project_id: str
) -> StackEvidence:
    main = _main_families(paths, project_id)
    packages = {str(PurePosixPath(p).parent) for p, _ in paths if is_manifest(p) and "/" in p}
    evidence = StackEvidence()
    for event in events:
        rel = first_project_path(event)
        if rel is None or is_test_data(rel):
            continue
        manifest = is_manifest(rel) or manifest_reader(rel) is not None
        if manifest:
            parent = str(PurePosixPath(rel).parent)
            scope = "" if parent == "." else parent
        else:
            language = EXTENSION_LANGUAGES.get(PurePosixPath(rel).suffix.lower())
            scope = code_scope(rel, packages, main, language)
        for text in code_texts(event):
            if manifest:
                # A manifest only declares a library; one declared for development says at
                # most how the project is tested.
                for name, dev in sorted(declared_libraries(rel, file_text(text)).items()):
                    key, display = LIBRARIES[name]
                    if not dev or key == "testing":
                        evidence.add(key, display, scope, event.id, strong=False)
                for declared in declared_frameworks(rel, file_text(text)):
                    evidence.add("framework", declared, scope, event.id, strong=False)
                continue
            clients, servers = framework_parts(text)
            evidence.clients.update(clients)
            evidence.servers.update(servers)
            # Code that imports a library uses it; a database test code opens is a double.
            for key, display in sorted(libraries_in(text, language)):
                if key != "database" or not is_test_code(rel):
                    evidence.add(key, display, scope, event.id, strong=True)
        example = is_env_example(rel)
        # A tests folder's configuration (a Rails engine's `test/dummy/config/database.yml`)
        # sets up the tests' own app: its database is theirs, not the project's.
        configured = set() if is_test_code(rel) else _configured_databases(event, rel)
        for database in sorted(configured):
            evidence.add(
                "database", database, scope, event.id, strong=True, configured=True, example=example
            )
    testing = {display.lower(): display for key, display in LIBRARIES.values() if key == "testing"}
    for tool, scope, event_id in test_runs(runs, project_id):
        framework = testing.get(tool.lower())
        if framework:
            evidence.add("testing", framework, scope, event_id, strong=True, ran=True)
        else:
            evidence.other_runners.setdefault(scope, set()).add(tool)
    return evidence


def stack_seen(
    events: list[StoredEvent], runs: list[CommandRun], paths: list[tuple[str, str]], project_id: str
) -> dict[str, set[str]]:
    """Per fact key, every name (lower-cased) any evidence shows, in any folder, any strength."""
    evidence = _stack_evidence(events, runs, paths, project_id)
    return {
        key: {name.lower() for names in scopes.values() for name in names}
        for key, scopes in evidence.found.items()
    }


def stack_facts(
    events: list[StoredEvent], runs: list[CommandRun], paths: list[tuple[str, str]], project_id: str
) -> list[Fact]:
    """Framework, data layer, libraries and test framework, weighed (`stack_evidence`)."""
    evidence = _stack_evidence(events, runs, paths, project_id)
    facts: list[Fact] = []
    for key in ("framework", "database", "libraries", "testing"):
        names = evidence.project_names(key)[:5]
        if key == "testing":
            # A framework known only from the test command that ran it would restate that
            # command's own memory ("Tests run with `pytest`."): it takes an import to say more.
            root = evidence.found.get(key, {}).get("", {})
            names = [n for n in names if root[n].event_ids() - root[n].ran]
        if names:
            tags = (key, *(n.lower() for n in names))
            facts.append(
                Fact(
                    key,
                    _FACT_TITLES[key].format(", ".join(names)),
                    tags,
                    _FACT_IMPORTANCE.get(key, 0.7),
                    evidence.event_ids(key, names),
                )
            )
        title = _SCOPED_TITLES.get(key)
        if title is None:
            continue
        for scope, scoped in evidence.scoped_names(key).items():
            facts.append(
                Fact(
                    f"{key}@{scope}",
                    title.format(scope, ", ".join(scoped[:3])),
                    (key, scope, *(n.lower() for n in scoped[:3])),
                    0.4,
                    evidence.event_ids(key, scoped, scope),
                    (scope,),
                )
            )
    return facts
