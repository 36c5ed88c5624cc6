"""Project facts evident from the paths a session touched, the commands that run the app and the
modules' own docs; stack facts are weighed in `stack_facts`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.about import ABOUT_KEY, is_instruction_file, session_about
from squirrel_memory.extractors.activity import (
    CommandRun,
    core_tokens,
    relative_path,
    split_segments,
)
from squirrel_memory.extractors.build_files import build_fact
from squirrel_memory.extractors.commit_hooks import commit_hooks
from squirrel_memory.extractors.drawn_files import drawn_paths
from squirrel_memory.extractors.file_reads import file_text, whole_read_output
from squirrel_memory.extractors.folder_summary import folder_summary
from squirrel_memory.extractors.git_listed import listed_paths
from squirrel_memory.extractors.help_about import help_about
from squirrel_memory.extractors.language_fact import language_fact, with_framework
from squirrel_memory.extractors.language_parts import language_parts, stated_languages, with_parts
from squirrel_memory.extractors.manifest_versions import manifest_versions
from squirrel_memory.extractors.manifests import (
    EXTENSION_LANGUAGES,
    first_project_path,
    in_project,
)
from squirrel_memory.extractors.modules import (
    file_description,
    module_name,
    says_more_than,
    speaks_for_module,
)
from squirrel_memory.extractors.named_summary import named_summary
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.readme_stack import readme_stack
from squirrel_memory.extractors.script_runs import ran_scripts, script_runs
from squirrel_memory.extractors.searched_files import searched_paths, tool_listed_paths
from squirrel_memory.extractors.session_tasks import started_by_task
from squirrel_memory.extractors.shell_reads import shell_read_files
from squirrel_memory.extractors.stack_evidence import (
    TEST_FILE,
    is_test_data,
)
from squirrel_memory.extractors.stack_facts import stack_facts
from squirrel_memory.extractors.summaries import IMPORTANCE as SUMMARY_IMPORTANCE
from squirrel_memory.extractors.summaries import SUMMARY_TAG, project_summary
from squirrel_memory.extractors.toolchain import classify
from squirrel_memory.extractors.user_about import user_about
from squirrel_memory.extractors.wrapper_scripts import wrapper_scripts
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository import primary_ecosystems
from squirrel_memory.repository.deploy import deploy_platform, deploy_text
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import read_instruction_file
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.snapshot import TextFile

MAX_MODULE_FACTS = 5

_NOT_ENTRY_MODULES = {
    "pytest",
    "pip",
    "venv",
    "mypy",
    "json.tool",
    "http.server",
    "unittest",
    "build",
    "twine",
    "pyright",
    "ruff",
    "black",
    "isort",
    "coverage",
    "pdb",
    "timeit",
    "cProfile",
}


def _edited(events: list[StoredEvent]) -> set[str]:
    """The project's files the session wrote or edited."""
    return {
        rel
        for event in events
        if event.event_type == EventType.CODE_CHANGE
        for raw in event.file_paths
        if in_project(rel := relative_path(raw, event.project_id))
    }


#: Folders that hold a project's tests, at its root or one folder down (`test/`, `src/test/`);
#: a `__tests__/` deeper in is one module's tests, not where the project keeps them.
_TEST_DIRS = frozenset({"test", "tests", "spec", "specs", "e2e"})
_TEST_DIR_DEPTH = 2
#: Test folders named in one fact.
MAX_TEST_FOLDERS = 2


