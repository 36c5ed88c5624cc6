"""The project's tasks, from the task-runner files the assistant read in a session.

Without a registered repository, a `package.json`, `Makefile`, `justfile`, `Taskfile.yml`,
`mise.toml`, `pixi.toml`, `deno.json`, `Rakefile`, `mix.exs`, `tox.ini` … that the assistant read
(with a Read, or printed by a command that ran cleanly: `cat mise.toml` alone, or the numbered
lines a `grep -n -A8 tasks mise.toml` shows of that one file, whatever else the command
echoed) still says how the project is driven: its public scripts, targets and aliases go through the
repository's own task readers and make one recipe per file, in the file's words ("Tasks the
Makefile defines: `make install` (install dependencies); `make test` (runs the tests; runs
`pytest`)."). A file in a sub-folder gives that folder's tasks, said to run there; files of
dependencies and build output say nothing. The package manager is the one whose lock file the
session touched (npm without one). The recipe says what the file defines, never that it ran.

The task that starts the app also says what the app is built with: when a root task file's
task for running the app (`mise run dev`, `make run`, `npm run dev`, a `Procfile` …) starts a
framework's own entry point (`bin/rails …`, `next dev`, `python manage.py runserver`,
`mix phx.server`: the `entry_points` of `repository/stack.toml`), `started_framework` says so,
with the task and its step. A sub-folder's task file, a task for testing or building, and a
step that only mentions a framework elsewhere (`echo next`) say nothing.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

import structlog

from squirrel_core.commands import classify_command, package_manager, typed_commands
from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import core_tokens, relative_path, split_segments
from squirrel_memory.extractors.file_reads import (
    PATH_ARGUMENT,
    cut_at_ingest,
    head_read_text,
    partial_read,
    read_output,
    step_read_paths,
)
from squirrel_memory.extractors.latest_reads import latest_reads
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import Readings, Task
from squirrel_memory.repository.languages import is_excluded
from squirrel_memory.repository.runners import task_reader_for
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.snapshot import Snapshot, TextFile, TrackedFile
from squirrel_memory.repository.stack import started_framework
from squirrel_memory.repository.task_records import purpose_of, task_scope

log = structlog.get_logger()

#: What a task of a known purpose does, when its file says nothing of it.
_PURPOSES = {
    "test": "runs the tests",
    "lint": "lints the code",
    "format": "formats the code",
    "typecheck": "type-checks the code",
    "run": "starts the dev server",
    "build": "builds the project",
    "migrate": "runs the database migrations",
    "install": "sets the project up",
}
_LOCK_FILES = frozenset({"pnpm-lock.yaml", "yarn.lock", "bun.lockb", "bun.lock"})
#: Tasks listed per file; the rest are counted.
MAX_LISTED = 14
#: Deepest sub-folder whose task file is read (`services/api/Makefile` is 2).
MAX_DEPTH = 3
#: A table or section header (`[tasks.dev]`, `[testenv]`): the tables above it are whole.
_HEADER = re.compile(r"^\[", re.MULTILINE)
#: A body that only says there is nothing to run (npm's placeholder `test` script).
_PLACEHOLDERS = ("no test specified",)


@dataclass(frozen=True, slots=True)
class Tasks:
    """One task file's recipe: its key, statement, the file and the events that read it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]
    started: tuple[str, str, str] | None = None
    """(framework, task, its step) when the file's task for running the app starts one."""


def _started(path: str, out: Readings) -> tuple[str, str, str] | None:
    """The framework a root task file's run task starts, the task and the step that does."""
    if task_scope(path):
        return None
    for command in out.commands:
        if command.purpose != "run" or command.scope:
            continue
        task = next((t for t in out.tasks if t.text == command.text), None)
        found = [
            (framework, command.text, step)
            for step in _steps(command.detail) + _steps(task.runs if task else "")
            if (framework := started_framework(" ".join(step.split()[:2]))) is not None
        ]
        # The step that starts the app (`bin/rails server`), before one that prepares it
        # (`bin/rails db:prepare`, `python manage.py migrate`).
        if found:
            return next((f for f in found if starts_app(f[2])), found[0])
    return None


def starts_app(step: str) -> bool:
    """Whether a task's step is itself a command that starts the app (`bin/rails server`)."""
    use = classify_command(step)
    return use is not None and use.purpose == "run"


#: The script a task's detail quotes (`runs \`…\``).
_TICKED = re.compile(r"`([^`]+)`")
#: Programs whose arguments are text, not a program they start (`echo next`, `grep rails`).
_TEXT_TOOLS = frozenset({"echo", "printf", "grep", "rg", "cat", "sed", "awk", "test", "[", "set"})


