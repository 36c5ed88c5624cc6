"""Which files a session touched are the project's own, which of them are manifests and what
language each names, and which libraries a text declares or imports."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import read_output
from squirrel_memory.extractors.test_headers import included_test_frameworks
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.stack import dependency_role

MAX_CODE_SCAN_CHARS = 50_000

MANIFEST_LANGUAGES = {
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
    "shard.yml": "Crystal",
    "project.clj": "Clojure",
    "deps.edn": "Clojure",
    "elm.json": "Elm",
    "rebar.config": "Erlang",
    "cpanfile": "Perl",
    "project.toml": "Julia",
}
#: Manifests known by their suffix (`ledger.cabal`) or by their exact, case-kept name (R's
#: `DESCRIPTION`; a `description` file is anything).
_MANIFEST_SUFFIXES = {".cabal": "Haskell", ".csproj": "C#", ".fsproj": "F#", ".gemspec": "Ruby"}
_MANIFEST_SUFFIXES |= {".nimble": "Nim", ".opam": "OCaml", ".rockspec": "Lua"}
_EXACT_MANIFESTS = {"DESCRIPTION": "R"}
#: Code file suffix → its language, for the common languages of every ecosystem. A suffix
#: two common languages share says neither: a header (`.h`) may be C or C++, a `.pl` file Perl
#: or Prolog, a `.m` file Objective-C or MATLAB, a `.v` file Verilog or Coq. Configuration and
#: data formats are in `NON_LANGUAGE_SUFFIXES`, never here.
EXTENSION_LANGUAGES = {
    ".py": "Python",
    ".pyi": "Python",
    ".ts": "TypeScript",
    ".tsx": "TypeScript",
    ".mts": "TypeScript",
    ".cts": "TypeScript",
    ".js": "JavaScript",
    ".jsx": "JavaScript",
    ".mjs": "JavaScript",
    ".cjs": "JavaScript",
    ".vue": "JavaScript",
    ".svelte": "JavaScript",
    ".go": "Go",
    ".rs": "Rust",
    ".rb": "Ruby",
    ".rake": "Ruby",
    ".java": "Java",
    ".kt": "Kotlin",
    ".kts": "Kotlin",
    ".scala": "Scala",
    ".sc": "Scala",
    ".groovy": "Groovy",
    ".clj": "Clojure",
    ".cljs": "Clojure",
    ".cljc": "Clojure",
    ".cs": "C#",
    ".fs": "F#",
    ".fsx": "F#",
    ".vb": "Visual Basic",
    ".php": "PHP",
    ".swift": "Swift",
    ".mm": "Objective-C",
    ".c": "C",
    ".cpp": "C++",
    ".cc": "C++",
    ".cxx": "C++",
    ".c++": "C++",
    ".hpp": "C++",
    ".hh": "C++",
    ".hxx": "C++",
    ".ex": "Elixir",
    ".exs": "Elixir",
    ".heex": "Elixir",
    ".erl": "Erlang",
    ".hrl": "Erlang",
    ".gleam": "Gleam",
    ".dart": "Dart",
    ".zig": "Zig",
    ".nim": "Nim",
    ".cr": "Crystal",
    ".hs": "Haskell",
    ".lhs": "Haskell",
    ".ml": "OCaml",
    ".mli": "OCaml",
    ".elm": "Elm",
    ".purs": "PureScript",
    ".r": "R",
    ".jl": "Julia",
    ".lua": "Lua",
    ".pm": "Perl",
    ".el": "Emacs Lisp",
    ".lisp": "Common Lisp",
    ".scm": "Scheme",
    ".rkt": "Racket",
    ".f90": "Fortran",
    ".f95": "Fortran",
    ".f03": "Fortran",
    ".f08": "Fortran",
    ".f": "Fortran",
    ".for": "Fortran",
    ".sol": "Solidity",
    ".cairo": "Cairo",
    ".vy": "Vyper",
    ".sh": "Shell",
    ".bash": "Shell",
    ".zsh": "Shell",
    ".fish": "Shell",
    ".ps1": "PowerShell",
    ".cu": "CUDA",
    ".asm": "Assembly",
    ".vhd": "VHDL",
    ".sv": "SystemVerilog",
    ".odin": "Odin",
    ".mojo": "Mojo",
    ".ino": "Arduino",
    ".tcl": "Tcl",
    ".pas": "Pascal",
    ".adb": "Ada",
    ".cob": "COBOL",
    ".prolog": "Prolog",
}
#: Code suffixes two common languages share (see `EXTENSION_LANGUAGES`): code, in a language
#: something else must tell (the interpreter that runs it, a manifest).
SHARED_CODE_SUFFIXES = frozenset({".h", ".pl", ".m", ".v"})
#: Configuration, data, markup and infrastructure formats: files of these kinds are touched in
#: every ecosystem and never say what language a project is written in.
NON_LANGUAGE_SUFFIXES = frozenset(
    {".json", ".jsonc", ".json5", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".env"}
    | {".xml", ".plist", ".csv", ".tsv", ".lock", ".md", ".mdx", ".rst", ".txt", ".adoc"}
    | {".org", ".html", ".htm", ".css", ".scss", ".sass", ".less", ".svg", ".properties"}
    | {".tf", ".tfvars", ".hcl", ".nix", ".dhall", ".cue", ".jsonnet", ".bicep", ".proto"}
    | {".graphql", ".gql", ".sql", ".sqlite", ".db", ".log", ".diff", ".patch", ".ipynb"}
)
#: Language names that are also everyday words: not looked for in prose as stack names.
_EVERYDAY_LANGUAGE_WORDS = frozenset({"shell", "crystal", "assembly"})
#: Imported or declared package → (fact key, display name).
LIBRARIES: dict[str, tuple[str, str]] = {
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
_MANIFEST_NAMES = frozenset(
    {"pyproject.toml", "package.json", "requirements.txt", "pipfile", "cargo.toml"}
    | {"mix.exs", "gemfile", "go.mod", "composer.json", "pom.xml", "build.gradle"}
    | {"build.gradle.kts", "setup.cfg", "setup.py"}
)
_PY_IMPORT = re.compile(
    r"^[ \t]*(?:\d+[ \t]*(?:→|\t)[ \t]*)?"
    r"(?:from\s+([A-Za-z_][\w]*)[\w.]*\s+import\b|import\s+([A-Za-z_]\w*))",
    re.MULTILINE,
)
_JS_IMPORT = re.compile(r"""(?:\bfrom\s+|\brequire\(\s*)['"](@?[\w.-]+(?:/[\w.-]+)?)['"]""")
#: Rust's `use axum::Router;`, `pub use ::sqlx::Pool;`, `extern crate diesel;`: the crate a
#: path starts with (`crate::`, `self::`, `super::` and the standard library name none here).
_RUST_USE = re.compile(
    r"^[ \t]*(?:\d+[ \t]*(?:→|\t)[ \t]*)?"
    r"(?:(?:pub(?:\s*\([^)]*\))?\s+)?use\s+(?:::)?|extern\s+crate\s+)"
    r"([a-z_][a-z0-9_]*)\s*(?:::|;|\s+as\b)",
    re.MULTILINE,
)
#: Rust crates, as code names them (`actix_web` for `actix-web`) → (fact key, display name):
#: a table of their own, since a crate may share its name with another ecosystem's package.
RUST_CRATES: dict[str, tuple[str, str]] = {
    "axum": ("framework", "Axum"),
    "actix_web": ("framework", "Actix Web"),
    "rocket": ("framework", "Rocket"),
    "warp": ("framework", "warp"),
    "tauri": ("framework", "Tauri"),
    "leptos": ("framework", "Leptos"),
    "sqlx": ("database", "SQLx"),
    "diesel": ("database", "Diesel"),
    "sea_orm": ("database", "SeaORM"),
    "rusqlite": ("database", "SQLite"),
    "tokio_postgres": ("database", "PostgreSQL"),
    "postgres": ("database", "PostgreSQL"),
    "redis": ("database", "Redis"),
    "mongodb": ("database", "MongoDB"),
    "tokio": ("libraries", "Tokio"),
    "serde": ("libraries", "Serde"),
    "clap": ("libraries", "clap"),
    "reqwest": ("libraries", "reqwest"),
    "rstest": ("testing", "rstest"),
}
#: Go's import specs (`"github.com/jackc/pgx/v5/pgxpool"`, `_ "github.com/lib/pq"`, `import
#: pq "github.com/lib/pq"`): the module path, one a line as gofmt writes them.
_GO_IMPORT = re.compile(
    r"^[ \t]*(?:\d+[ \t]*(?:→|\t)[ \t]*)?(?:import[ \t]+)?(?:[\w.]+[ \t]+)?"
    r"\"([\w.-]+(?:/[\w.~-]+)+)\"\s*$",
    re.MULTILINE,
)
#: Go database drivers, by the module path their import starts with → (fact key, name): what
#: the code opens, as `RUST_CRATES` says for Rust.
GO_MODULES: dict[str, tuple[str, str]] = {
    "github.com/jackc/pgx": ("database", "PostgreSQL"),
    "github.com/lib/pq": ("database", "PostgreSQL"),
    "github.com/mattn/go-sqlite3": ("database", "SQLite"),
    "modernc.org/sqlite": ("database", "SQLite"),
    "github.com/go-sql-driver/mysql": ("database", "MySQL"),
    "go.mongodb.org/mongo-driver": ("database", "MongoDB"),
}


#: Zig's `@import("httpz")`: a package by its name in `build.zig.zon` (not `std`, `builtin`,
#: `root` or a file such as `"util.zig"`).
_ZIG_IMPORT = re.compile(r'@import\(\s*"(?P<name>[A-Za-z_][\w-]*)"\s*\)')
_ZIG_OWN = frozenset({"std", "builtin", "root"})


def _zig_packages(text: str) -> set[tuple[str, str]]:
    """(fact key, name) of each package of the stack table that Zig code imports."""
    found: set[tuple[str, str]] = set()
    for name in _ZIG_IMPORT.findall(text):
        role = dependency_role("zig", name) if name not in _ZIG_OWN else None
        if role is not None:
            found.add((role.role, role.name))
    return found


def _go_modules(text: str) -> set[tuple[str, str]]:
    """(fact key, name) of each known Go module the code imports (`GO_MODULES`)."""
    found: set[tuple[str, str]] = set()
    for path in _GO_IMPORT.findall(text):
        for module, named in GO_MODULES.items():
            if path == module or path.startswith(f"{module}/"):
                found.add(named)
    return found


#: Folders whose files are not the project's (dependencies, environments, build output) in
#: any ecosystem: SwiftPM's `.build/checkouts`, an opam switch, Zig's and Haskell's caches …
_FOREIGN_DIRS = frozenset(
    {"deps", "node_modules", "vendor", "third_party", "site-packages", ".venv", "venv", "_build"}
    | {"target", "dist", "build", ".tox", "__pycache__", "Pods", ".dart_tool", ".next"}
    | {".build", "_opam", ".zig-cache", "zig-cache", "zig-out", ".stack-work", "dist-newstyle"}
    | {".cpcache", "elm-stuff", ".gradle", ".pub-cache"}
)


def in_project(path: str) -> bool:
    """A project-relative path outside dependency, environment and build folders."""
    parts = PurePosixPath(path).parts
    return (
        bool(parts)
        and not path.startswith(("/", "~"))
        and not any(part in _FOREIGN_DIRS for part in parts[:-1])
    )


def code_texts(event: StoredEvent) -> list[str]:
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


def libraries_in(text: str, language: str | None = None) -> set[tuple[str, str]]:
    """(fact key, display name) of each known library a text of code imports (a manifest's
    declarations are read by `declared_libraries`): Python and JavaScript imports in any code
    (`LIBRARIES`), Rust's `use` and `extern crate` in Rust code (`RUST_CRATES`), where a `use`
    line of another language (PHP, Perl) or of prose names no crate, the database drivers Go
    code imports (`GO_MODULES`), the packages Zig code imports (`@import("httpz")`, named in
    the stack table), and the test framework a C or C++ file includes
    (`test_headers`)."""
    names: set[str] = set()
    for match in _PY_IMPORT.finditer(text):
        names.add((match.group(1) or match.group(2)).lower())
    names.update(m.lower() for m in _JS_IMPORT.findall(text))
    found = {LIBRARIES[n] for n in names if n in LIBRARIES}
    if language == "Rust":
        found.update(RUST_CRATES[c] for c in _RUST_USE.findall(text) if c in RUST_CRATES)
    if language == "Go":
        found.update(_go_modules(text))
    if language == "Zig":
        found.update(_zig_packages(text))
    found.update(included_test_frameworks(text, language))
    return found


def extension_language(suffix: str) -> str | None:
    """The language a code file's suffix (`.py`) says it is in, or None."""
    return EXTENSION_LANGUAGES.get(suffix.lower())


#: Build scripts written in a code language (Gradle's Kotlin DSL): the build's configuration, as
#: a manifest is, never the project's code.
_BUILD_SCRIPT_ENDINGS = (".gradle.kts",)


def code_language(path: str) -> str | None:
    """The language of a code file by its suffix (`src/app.py` → Python), or None for any other
    file, a build script among them (`settings.gradle.kts`)."""
    if path.lower().endswith(_BUILD_SCRIPT_ENDINGS):
        return None
    return extension_language(PurePosixPath(path).suffix)


#: Root manifests that may list nothing but a project's tools (commit hooks, release lanes,
#: linters, a docs generator) in a project whose code is in another language.
_TOOLING_MANIFESTS = frozenset({"package.json", "gemfile", "pipfile"})


def may_list_tools_only(path: str) -> bool:
    """Whether a manifest (`package.json`, `Gemfile`, a `requirements.txt`) may list only tools,
    not the dependencies of code: it names a language only beside code of that language."""
    name = PurePosixPath(path).name.lower()
    return name in _TOOLING_MANIFESTS or (name.startswith("requirements") and name.endswith(".txt"))


def manifest_language(name: str) -> str | None:
    """The language a manifest file name says a project is in, or None."""
    lower = name.lower()
    if lower.startswith("requirements") and lower.endswith(".txt"):
        return "Python"
    found = MANIFEST_LANGUAGES.get(lower) or _EXACT_MANIFESTS.get(name)
    if found is None and "." in lower:
        found = _MANIFEST_SUFFIXES.get(lower[lower.rindex(".") :])
    return found


#: JVM build files name the ecosystem, not which of its languages the code is in: a Gradle
#: build written in Kotlin (`build.gradle.kts`) builds Java code as often as Kotlin.
_JVM_BUILD_FILES = frozenset({"pom.xml", "build.gradle", "build.gradle.kts", "build.sbt"})
_JVM_LANGUAGES = frozenset({"Java", "Kotlin", "Scala", "Groovy", "Clojure"})


def built_language(name: str, code: Iterable[str]) -> str | None:
    """The language a root manifest says the project is in; for a JVM build file, the one JVM
    language of the code the session touched (`code`), when there is one."""
    if name.lower() in _JVM_BUILD_FILES:
        jvm = {language for language in code if language in _JVM_LANGUAGES}
        if len(jvm) == 1:
            return jvm.pop()
    return manifest_language(name)


def first_project_path(event: StoredEvent) -> str | None:
    """The first path an event names that is inside the project (relative to its root)."""
    for raw in event.file_paths:
        if raw and in_project(rel := relative_path(raw, event.project_id)):
            return rel
    return None


def is_manifest(path: str) -> bool:
    """Whether a path names a dependency manifest (`package.json`, `requirements-dev.txt`)."""
    name = PurePosixPath(path).name.lower()
    return name in _MANIFEST_NAMES or (name.startswith("requirements") and name.endswith(".txt"))


def known_stack() -> dict[str, str]:
    """Framework, database, library and language names (lower-cased) mapped to their kind."""
    # Test frameworks are left to the command table (`test_runner`), so "Uses pytest." and
    # "Uses unittest." stay values of one kind.
    names = {display.lower(): key for key, display in LIBRARIES.values() if key != "testing"}
    for language in {*MANIFEST_LANGUAGES.values(), *EXTENSION_LANGUAGES.values()}:
        if language.lower() not in _EVERYDAY_LANGUAGE_WORDS:
            names[language.lower()] = "language"
    return names
