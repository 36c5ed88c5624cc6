"""The project's language from the commands its build printed as it ran them, when the session
shows nothing else of it.

A session may only run the project's own tasks (`make all`, `make run`, `just build`) and read
no manifest or code file. `make` and `just` print every recipe line before they run it, so the
output of such a run shows the commands the project's build configuration runs: `go build -o
bin/server .`, `cargo build --release`. When every command of the command table among them is
one language's own tools, the project is built with that language's tools, and the statement
says that and no more ("Commands the project's build configuration runs are Go's: `go build -o
bin/tally ./cmd/tally` (printed by `make all`)."). The rule, the same for every ecosystem:

- the run is a task of `make` or `just` at the project's root that succeeded (a failed run may
  have stopped before its real work; a run in another folder builds something else);
- an echoed command is a whole output line read as a command by the command table; only a
  language's own build, test, format, lint or type-check command is shown, and every
  recognised command of every such run (tools of no one language, containers and docs left
  aside) belongs to that one language: two languages' tools say nothing, nor does a code file
  of another language the session read or edited;
- a line that works in a folder outside the project (`cd ../other && go build`) is not the
  project's;
- it is as weak as the commands a configuration file runs (`config_commands`): any count of
  files or root manifest replaces it (`touched_languages.merged_statement`).
"""

from __future__ import annotations

from dataclasses import replace

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.elsewhere import moved_from_root, ran_elsewhere
from squirrel_memory.extractors.evidence.attempts import (
    NEUTRAL_ECOSYSTEMS,
    SIDE_ECOSYSTEMS,
    Attempt,
    attempts,
)
from squirrel_memory.extractors.git_listed import folder_of
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.toolchain_language import (
    CONFIG_PREFIX,
    IMPORTANCE,
    KEY,
    LANGUAGES,
    TOOLS_TAG,
    touched_languages,
)
from squirrel_memory.models import StoredEvent

#: Task runners that print each recipe line before running it.
_ECHOING_RUNNERS = frozenset({"make", "just"})
#: What an echoed command does that shows the project's language.
_SHOWN_PURPOSES = frozenset({"build", "test", "format", "lint", "typecheck"})


def _task_runs(runs: list[CommandRun], project_id: str) -> list[tuple[CommandRun, str]]:
    """(run, the task as typed) of every succeeded `make`/`just` task at the project's root."""
    found: list[tuple[CommandRun, str]] = []
    for attempt in attempts(runs, project_id):
        run = attempt.run
        if (
            attempt.program not in _ECHOING_RUNNERS
            or attempt.scope != ""
            or run.ok is not True
            or folder_of(run.cwd, project_id) != ""
            or ran_elsewhere(run.command, project_id)
            or moved_from_root(run.segments, project_id)
        ):
            continue
        if not any(r is run for r, _ in found):
            found.append((run, attempt.text))
    return found


def _echoed(run: CommandRun, project_id: str) -> list[Attempt]:
    """The commands of the table among `run`'s output lines, each read as run at the root."""
    lines = [line.strip() for line in run.output.replace("\r", "\n").splitlines()]
    echoed: list[Attempt] = []
    for line in lines:
        if not line or ran_elsewhere(line, project_id):
            continue
        as_run = replace(run, command=line, cwd=None)
        echoed.extend(a for a in attempts([as_run], project_id) if a.use is not None)
    return echoed


def echoed_language(events: list[StoredEvent], runs: list[CommandRun]) -> Fact | None:
    """The one language whose tools the project's `make`/`just` tasks printed as they ran them
    (module docstring), or None."""
    if not events:
        return None
    project_id = events[0].project_id
    ecosystems: set[str] = set()
    shown: list[tuple[str, str, str]] = []  # (command, task, event id)
    for run, task in _task_runs(runs, project_id):
        for attempt in _echoed(run, project_id):
            use = attempt.use
            if use is None or use.ecosystem in NEUTRAL_ECOSYSTEMS | SIDE_ECOSYSTEMS:
                continue
            ecosystems.add(use.ecosystem)
            if use.task is None and use.purpose in _SHOWN_PURPOSES and attempt.scope == "":
                shown.append((attempt.text, task, run.event_id))
    if not shown or len(ecosystems) != 1:
        return None
    language = LANGUAGES.get(ecosystems.pop())
    if language is None or touched_languages(events) - {language}:
        return None
    command, task, event_id = min(shown, key=lambda s: len(s[0]))
    return Fact(
        KEY,
        f"{CONFIG_PREFIX}{language}'s: `{command}` (printed by `{task}`).",
        ("language", TOOLS_TAG, language.lower()),
        IMPORTANCE,
        (event_id,),
    )