def _tests_fact(paths: list[tuple[str, str]]) -> Fact | None:
    """Where the tests live, from the test files the session read, edited or ran: the folder
    up to the first test folder of each (`test/`, `src/test/`), when the file is code named
    as a test; more than two such folders say nothing. Tests beside their code (`post_test.go`
    in `internal/books/`, `__tests__/` in a module) say nothing."""
    files: dict[str, list[str]] = {}
    ids: list[str] = []
    for path, event_id in paths:
        parts = PurePosixPath(path).parts
        name = parts[-1] if parts else ""
        code = PurePosixPath(name).suffix.lower() in EXTENSION_LANGUAGES
        if not code or not TEST_FILE.match(name) or is_test_data(path):
            continue  # a test of a fixture app (`test/fixtures/app/a.test.js`) is data
        top = parts[:-1][:_TEST_DIR_DEPTH]
        cut = next((i for i, part in enumerate(top) if part.lower() in _TEST_DIRS), None)
        if cut is None:
            continue
        files.setdefault("/".join(parts[: cut + 1]), []).append(path)
        ids.append(event_id)
    if not files or len(files) > MAX_TEST_FOLDERS:
        return None
    named = " and ".join(f"`{folder}/`" for folder in files)
    example = next(iter(files.values()))[0]
    text = f"Tests live in {named} (`{example}` among them)."
    unique = tuple(dict.fromkeys(ids))[:10]
    return Fact("tests_folder", text, ("layout", "tests"), 0.45, unique, tuple(files))


def _layout_facts(paths: list[tuple[str, str]]) -> list[Fact]:
    facts: dict[str, Fact] = {}
    for path, event_id in paths:
        parts = PurePosixPath(path).parts
        name = parts[-1].lower()
        if name.startswith(("docker-compose", "compose.")) and name.endswith((".yml", ".yaml")):
            facts.setdefault(
                "services",
                Fact(
                    "services",
                    f"Local services run with Docker Compose ({path}).",
                    ("docker", "services"),
                    0.5,
                    (event_id,),
                    (path,),
                ),
            )
        elif name == "dockerfile" or name.startswith("dockerfile."):
            facts.setdefault(
                "container",
                Fact(
                    "container",
                    f"Packaged as a container image ({path}).",
                    ("docker",),
                    0.4,
                    (event_id,),
                    (path,),
                ),
            )
        if "alembic" in parts[:-1] or name == "alembic.ini":
            facts.setdefault(
                "migrations",
                Fact(
                    "migrations",
                    "Database migrations are managed with Alembic (alembic/).",
                    ("database", "migrations", "alembic"),
                    0.6,
                    (event_id,),
                    (path,),
                ),
            )
        elif "migrations" in parts[:-1]:
            folder = "/".join(parts[: parts.index("migrations") + 1])
            facts.setdefault(
                "migrations",
                Fact(
                    "migrations",
                    f"Database migrations live in {folder}/.",
                    ("database", "migrations"),
                    0.5,
                    (event_id,),
                    (path,),
                ),
            )
        platform = deploy_platform(path)
        if platform:
            facts.setdefault(
                "deploy",
                Fact(
                    "deploy",
                    deploy_text(platform, path),
                    ("deploy", "hosting", platform.lower()),
                    0.55,
                    (event_id,),
                    (path,),
                ),
            )
        if parts[:2] == (".github", "workflows"):
            facts.setdefault(
                "ci",
                Fact(
                    "ci",
                    f"CI runs on GitHub Actions ({path}).",
                    ("ci", "github-actions"),
                    0.4,
                    (event_id,),
                    (path,),
                ),
            )
    return list(facts.values())


def _whole_file(event: StoredEvent) -> tuple[str, str] | None:
    """(project path, text) of a whole file a session read or wrote (a Read from line 1, or a
    Write's content); None for partial reads, edits and failures."""
    content: dict[str, Any] = event.content
    rel = first_project_path(event)
    if rel is None:
        return None
    if event.event_type == EventType.TOOL_CALL and isinstance(content.get("input"), dict):
        written = content["input"].get("content")
        return (rel, written) if isinstance(written, str) else None
    output = whole_read_output(event)
    return (rel, file_text(output)) if output is not None else None


#: Files of a module whose own docs are quoted when nothing speaks for the whole module.
MAX_FILE_DOCS = 3
FILE_DOC_CHARS = 120


