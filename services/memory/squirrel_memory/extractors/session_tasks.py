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

from squirrel_core.commands import classify_command, typed_commands
from squirrel_core.events import EventType
from squirrel_core.shell_words import simple_commands
from squirrel_core.side_folders import TEST_DATA_DIRS
from squirrel_memory.extractors.activity import commands, core_tokens, relative_path, split_segments
from squirrel_memory.extractors.file_reads import (
    PATH_ARGUMENT,
    cut_at_ingest,
    file_text,
    head_read_text,
    partial_read,
    read_output,
    step_read_paths,
)
from squirrel_memory.extractors.latest_reads import latest_reads
from squirrel_memory.extractors.printed_tasks import (
    JSON_TASK_FILES,
    completed_json,
    json_object,
    printed_json_task,
    tasks_cut,
)
from squirrel_memory.extractors.script_managers import (
    LOCK_FILES,
    managers_used,
    script_manager,
    seen_locks,
)
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import SAMPLE_FOLDERS, Command, Readings, Task
from squirrel_memory.repository.languages import is_excluded
from squirrel_memory.repository.package_managers import runs_by_name
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
#: Importance of a task file's recipe: what the file declares, below a command seen to work at
#: the project's root (0.44 for one run), which says the same task whenever the session ran it.
IMPORTANCE = 0.43
#: Longest list of a task's steps said beside it ("runs `deps.get`, `ecto.setup`").
MAX_DETAIL_CHARS = 80
#: Tasks listed per file; the rest are counted.
MAX_LISTED = 14
#: Deepest sub-folder whose task file is read (`services/api/Makefile` is 2).
MAX_DEPTH = 3
#: A table or section header (`[tasks.dev]`, `[testenv]`): the tables above it are whole.
_HEADER = re.compile(r"^\[", re.MULTILINE)
#: A body that only says there is nothing to run (npm's placeholder `test` script).
_PLACEHOLDERS = ("no test specified",)


@dataclass(frozen=True, slots=True)
class Shown:
    """A task file's text as a read or a command showed it: its path, the whole part of the
    text, whether its task table goes on past what was shown."""

    path: str
    text: str
    cut: bool = False


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


#: Folders whose task files are not the project's: an example's or demo's own package, the
#: docs site's, a test fixture's.
_NOT_THE_PROJECT = SAMPLE_FOLDERS | {"docs", "doc"} | TEST_DATA_DIRS


