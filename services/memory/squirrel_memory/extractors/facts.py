"""Project facts evident from manifests, paths, imports in code and the commands that run it."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.about import ABOUT_KEY, session_about
from squirrel_memory.extractors.activity import (
    CommandRun,
    core_tokens,
    relative_path,
    split_segments,
)
from squirrel_memory.extractors.file_reads import file_text, read_output, whole_read_output
from squirrel_memory.extractors.modules import (
    file_description,
    module_name,
    says_more_than,
    speaks_for_module,
)
from squirrel_memory.extractors.stack_evidence import (
    StackEvidence,
    code_scope,
    family,
    is_test_data,
    test_runs,
)
from squirrel_memory.extractors.toolchain import classify
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository import primary_ecosystems
from squirrel_memory.repository.deploy import deploy_platform, deploy_text
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import read_instruction_file
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.services import config_reader
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.stack import language_name

MAX_MODULE_FACTS = 5
MAX_CODE_SCAN_CHARS = 50_000

_MANIFEST_LANGUAGES = {
    "pyproject.toml": "Python",
    "setup.py": "Python",
    "setup.cfg": "Python",
    "pipfile": "Python",
    "package.json": "JavaScript",
    "tsconfig.json": "TypeScript",
    "cargo.toml": "Rust",
    "go.mod": "Go",
    "gemfile": "Ruby",
    "pom.xml": "Java",
    "build.gradle": "Java",
    "build.gradle.kts": "Kotlin",
    "composer.json": "PHP",
    "mix.exs": "Elixir",
    "package.swift": "Swift",
    "pubspec.yaml": "Dart",
    "build.sbt": "Scala",
    "cmakelists.txt": "C/C++",
    "build.zig": "Zig",
    "build.zig.zon": "Zig",
    "cabal.project": "Haskell",
    "stack.yaml": "Haskell",
    "gleam.toml": "Gleam",
    "dune-project": "OCaml",
    "deno.json": "TypeScript",
    "deno.jsonc": "TypeScript",
}
#: Manifests known by their suffix (`ledger.cabal`) or by their exact, case-kept name (R's
#: `DESCRIPTION`; a `description` file is anything).
_MANIFEST_SUFFIXES = {".cabal": "Haskell", ".csproj": "C#", ".fsproj": "F#", ".gemspec": "Ruby"}
_EXACT_MANIFESTS = {"DESCRIPTION": "R"}
_EXTENSION_LANGUAGES = {
    ".py": "Python",
    ".ts": "TypeScript",
    ".tsx": "TypeScript",
    ".js": "JavaScript",
    ".jsx": "JavaScript",
    ".mjs": "JavaScript",
    ".go": "Go",
    ".rs": "Rust",
    ".rb": "Ruby",
    ".java": "Java",
    ".kt": "Kotlin",
    ".cs": "C#",
    ".php": "PHP",
    ".swift": "Swift",
    ".c": "C",
    ".cpp": "C++",
    ".ex": "Elixir",
    ".exs": "Elixir",
    ".heex": "Elixir",
    ".erl": "Erlang",
    ".scala": "Scala",
    ".dart": "Dart",
    ".zig": "Zig",
    ".hs": "Haskell",
    ".gleam": "Gleam",
    ".ml": "OCaml",
    ".mli": "OCaml",
    ".r": "R",
    ".vue": "JavaScript",
    ".svelte": "JavaScript",
}
#: Imported or declared package → (fact key, display name).
_LIBRARIES: dict[str, tuple[str, str]] = {
    "fastapi": ("framework", "FastAPI"),
    "django": ("framework", "Django"),
    "flask": ("framework", "Flask"),
    "starlette": ("framework", "Starlette"),
    "aiohttp": ("framework", "aiohttp"),
    "tornado": ("framework", "Tornado"),
    "litestar": ("framework", "Litestar"),
    "textual": ("framework", "Textual"),
    "react": ("framework", "React"),
    "next": ("framework", "Next.js"),
    "vue": ("framework", "Vue"),
    "svelte": ("framework", "Svelte"),
    "express": ("framework", "Express"),
    "fastify": ("framework", "Fastify"),
    "@nestjs/core": ("framework", "NestJS"),
    "@angular/core": ("framework", "Angular"),
    "sqlalchemy": ("database", "SQLAlchemy"),
    "psycopg": ("database", "PostgreSQL"),
    "psycopg2": ("database", "PostgreSQL"),
    "asyncpg": ("database", "PostgreSQL"),
    "pg": ("database", "PostgreSQL"),
    "sqlite3": ("database", "SQLite"),
    "aiosqlite": ("database", "SQLite"),
    "pymongo": ("database", "MongoDB"),
    "motor": ("database", "MongoDB"),
    "mongoose": ("database", "MongoDB"),
    "redis": ("database", "Redis"),
    "pymysql": ("database", "MySQL"),
    "prisma": ("database", "Prisma"),
    "@prisma/client": ("database", "Prisma"),
    "pydantic": ("libraries", "Pydantic"),
    "jinja2": ("libraries", "Jinja2"),
    "click": ("libraries", "Click"),
    "typer": ("libraries", "Typer"),
    "celery": ("libraries", "Celery"),
    "httpx": ("libraries", "httpx"),
    "requests": ("libraries", "requests"),
    "structlog": ("libraries", "structlog"),
    "grpc": ("libraries", "gRPC"),
    "numpy": ("libraries", "NumPy"),
    "pandas": ("libraries", "pandas"),
    "torch": ("libraries", "PyTorch"),
    "zod": ("libraries", "Zod"),
    "tailwindcss": ("libraries", "Tailwind CSS"),
    "pytest": ("testing", "pytest"),
    "vitest": ("testing", "Vitest"),
    "jest": ("testing", "Jest"),
    "@jest/globals": ("testing", "Jest"),
    "mocha": ("testing", "Mocha"),
    "playwright": ("testing", "Playwright"),
    "@playwright/test": ("testing", "Playwright"),
    "cypress": ("testing", "Cypress"),
}
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
_MANIFEST_NAMES = frozenset(
    {"pyproject.toml", "package.json", "requirements.txt", "pipfile", "cargo.toml"}
    | {"mix.exs", "gemfile", "go.mod", "composer.json", "pom.xml", "build.gradle"}
    | {"build.gradle.kts", "setup.cfg", "setup.py"}
)
_FACT_IMPORTANCE = {"libraries": 0.45, "testing": 0.5}
_PY_IMPORT = re.compile(
    r"^\s*(?:\d+\s*(?:→|\t)\s*)?(?:from\s+([A-Za-z_][\w]*)[\w.]*\s+import\b|import\s+([A-Za-z_]\w*))",
    re.MULTILINE,
)
_JS_IMPORT = re.compile(r"""(?:\bfrom\s+|\brequire\(\s*)['"](@?[\w.-]+(?:/[\w.-]+)?)['"]""")
_MANIFEST_DEP = re.compile(
    r"""["']?(@?[A-Za-z][\w.-]*(?:/[\w.-]+)?)["']?\s*(?:[<>=~!^\[;:,"']|$)"""
)
#: Folders whose files are not the project's (dependencies, environments, build output).
_FOREIGN_DIRS = frozenset(
    {"deps", "node_modules", "vendor", "third_party", "site-packages", ".venv", "venv", "_build"}
    | {"target", "dist", "build", ".tox", "__pycache__", "Pods", ".dart_tool", ".next"}
)
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


@dataclass(frozen=True, slots=True)
class Fact:
    """A project fact: key, clean statement, tags, strength, paths and the events behind it."""

    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    event_ids: tuple[str, ...]
    file_paths: tuple[str, ...] = ()


def _in_project(path: str) -> bool:
    """A project-relative path outside dependency, environment and build folders."""
    parts = PurePosixPath(path).parts
    return (
        bool(parts)
        and not path.startswith(("/", "~"))
        and not any(part in _FOREIGN_DIRS for part in parts[:-1])
    )


def _code_texts(event: StoredEvent) -> list[str]:
    """Code an event wrote (tool inputs) or read (file tool output), for import scanning."""
    content: dict[str, Any] = event.content
    texts: list[str] = []
    if event.event_type == EventType.TOOL_CALL and isinstance(content.get("input"), dict):
        tool_input = content["input"]
        for name in ("content", "new_string", "new_source"):
            if isinstance(tool_input.get(name), str):
                texts.append(tool_input[name])
        edits = tool_input.get("edits")
        if isinstance(edits, list):
            texts.extend(
                e["new_string"]
                for e in edits
                if isinstance(e, dict) and isinstance(e.get("new_string"), str)
            )
    elif (output := read_output(event)) is not None:
        texts.append(output)
    return [t[:MAX_CODE_SCAN_CHARS] for t in texts]


def _libraries_in(text: str, manifest: bool) -> set[str]:
    names: set[str] = set()
    for match in _PY_IMPORT.finditer(text):
        names.add((match.group(1) or match.group(2)).lower())
    names.update(m.lower() for m in _JS_IMPORT.findall(text))
    if manifest:
        names.update(m.lower() for m in _MANIFEST_DEP.findall(text))
    return {n for n in names if n in _LIBRARIES}


def extension_language(suffix: str) -> str | None:
    """The language a code file's suffix (`.py`) says it is in, or None."""
    return _EXTENSION_LANGUAGES.get(suffix.lower())


def manifest_language(name: str) -> str | None:
    """The language a manifest file name says a project is in, or None."""
    lower = name.lower()
    if lower.startswith("requirements") and lower.endswith(".txt"):
        return "Python"
    found = _MANIFEST_LANGUAGES.get(lower) or _EXACT_MANIFESTS.get(name)
    if found is None and "." in lower:
        found = _MANIFEST_SUFFIXES.get(lower[lower.rindex(".") :])
    return found


def _language_fact(paths: list[tuple[str, str]]) -> Fact | None:
    """The project's languages: manifests at the root first, then the languages of the code
    files touched (twice at least); a manifest in a sub-folder (`assets/package.json`) only
    names a secondary language."""
    manifests: dict[str, str] = {}
    nested: dict[str, str] = {}
    files: dict[str, set[str]] = {}
    ids: set[str] = set()
    for path, event_id in paths:
        pure = PurePosixPath(path)
        language = manifest_language(pure.name)
        if language:
            (manifests if len(pure.parts) == 1 else nested).setdefault(language, path)
            ids.add(event_id)
        ext_language = _EXTENSION_LANGUAGES.get(pure.suffix.lower())
        if ext_language:
            files.setdefault(ext_language, set()).add(path)
            ids.add(event_id)
    if "TypeScript" in manifests or "TypeScript" in files:
        manifests.pop("JavaScript", None)
        files.pop("JavaScript", None)
    counts = Counter({lang: len(found) for lang, found in files.items()})
    languages = list(manifests) + [
        lang
        for lang, n in counts.most_common()
        if (n >= 2 or (lang in nested and not manifests)) and lang not in manifests
    ]
    if not languages:
        return None
    evidence = sorted(set(manifests.values()))
    text = " and ".join(languages[:3]) + " project"
    text += f" ({', '.join(evidence)})." if evidence else "."
    tags = ("language", *(lang.lower() for lang in languages[:3]))
    return Fact("language", text, tags, 0.6, tuple(sorted(ids)))


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


def _first_project_path(event: StoredEvent) -> str | None:
    """The first path an event names that is inside the project (relative to its root)."""
    for raw in event.file_paths:
        if raw and _in_project(rel := relative_path(raw, event.project_id)):
            return rel
    return None


def _whole_file(event: StoredEvent) -> tuple[str, str] | None:
    """(project path, text) of a whole file a session read or wrote (a Read from line 1, or a
    Write's content); None for partial reads, edits and failures."""
    content: dict[str, Any] = event.content
    rel = _first_project_path(event)
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
        if raw and _in_project(rel := relative_path(raw, event.project_id))
    ]
    facts: list[Fact] = []
    # A repository with commits answers "what language" from its own files (`repo:` facts);
    # the files one session touched (an `assets/package.json`) must not contradict it.
    if repository is None:
        repository = bool(primary_ecosystems(project_id))
    language = None if repository else _language_fact(paths)
    if language:
        facts.append(language)
    about = None if repository else session_about(events)
    if about:
        text, source, event_ids = about
        facts.append(Fact(ABOUT_KEY, text, ("overview", "about"), 0.7, event_ids, (source,)))
    facts.extend(_layout_facts(paths))

    facts.extend(_stack_facts(events, runs, paths, project_id))

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

    facts.extend(_module_facts(paths, project_id, _module_docs(events, project_id)))
    return facts