@dataclass(slots=True)
class _ModuleDocs:
    """What a module says of itself (`own`: the file or README that speaks for it) and what
    its files say of themselves (path → description), in first-read order."""

    own: tuple[str, str] | None = None
    files: dict[str, str] = field(default_factory=dict)

    def text(self, name: str) -> tuple[str, str] | None:
        """The memory's text and the file it came from first, or None when nothing says."""
        if self.own is not None and says_more_than(name, self.own[0]):
            description, source = self.own
            return f"Module `{name}`: {description}", source
        if not self.files:
            return None
        shown = list(self.files.items())[:MAX_FILE_DOCS]
        parts = [f"`{path}`: {doc.rstrip('.')}" for path, doc in shown]
        return f"Module `{name}`: " + "; ".join(parts) + ".", shown[0][0]


def _module_docs(events: list[StoredEvent], project_id: str) -> dict[str, _ModuleDocs]:
    """What each module says it does, from the whole files the sessions read or wrote: the
    docstring, `@moduledoc` or doc comment of the file that speaks for the module or the first
    paragraph of the README in its folder; else what its files' own docs say."""
    docs: dict[str, _ModuleDocs] = {}
    for event in events:
        found = _whole_file(event)
        if found is None:
            continue
        path, text = found
        pure = PurePosixPath(path)
        if pure.name.lower() == "readme.md" and len(pure.parts) > 1:
            module = module_name(str(pure.parent / "x.ts"), project_id)
            if module is None or module.rsplit("/", 1)[-1] != pure.parent.name:
                continue
            readings = Readings()
            try:
                read_instruction_file(TextFile.of(path, text), readings, "readme")
            except PARSE_ERRORS:
                continue
            if readings.description:
                entry = docs.setdefault(module, _ModuleDocs())
                entry.own = entry.own or (readings.description, path)
            continue
        module = module_name(path, project_id)
        if module is None:
            continue
        if speaks_for_module(path, module):
            description = file_description(path, text)
            if description:
                entry = docs.setdefault(module, _ModuleDocs())
                entry.own = entry.own or (description, path)
        elif (description := file_description(path, text, FILE_DOC_CHARS)) is not None:
            docs.setdefault(module, _ModuleDocs()).files.setdefault(path, description)
    return docs


def _module_facts(
    paths: list[tuple[str, str]], project_id: str, docs: dict[str, _ModuleDocs]
) -> list[Fact]:
    """The modules the sessions worked in, each with what it does (`_module_docs`); a module
    that says nothing of itself is not written (a list of its files tells nobody anything)."""
    events: dict[str, set[str]] = {}
    files: dict[str, dict[str, None]] = {}
    for path, event_id in paths:
        name = module_name(path, project_id)
        if name:
            events.setdefault(name, set()).add(event_id)
            files.setdefault(name, {}).setdefault(path, None)
    said = {name: found for name, entry in docs.items() if (found := entry.text(name))}
    ranked = sorted(
        (n for n in events if len(events[n]) >= 2 and n in said),
        key=lambda n: (-len(events[n]), n),
    )
    facts: list[Fact] = []
    for name in ranked[:MAX_MODULE_FACTS]:
        text, source = said[name]
        facts.append(
            Fact(
                f"module:{name}",
                text,
                ("module", name),
                round(min(0.6, 0.35 + 0.05 * len(events[name])), 2),
                tuple(sorted(events[name])),
                (source, *(p for p in files[name] if p != source)),
            )
        )
    return facts


def _entry_point(run: CommandRun) -> str | None:
    for segment in split_segments(run.command):
        tokens = core_tokens(segment)
        use = classify(tokens)
        if use and use.category == "server":
            target = next((t for t in tokens[1:] if ":" in t and not t.startswith("-")), None)
            if target:
                return f"`{target}` served with {use.tool}"
        raw = segment.split()
        if len(raw) >= 3 and raw[0] in {"python", "python3"} and raw[1] == "-m":
            module = raw[2]
            if module not in _NOT_ENTRY_MODULES and classify(raw[2:]) is None:
                return f"`python -m {module}`"
        if len(tokens) >= 3 and tokens[0] == "flask" and "run" in tokens:
            app = next((tokens[i + 1] for i, t in enumerate(tokens[:-1]) if t == "--app"), None)
            return f"`{app}` served with flask" if app else "`flask run`"
    return None