def _steps(detail: str) -> list[str]:
    """The command lines of a task's script, comments and text tools left out."""
    ticked = _TICKED.search(detail)
    script = ticked.group(1) if ticked else detail
    lines = [line.strip() for part in script.splitlines() for line in part.split("&&")]
    return [
        line
        for line in lines
        if line and not line.startswith("#") and line.split()[0] not in _TEXT_TOOLS
    ]


def _lock_files(events: list[StoredEvent]) -> dict[str, TrackedFile]:
    """The lock files the session saw, else the one of the only package manager besides npm
    its commands went through at the root (`bun install`, `bun run build`: bun's)."""
    found: dict[str, TrackedFile] = {}
    for event in events:
        for raw in event.file_paths:
            path = relative_path(raw, event.project_id)
            if posixpath.basename(path) in _LOCK_FILES:
                found[path] = TrackedFile(path, 0, "")
    if not found:
        used = _managers_used(events)
        if len(used) == 1 and (lock := _MANAGER_LOCKS.get(next(iter(used)))):
            found[lock] = TrackedFile(lock, 0, "")
    return found


_MANAGER_LOCKS = {"pnpm": "pnpm-lock.yaml", "yarn": "yarn.lock", "bun": "bun.lock"}


def _managers_used(events: list[StoredEvent]) -> set[str]:
    """The JavaScript package managers the session's commands went through."""
    used: set[str] = set()
    for event in events:
        command = event.content.get("command") if event.event_type in _RUNS else None
        if not isinstance(command, str):
            continue
        for typed in typed_commands(command):
            found = package_manager(list(typed.words))
            if found is not None and found[1] == "javascript":
                used.add(found[0])
    return used


def _project_task_file(raw: str, project_id: str) -> str | None:
    """`raw` relative to the project when it is a task-runner file of the project's own: not
    outside it, nor in a hidden, dependency or build folder, nor too deep."""
    path = relative_path(raw, project_id).removeprefix("./")
    scope = task_scope(path)
    folders = scope.split("/") if scope else []
    if (
        not path
        or path.startswith(("/", "~", ".."))
        or len(folders) > MAX_DEPTH
        or any(f.startswith((".", "~")) for f in folders)
        or is_excluded(path)
        or task_reader_for(path) is None
    ):
        return None
    return path


def task_file_read(event: StoredEvent) -> str | None:
    """The project's task-runner file (root or sub-folder) a successful Read returned."""
    if read_output(event) is None:
        return None
    for raw in event.file_paths:
        path = _project_task_file(raw, event.project_id)
        if path is not None:
            return path
    return None


#: A line `grep -n` prints of one file: `178:[tasks.asc]` (a match) or `179-run = …` (context).
_GREP_LINE = re.compile(r"^(?P<line>\d+)[:-](?P<text>.*)$")
#: The events a command's output is in (a search naming "test" may be filed as a test run).
_RUNS = frozenset({EventType.COMMAND_RUN, EventType.TEST_RUN})
#: Programs that print the lines of a file that match, with their numbers under `-n`.
_GREPS = frozenset({"grep", "rg"})


def _numbered_grep(tokens: list[str]) -> str | None:
    """The one file a `grep -n` (or `rg -n`) with context searches, else None: several files
    print their names on every line, and without `-n` nothing tells a line from another."""
    flags = [t for t in tokens[1:] if t.startswith("-")]
    numbered = any(f in ("-n", "--line-number") or (f[1:2] != "-" and "n" in f) for f in flags)
    context = any(
        f[:2] in ("-A", "-B", "-C") or (f.startswith("--") and "context" in f) for f in flags
    )
    operands = [t for t in tokens[1:] if not t.startswith("-")]
    if "-e" not in flags:
        operands = operands[1:]  # the first operand is the pattern
    files = [t for t in operands if PATH_ARGUMENT.match(t)]
    return files[0] if numbered and context and len(files) == 1 else None


def _shown_task_text(event: StoredEvent) -> tuple[str, str] | None:
    """(task file, the text of it a command printed): the whole output of a command that is
    one file reader (`cat mise.toml`), or the numbered lines of a `grep -n` with context on one
    file, their numbers left off (what else the command printed is left out); None else."""
    content = event.content
    command, output = content.get("command"), content.get("output")
    if event.event_type not in _RUNS or content.get("is_error") is True:
        return None
    if content.get("exit_code") not in (None, 0) or not isinstance(command, str):
        return None
    if not isinstance(output, str) or not output.strip():
        return None
    segments = [tokens for part in split_segments(command) if (tokens := core_tokens(part))]
    for tokens in segments:
        if tokens[0] in _GREPS and (named := _numbered_grep(tokens)):
            path = _project_task_file(named, event.project_id)
            lines = [m["text"] for line in output.splitlines() if (m := _GREP_LINE.match(line))]
            if path is not None and lines:
                return path, _fragment("\n".join(lines))
        elif len(segments) == 1 and (read := step_read_paths(tokens)) and len(read) == 1:
            path = _project_task_file(read[0], event.project_id)
            whole = tokens[0] == "cat"
            return (path, output if whole else _fragment(output)) if path is not None else None
    return None