def _project_task_file(raw: str, project_id: str) -> str | None:
    """`raw` relative to the project when it is a task-runner file of the project's own: not
    outside it, nor in a hidden, dependency, build, example, docs or test-data folder, nor too
    deep."""
    path = relative_path(raw, project_id).removeprefix("./")
    scope = task_scope(path)
    folders = scope.split("/") if scope else []
    if (
        not path
        or path.startswith(("/", "~", ".."))
        or len(folders) > MAX_DEPTH
        or any(f.startswith((".", "~")) or f.lower() in _NOT_THE_PROJECT for f in folders)
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
#: A pipe (not `||`): what a reader prints goes through another program first.
_PIPE = re.compile(r"(?<!\|)\|(?!\|)")
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


def _shown_task_text(event: StoredEvent) -> Shown | None:
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
                return Shown(path, _fragment("\n".join(lines)))
        elif len(segments) == 1 and (read := step_read_paths(tokens)) and len(read) == 1:
            path = _project_task_file(read[0], event.project_id)
            if path is None:
                return None
            piped = _PIPE.split(command, maxsplit=1)[1].split() if _PIPE.search(command) else []
            if piped and piped[0] not in ("head", "sed"):
                return None  # `cat f | jq …`, `| grep …`: another program's output
            if tokens[0] == "cat" and not piped:
                return Shown(path, output)  # `cat f | head -40` shows the top of it only
            if posixpath.basename(path) in JSON_TASK_FILES:
                completed = completed_json(output)
                if completed is None:
                    return None
                return Shown(path, completed.text, tasks_cut(path, completed))
            return Shown(path, _fragment(output))
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


#: Roles of the checks: a script that chains several of them runs the checks.
_CHECKS = frozenset({"test", "lint", "format", "typecheck"})
#: Programs that only print or end: a task of nothing but them runs nothing of the project.
_ONLY_PRINT = frozenset({"echo", "printf", "true", "false", ":", "exit"})
#: Package managers that run a script as `<manager> run <name>` as well as `<manager> <name>`.
_SCRIPT_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun"})


def _step_purpose(step: str) -> str:
    """What a task's step is for: its commands' one purpose; `checks` for a chain of several
    checks (`bun run lint && bun run test`); "" when the chain mixes other roles."""
    parts = [" ".join(words) for words in simple_commands(step)]
    found = [p for part in parts if (p := purpose_of(part)) is not None and p[0] in _PURPOSES]
    roles = {p[0] for p in found}
    if len(roles) > 1:
        return "checks" if roles <= _CHECKS and len(found) == len(parts) else ""
    return found[0][0] if found else ""


def _entry(
    task: Task, commands: dict[str, Command], folder: str = "", by_name: bool = False
) -> str:
    """`make x` with the file's words for it, else what its one step is for and runs, else
    what its name is for and what it runs (the step, when there is one, is the truth rather
    than the name); a script said by name when no runner is known."""
    said: list[str] = []
    command = commands.get(task.text)
    if task.about:
        said.append(task.about)
    elif task.runs:
        purpose = _step_purpose(task.runs)
        if purpose in _PURPOSES:
            said.append(_purpose(purpose, folder))
        elif purpose:
            said.append("runs the checks")
        said.append(f"runs `{task.runs}`")
    elif command is not None:
        said.append(_purpose(command.purpose, folder))
        if command.detail and len(command.detail) <= MAX_DETAIL_CHARS:
            said.append(command.detail)  # a few short steps (a `mix.exs` alias's)
    shown = f"the `{task.name}` script" if by_name else f"`{task.text}`"
    return f"{shown} ({'; '.join(said)})" if said else shown


def _only_prints(runs: str) -> bool:
    """Whether a task's one step only prints or ends (`echo "no tests yet"`)."""
    steps = simple_commands(runs) if runs else []
    return bool(steps) and all(words and words[0] in _ONLY_PRINT for words in steps)


def _task_words(words: list[str]) -> tuple[str, ...]:
    """A typed command's words as a task is typed: `pnpm run test` as `pnpm test` (which runs
    the same script; `bun test` runs bun's own test runner, not the `test` script)."""
    kept = [w for w in words if "=" not in w or w.startswith("-")]
    by_name = len(kept) >= 3 and kept[0] in _SCRIPT_RUNNERS and kept[1] == "run"
    if by_name and runs_by_name(kept[0], kept[2]):
        kept = [kept[0], *kept[2:]]
    return tuple(kept)


def _ran(events: list[StoredEvent]) -> set[tuple[str, ...]]:
    """The commands the session ran, as tasks are typed (`_task_words`)."""
    return {
        _task_words(list(typed.words))
        for run in commands(events)
        for typed in typed_commands(run.command)
    }


def _was_run(task: Task, ran: set[tuple[str, ...]]) -> bool:
    """Whether the session ran the task as the file declares it, with no arguments of its own
    (`npm test -- src/cart` ran part of it): its run's rules say it."""
    return _task_words(task.text.split()) in ran


def _statement(
    path: str, out: Readings, ran: set[tuple[str, ...]], by_name: bool = False, cut: bool = False
) -> str | None:
    tasks = list(
        {
            t.text: t
            for t in out.tasks
            if not any(p in t.runs.lower() for p in _PLACEHOLDERS)
            and not _only_prints(t.runs)
            and "`" not in t.text
            and not _was_run(t, ran)
        }.values()
    )
    if not tasks:
        return None
    known = {c.text: c for c in out.commands if c.purpose in _PURPOSES}
    folder = task_scope(path)
    listed = "; ".join(_entry(t, known, folder, by_name) for t in tasks[:MAX_LISTED])
    more = len(tasks) - MAX_LISTED
    if more > 0:
        listed += f"; and {more} more"
    elif cut:
        listed += "; and more past the lines the session read"
    where = f" (run in `{folder}/`)" if folder else ""
    if by_name:
        return (
            f"Scripts `{path}` defines{where}, by name (which package manager runs them was not"
            f" seen): {listed}."
        )
    return f"Tasks `{path}` defines{where}: {listed}."


def _runner_snapshot(
    root: str, path: str, text: str, locks: dict[str, str], used: set[str]
) -> tuple[Snapshot, bool]:
    """The snapshot the task reader of `path` reads beside it (a `package.json`'s folder holds
    the lock file of the manager the session saw), and whether its scripts are said by name
    (no manager was seen)."""
    if posixpath.basename(path) != "package.json":
        return Snapshot(root=Path(root), head="", files={}), False
    folder = posixpath.dirname(path)
    data = json_object(text)
    manager = script_manager(data, folder, locks, used) if data is not None else ""
    lock = next((name for name, m in LOCK_FILES.items() if m == manager), "")
    files = {}
    if lock:
        where = f"{folder}/{lock}" if folder else lock
        files[where] = TrackedFile(where, 0, "")
    return Snapshot(root=Path(root), head="", files=files), not manager


def _task_text(event: StoredEvent) -> Shown | None:
    """The task file a read or a command of `event` showed, with the whole part of its text."""
    path = task_file_read(event)
    text = head_read_text(event)
    if path is not None and text is not None:
        if posixpath.basename(path) in JSON_TASK_FILES and (
            partial_read(event) or cut_at_ingest(event)
        ):
            output = read_output(event)
            completed = completed_json(file_text(output)) if output else None
            if completed is None:
                return None
            return Shown(path, completed.text, tasks_cut(path, completed))
        return Shown(path, _whole_part(event, text))
    printed = printed_json_task(event, _project_task_file)
    return _shown_task_text(event) or (
        Shown(printed.path, printed.text, printed.cut) if printed is not None else None
    )


def session_tasks(events: list[StoredEvent]) -> list[Tasks]:
    """One recipe per task file read in `events` that defines public tasks; a re-read
    replaces what an earlier read of the same file said, and an edit the session made to a
    file it read is applied to that read (`latest_reads`). A task the session ran is left to
    what its run says."""
    events = latest_reads(events)
    if not events:
        return []
    locks, used, ran = seen_locks(events), managers_used(events), _ran(events)
    readings: dict[str, tuple[str, list[str], tuple[str, str, str] | None]] = {}
    for event in events:
        shown = _task_text(event)
        path, text, cut = (shown.path, shown.text, shown.cut) if shown else ("", "", False)
        reader = task_reader_for(path) if path else None
        if reader is None or not text:
            continue
        snap, by_name = _runner_snapshot(event.project_id, path, text, locks, used)
        out = Readings()
        try:
            reader(snap, TextFile.of(path, text), out)
        except PARSE_ERRORS as exc:  # a partial or malformed read: this file says nothing
            log.debug("session_file_unreadable", path=path, reason=type(exc).__name__)
            continue
        statement = _statement(path, out, ran, by_name, cut)
        if statement is not None:
            ids = readings[path][1] if path in readings else []
            started = _started(path, out)
            if started is not None and by_name:  # the script by its name, as the recipe says it
                name = next((t.name for t in out.tasks if t.text == started[1]), started[1])
                started = (started[0], name, started[2])
            readings[path] = (statement, [*ids, event.id], started)
    return [
        Tasks(f"tasks:{path}", statement, path, tuple(ids), started)
        for path, (statement, ids, started) in readings.items()
    ]


def started_by_task(events: list[StoredEvent]) -> Tasks | None:
    """The last root task file read in `events` whose run task starts a framework, or None."""
    return next((t for t in reversed(session_tasks(events)) if t.started is not None), None)