def _main_families(paths: list[tuple[str, str]], project_id: str) -> set[str]:
    """The project's main language families: the repository's primary ecosystems when it is
    read, else the languages of the root manifests the session touched, else of most code."""
    ecosystems = primary_ecosystems(project_id)
    if ecosystems:
        return {family(language_name(eco)) for eco in ecosystems}
    root = {
        family(language)
        for path, _ in paths
        if "/" not in path and (language := _MANIFEST_LANGUAGES.get(path.lower()))
    }
    if root:
        return root
    counts = Counter(
        family(language)
        for path, _ in paths
        if (language := _EXTENSION_LANGUAGES.get(PurePosixPath(path).suffix.lower()))
    )
    return {counts.most_common(1)[0][0]} if counts else set()


def _is_manifest(path: str) -> bool:
    name = PurePosixPath(path).name.lower()
    return name in _MANIFEST_NAMES or (name.startswith("requirements") and name.endswith(".txt"))


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
    return {s.name for s in out.services if s.kind == "database" and s.configured}


def _stack_evidence(
    events: list[StoredEvent], runs: list[CommandRun], paths: list[tuple[str, str]], project_id: str
) -> StackEvidence:
    main = _main_families(paths, project_id)
    packages = {str(PurePosixPath(p).parent) for p, _ in paths if _is_manifest(p) and "/" in p}
    evidence = StackEvidence()
    for event in events:
        rel = _first_project_path(event)
        if rel is None or is_test_data(rel):
            continue
        manifest = _is_manifest(rel)
        if manifest:
            parent = str(PurePosixPath(rel).parent)
            scope = "" if parent == "." else parent
        else:
            language = _EXTENSION_LANGUAGES.get(PurePosixPath(rel).suffix.lower())
            scope = code_scope(rel, packages, main, language)
        for text in _code_texts(event):
            # Code that imports a library uses it; a manifest only declares it.
            for name in sorted(_libraries_in(text, manifest)):
                key, display = _LIBRARIES[name]
                evidence.add(key, display, scope, event.id, strong=not manifest)
        for database in sorted(_configured_databases(event, rel)):
            evidence.add("database", database, scope, event.id, strong=True)
    testing = {display.lower(): display for key, display in _LIBRARIES.values() if key == "testing"}
    for tool, scope, event_id in test_runs(runs, project_id):
        framework = testing.get(tool.lower())
        if framework:
            evidence.add("testing", framework, scope, event_id, strong=True, ran=True)
        else:
            evidence.other_runners.setdefault(scope, set()).add(tool)
    return evidence


def _stack_facts(
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


def known_stack() -> dict[str, str]:
    """Framework, database, library and language names (lower-cased) mapped to their kind."""
    # Test frameworks are left to the command table (`test_runner`), so "Uses pytest." and
    # "Uses unittest." stay values of one kind.
    names = {display.lower(): key for key, display in _LIBRARIES.values() if key != "testing"}
    for language in {*_MANIFEST_LANGUAGES.values(), *_EXTENSION_LANGUAGES.values()}:
        names[language.lower()] = "language"
    return names
