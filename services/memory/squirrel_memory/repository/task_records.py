"""A task-runner file's task as Squirrel records it: the command a person types, what it is
for, what the file says of it, its line, and the folder whose task it is.

Every public task is kept (`Readings.tasks`); those whose purpose the shared command table
(`squirrel_core.commands`) knows are commands too (`Readings.commands`). A name starting with
`_` or `.` (`.PHONY`, `_helper`) is internal, not a task.
"""

from __future__ import annotations

from squirrel_core.commands import GATE_TASKS, classify_command, task_purpose
from squirrel_core.shell_words import simple_commands
from squirrel_memory.repository.findings import Command, Readings, Task, folder_of
from squirrel_memory.repository.snapshot import TextFile

#: Tasks kept per file (a generated Makefile may define hundreds).
MAX_TASKS_PER_FILE = 60
#: Longest detail ("runs `a`, `b`") kept for a task's command.
DETAIL_CHARS = 160
#: Longest "about" (words cut at a space) and one-step body kept for a task.
_ABOUT_CHARS = 80
_STEP_CHARS = 60
#: Task-runner configuration kept in a folder of its own, by its path below the folder whose
#: tasks it defines (each has its reader in `runners.NESTED_TASK_READERS`).
NESTED_TASK_FILES = (
    ".config/mise.toml",
    ".config/mise/config.toml",
    ".mise/config.toml",
    "mise/config.toml",
    ".cargo/config.toml",
    ".cargo/config",
)


def purpose_of(command: str, name: str = "") -> tuple[str, str] | None:
    """(purpose, ecosystem) of a command line, by the shared table, else by its task name."""
    use = classify_command(command)
    if use is not None and use.task == "run" and "/" in use.tool:
        use = None  # a script named `run` (`.ci/run`, `scripts/run`) could run anything
    if use is not None and use.purpose:
        return use.purpose, use.ecosystem
    purpose = task_purpose(name) if name else None
    return (purpose, "any") if purpose else None


def runs_detail(steps: list[str]) -> str:
    """What a task runs, as its command's detail: "runs `a`, `b`"."""
    shown = ", ".join(f"`{s}`" for s in steps if s)
    return f"runs {shown}"[:DETAIL_CHARS] if shown else ""


def add_task(
    out: Readings,
    text: TextFile,
    typed: str,
    name: str,
    steps: list[str],
    *,
    line: int,
    body_first: bool = False,
    about: str = "",
) -> None:
    """Record task `name` of `text` (typed as `typed`) in `out`, and as a command when its name
    or, failing that (or first, with `body_first`), one of its steps says what it is for."""
    if name.startswith(("_", ".")):
        return
    short = [s for s in steps if s.strip()]
    runs = short[0] if len(short) == 1 and len(short[0]) <= _STEP_CHARS else ""
    out.tasks.append(Task(typed, name, text.ref(line), _about(about), runs.replace("`", "")))
    found = purpose_of(typed, name)
    by_body = next((p for step in steps if (p := purpose_of(step)) is not None), None)
    # A gate's name (`check`) says little when the task runs one tool that is not a test
    # runner (`check = "deno check main.ts"`, `check = "ruff check ."`): the tool says it.
    one_tool = (
        len(short) == 1
        and by_body is not None
        and by_body[0] != "test"
        and len(simple_commands(short[0])) == 1
    )
    gate = name.lower() in GATE_TASKS and one_tool
    if by_body is not None and (found is None or body_first or gate):
        found = (by_body[0], found[1] if found and found[1] != "any" else by_body[1])
    if found is None:
        return
    purpose, ecosystem = found
    out.commands.append(
        Command(
            text=typed,
            purpose=purpose,
            ecosystem=ecosystem,
            scope=task_scope(text.path),
            origin="task",
            ref=text.ref(line),
            detail=runs_detail(steps),
            task=name,
        )
    )


def _about(words: str) -> str:
    """A task's description as one plain phrase: backticks dropped, cut at a space."""
    text = " ".join(words.replace("`", "").split()).rstrip(".:;, ")
    if len(text) <= _ABOUT_CHARS:
        return text
    return text[:_ABOUT_CHARS].rsplit(" ", 1)[0].rstrip(".:;,( ")


def nested_task_file(path: str) -> str | None:
    """Which of `NESTED_TASK_FILES` the file at `path` is, if it is one."""
    return next((n for n in NESTED_TASK_FILES if path == n or path.endswith(f"/{n}")), None)


def task_scope(path: str) -> str:
    """The folder whose tasks the file at `path` defines (`.cargo/config.toml` → the root)."""
    nested = nested_task_file(path)
    if nested is not None:
        return path[: -len(nested)].rstrip("/")
    return folder_of(path)