def project_facts(
    events: list[StoredEvent], runs: list[CommandRun], *, repository: bool | None = None
) -> list[Fact]:
    """Every project fact evident in one episode's events and commands; `repository` says
    whether the project's repository is read (looked up when not given)."""
    if not events:
        return []
    project_id = events[0].project_id
    paths = [
        (rel, event.id)
        for event in events
        for raw in event.file_paths
        if raw and in_project(rel := relative_path(raw, event.project_id))
    ]
    facts: list[Fact] = []
    # A repository with commits answers "what language" from its own files (`repo:` facts);
    # the files one session touched (an `assets/package.json`) must not contradict it.
    if repository is None:
        repository = bool(primary_ecosystems(project_id))
    scripts = ran_scripts(runs, _edited(events), project_id)
    ran = {script.path: script.language for script in scripts}
    listed = listed_paths(runs, project_id)
    searched = searched_paths(runs, project_id) + tool_listed_paths(events)
    versions = None if repository else manifest_versions(events)
    drawn = drawn_paths(events)
    # Files read through the shell (`cat src/a.hpp`) are read as surely as with a file tool.
    read = paths + shell_read_files(events)
    language = (
        None if repository else language_fact(read, ran, listed, searched, versions, drawn=drawn)
    )
    if language:
        facts.append(language)
    build = None if repository else build_fact(searched + listed, events, runs)
    if build:
        facts.append(build)
    about = None if repository else session_about(events)
    if about:
        text, source, event_ids = about
        # An instruction file's overview gives way to the README or manifest, as a summary does.
        tags = ("overview", "about", *((SUMMARY_TAG,) if is_instruction_file(source) else ()))
        facts.append(Fact(ABOUT_KEY, text, tags, 0.7, event_ids, (source,)))
    elif not repository and (
        said := help_about(runs, project_id)
        or user_about(events)
        or project_summary(events)
        or named_summary(events)
        or folder_summary(events)
    ):
        # No README or manifest read: the help its own program printed, the user's own words,
        # else the assistant's summary (of "this project", else of the project by its name).
        tags = ("overview", "about", SUMMARY_TAG)
        facts.append(Fact(ABOUT_KEY, said.content, tags, SUMMARY_IMPORTANCE, said.event_ids))
    facts.extend(_layout_facts(paths))
    tests = None if repository else _tests_fact(paths)
    if tests:
        facts.append(tests)

    stack = stack_facts(events, runs, paths, project_id)
    facts.extend(stack)
    if language:
        # What the project is written in and the framework its code is built on, in one.
        built_on = next((fact for fact in stack if fact.key == "framework"), None)
        parts = language_parts(read, listed + searched, stated_languages(language))
        facts[facts.index(language)] = with_parts(with_framework(language, built_on), parts)
    if not repository and not any(fact.key == "framework" for fact in stack):
        # No framework seen in the code: the one the app's own start task starts, else the one
        # the README's introduction names where the code agrees.
        started = started_by_task(events)
        named = None if started else readme_stack(events, paths, frameworks_only=bool(language))
        if started and started.started:
            framework, task, step = started.started
            text = f"Built with {framework}: `{task}` ({started.path}) starts it with `{step}`."
            tags = ("framework", framework.lower(), "tasks")
            facts.append(Fact("framework", text, tags, 0.7, started.event_ids, (started.path,)))
        elif named:
            facts.append(named)

    entry = next(
        ((run, ep) for run in runs if run.ok is not False and (ep := _entry_point(run))), None
    )
    if entry:
        facts.append(
            Fact(
                "entry_point",
                f"The app starts with {entry[1]}.",
                ("entry_point", "run"),
                0.6,
                (entry[0].event_id,),
            )
        )

    facts.extend(script_runs(scripts))
    facts.extend(wrapper_scripts(events, runs))
    facts.extend(commit_hooks(events, runs))
    facts.extend(_module_facts(paths, project_id, _module_docs(events, project_id)))
    return facts
