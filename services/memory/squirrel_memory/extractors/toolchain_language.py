"""The project's language from the language tools a session ran on it, when nothing else says.

A session that reviews, formats or checks the project may read no manifest and edit no code
file, yet run the checks of its language at the project's root: `cargo fmt --check`,
`go vet ./...`, `swift build`, `mix test`, `dart test`. Such a run says
which language's tools the project is checked with; the statement says that and no more
("Commands run on this project in its sessions are Rust's: `cargo fmt --check`."). The
rule, the same for every ecosystem (the command table's, `squirrel_core.commands`):

- a command of a language's own tools that checks the code (tests, format, lint, type-check,
  build), run at the project's root, that succeeded; a project task (`make test`,
  `npm run lint`) names no language, nor does a tool of no language (containers, docs);
- every recognised command of the session, anywhere in the project and whatever its outcome,
  belongs to that one language's tools: a second language's (`pnpm build` beside
  `cargo build` in an app with a native core) is a conflict, and then nothing is said;
- a code file of another language the session read or edited in the project (a Ruby file
  edited while `go test` runs) is a conflict as well;
- a command run in another folder (`cd ../other && …`) is not the project's;
- ecosystems that are no one language (the JVM's, .NET's, C and C++ build tools, Node's
  JavaScript or TypeScript) say nothing.

It is the weakest language statement: a root manifest, the code files touched and the files
git listed all say more, and replace it (`touched_languages.merged_statement`).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import CommandRun, relative_path
from squirrel_memory.extractors.elsewhere import ran_elsewhere
from squirrel_memory.extractors.evidence.attempts import (
    NEUTRAL_ECOSYSTEMS,
    SIDE_ECOSYSTEMS,
    Attempt,
    attempts,
)
from squirrel_memory.extractors.evidence.command_picks import whole_run
from squirrel_memory.extractors.manifests import extension_language, in_project
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.models import StoredEvent

KEY = "language"
IMPORTANCE = 0.5
TOOLS_PREFIX = "Commands run on this project in its sessions are "
#: The tag of the statement: a weaker one than a count of files (`touched_languages`).
TOOLS_TAG = "tools"
#: Ecosystems of the command table that are one language.
LANGUAGES = {
    "python": "Python",
    "go": "Go",
    "rust": "Rust",
    "ruby": "Ruby",
    "php": "PHP",
    "elixir": "Elixir",
    "swift": "Swift",
    "dart": "Dart",
    "zig": "Zig",
    "haskell": "Haskell",
    "gleam": "Gleam",
    "ocaml": "OCaml",
    "r": "R",
    "erlang": "Erlang",
    "clojure": "Clojure",
    "lua": "Lua",
    "perl": "Perl",
}
#: Languages of scripts that sit beside a project's code in any language.
_BESIDE_ANY = frozenset({"Shell", "PowerShell"})
#: What a command does that checks the project's code.
_CHECKS = frozenset({"test", "format", "lint", "typecheck", "build"})


def _checks(attempt: Attempt) -> bool:
    use = attempt.use
    return (
        use is not None
        and use.task is None
        and use.purpose in _CHECKS
        and attempt.scope == ""
        and attempt.run.ok is True
        and not attempt.ran_no_test
    )


def touched_languages(events: list[StoredEvent]) -> set[str]:
    """The languages of the project's own code files the session read or edited (shell
    scripts sit beside code of any language and are left out)."""
    return {
        language
        for event in events
        for raw in event.file_paths
        if in_project(rel := relative_path(raw, event.project_id))
        and (language := extension_language(PurePosixPath(rel).suffix)) is not None
        and language not in _BESIDE_ANY
    }


def toolchain_language(events: list[StoredEvent], runs: list[CommandRun]) -> Fact | None:
    """The language whose tools alone checked the project in `runs` (module docstring)."""
    if not events:
        return None
    project_id = events[0].project_id
    ecosystems: set[str] = set()
    shown: Attempt | None = None
    for attempt in attempts(runs, project_id):
        use = attempt.use
        if use is None or use.ecosystem in NEUTRAL_ECOSYSTEMS | SIDE_ECOSYSTEMS:
            continue
        if ran_elsewhere(attempt.run.command, project_id):
            continue
        ecosystems.add(use.ecosystem)
        if _checks(attempt) and (shown is None or (whole_run(attempt) and not whole_run(shown))):
            shown = attempt  # the first whole run, else the first that picked some tests
    if shown is None or shown.use is None or len(ecosystems) != 1:
        return None
    language = LANGUAGES.get(shown.use.ecosystem)
    if language is None or touched_languages(events) - {language}:
        return None
    # A test run that picked some tests shows the runner alone (`bundle exec rspec`); a check
    # of one file shows how a file is checked (`php -l src/Cart.php`).
    picked = shown.use.purpose == "test" and not whole_run(shown)
    command = shown.base if picked else shown.text
    return Fact(
        KEY,
        f"{TOOLS_PREFIX}{language}'s: `{command}`.",
        ("language", TOOLS_TAG, language.lower()),
        IMPORTANCE,
        (shown.run.event_id,),
    )


#: The statement of the tools the project's build configuration runs (`config_commands`), as
#: weak as this rule's.
CONFIG_PREFIX = "Commands the project's build configuration runs are "


def is_tools_statement(text: str) -> bool:
    """Whether a language statement is this rule's, or says what tools the project's build
    configuration runs (`config_commands`)."""
    return text.startswith((TOOLS_PREFIX, CONFIG_PREFIX))
