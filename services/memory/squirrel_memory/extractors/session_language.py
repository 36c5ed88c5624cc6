"""The project's language from one session that edited its code and ran that language's tools.

The language fact of a session (`facts.py`) wants a root manifest touched, two code files of
one language or a script the session wrote and ran (`touched_languages.py`): a short session
often edits a single file and runs the tests. One edited file
says little by itself (a Python helper script in a JavaScript app), but an edit corroborated by
a command of the same language's tools (`uv run pytest` after editing `renderer.py`,
`Rscript -e "devtools::test()"` after editing `R/books.R`) is the session's own work in that
language. Every code file the session edited must be in that one language, and a command of
that ecosystem must have run in the session; otherwise the rule says nothing.

When a build of that ecosystem passed through a build system of its own (`npx vite build`,
`./gradlew build`, `cmake --build build`), the fact names it ("JavaScript project, built with
`vite`."): which bundler or build system the project uses is part of its stack. A language's
own toolchain (`go build`, `cargo build`, `dotnet build`) says nothing the language does not,
and a script a package manager or task runner runs (`npm run build`, `make`) names no build
system.
"""

from __future__ import annotations

from squirrel_core.commands import CommandUse
from squirrel_core.events import EventType
from squirrel_memory.code_files import path_ecosystem
from squirrel_memory.extractors.activity import CommandRun, relative_path
from squirrel_memory.extractors.evidence.attempts import attempts
from squirrel_memory.extractors.manifests import code_language
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.models import StoredEvent

KEY = "language"
IMPORTANCE = 0.6
#: Builders that are a language's own toolchain, a package manager or a task runner: a build
#: through one of them names no build system of the project.
_NOT_A_BUILD_SYSTEM = frozenset(
    str.split(
        "go cargo rustc swift zig dotnet mix gleam dart flutter gcc clang javac kotlinc tsc "
        "python node deno bun npm pnpm yarn npx uv pip poetry elixir ghc cabal stack dune "
        "crystal nim make just task rake composer"
    )
)


def _edited(events: list[StoredEvent]) -> dict[str, str]:
    """In-project files the session wrote: path → the event that wrote it."""
    found: dict[str, str] = {}
    for event in events:
        if event.event_type != EventType.CODE_CHANGE:
            continue
        path = event.content.get("path")
        for raw in [path] if isinstance(path, str) else list(event.file_paths):
            rel = relative_path(raw, event.project_id)
            if rel and not rel.startswith(("/", "~", "..", ".")):
                found.setdefault(rel, event.id)
    return found


def session_language(events: list[StoredEvent], runs: list[CommandRun]) -> Fact | None:
    """The language fact when every edited code file is in one language and a command of that
    language's ecosystem ran in the session."""
    if not events:
        return None
    edited = _edited(events)
    languages = {language: path for path in edited if (language := code_language(path))}
    if len(languages) != 1:
        return None
    ((language, path),) = languages.items()
    ecosystem = path_ecosystem(path) or language.lower()
    ran = [
        a
        for a in attempts(runs, events[0].project_id)
        if a.use is not None and a.use.ecosystem == ecosystem and a.run.ok is not False
    ]
    if not ran:
        return None
    built = next((a.use.tool for a in ran if a.run.ok and a.use and _build_system(a.use)), None)
    return Fact(
        KEY,
        f"{language} project, built with `{built}`." if built else f"{language} project.",
        ("language", language.lower()),
        IMPORTANCE,
        (edited[path], ran[0].run.event_id),
    )


def _build_system(use: CommandUse) -> bool:
    """Whether `use` is a build through a build system of the project's own (`vite`, `gradle`)."""
    return (
        use.purpose == "build"
        and use.task is None
        and use.tool.split()[0] not in _NOT_A_BUILD_SYSTEM
    )