def _fragment(text: str) -> str:
    """The part of a file's lines shown out of context that is whole: the tables before the
    last table header when there are two or more, else the lines before the last blank one."""
    headers = [m.start() for m in _HEADER.finditer(text)]
    if len(headers) > 1:
        return text[: headers[-1]]
    lines = text.splitlines()
    return "\n".join(lines[: max((i for i, x in enumerate(lines) if not x.strip()), default=0)])


def _whole_part(event: StoredEvent, text: str) -> str:
    """The part of a read's text that is whole: all of a whole read; of a read cut short (by
    the tool or at ingest), the tables before its last table header when it has two or more
    (a blank line may fall inside a table's multi-line value), else the text up to its last
    blank line."""
    cut = cut_at_ingest(event)
    if not partial_read(event) and not cut:
        return text
    headers = [m.start() for m in _HEADER.finditer(text)]
    if len(headers) > 1:
        return text[: headers[-1]]
    if not cut:
        return text  # a partial read's text already ends at its last blank line
    lines = text.splitlines()[:-2]  # the mark and the line it cut
    return "\n".join(lines[: max((i for i, x in enumerate(lines) if not x.strip()), default=0)])


def _purpose(purpose: str, folder: str) -> str:
    """What a task of `purpose` does; a sub-folder's task builds or sets up that folder, not
    the project (a docs site's `npm run build` beside the app)."""
    said = _PURPOSES[purpose]
    return said.replace("the project", f"`{folder}/`") if folder else said


def _entry(task: Task, purposes: dict[str, str], folder: str = "") -> str:
    """`make x` with the file's words for it, else what its one step is for and runs, else
    what its name is for (the step, when there is one, is the truth rather than the name)."""
    said: list[str] = []
    if task.about:
        said.append(task.about)
    elif task.runs:
        purpose = purpose_of(task.runs)
        if purpose is not None and purpose[0] in _PURPOSES:
            said.append(_purpose(purpose[0], folder))
        said.append(f"runs `{task.runs}`")
    elif task.text in purposes:
        said.append(_purpose(purposes[task.text], folder))
    return f"`{task.text}` ({'; '.join(said)})" if said else f"`{task.text}`"


def _statement(path: str, out: Readings) -> str | None:
    tasks = list(
        {
            t.text: t
            for t in out.tasks
            if not any(p in t.runs.lower() for p in _PLACEHOLDERS) and "`" not in t.text
        }.values()
    )
    if not tasks:
        return None
    purposes = {c.text: c.purpose for c in out.commands if c.purpose in _PURPOSES}
    folder = task_scope(path)
    listed = "; ".join(_entry(t, purposes, folder) for t in tasks[:MAX_LISTED])
    more = len(tasks) - MAX_LISTED
    if more > 0:
        listed += f"; and {more} more"
    where = f" (run in `{folder}/`)" if folder else ""
    return f"Tasks `{path}` defines{where}: {listed}."


def session_tasks(events: list[StoredEvent]) -> list[Tasks]:
    """One recipe per task file read in `events` that defines public tasks; a re-read
    replaces what an earlier read of the same file said, and an edit the session made to a
    file it read is applied to that read (`latest_reads`)."""
    events = latest_reads(events)
    if not events:
        return []
    snap = Snapshot(root=Path(events[0].project_id), head="", files=_lock_files(events))
    readings: dict[str, tuple[str, list[str], tuple[str, str, str] | None]] = {}
    for event in events:
        path = task_file_read(event)
        text = head_read_text(event)
        if path is not None and text is not None:
            text = _whole_part(event, text)
        elif shown := _shown_task_text(event):
            path, text = shown
        reader = task_reader_for(path) if path is not None else None
        if path is None or reader is None or not text:
            continue
        out = Readings()
        try:
            reader(snap, TextFile.of(path, text), out)
        except PARSE_ERRORS as exc:  # a partial or malformed read: this file says nothing
            log.debug("session_file_unreadable", path=path, reason=type(exc).__name__)
            continue
        statement = _statement(path, out)
        if statement is not None:
            ids = readings[path][1] if path in readings else []
            readings[path] = (statement, [*ids, event.id], _started(path, out))
    return [
        Tasks(f"tasks:{path}", statement, path, tuple(ids), started)
        for path, (statement, ids, started) in readings.items()
    ]


def started_by_task(events: list[StoredEvent]) -> Tasks | None:
    """The last root task file read in `events` whose run task starts a framework, or None."""
    return next((t for t in reversed(session_tasks(events)) if t.started is not None), None)
