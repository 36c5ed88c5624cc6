"""Which shell commands are test runs, which tools change code and which hand work to a subagent."""

from __future__ import annotations

from squirrel_core.commands import is_test_command
from squirrel_core.events import EventType

#: Claude Code, Gemini CLI, Codex and Cursor tools whose successful use changes files.
CODE_CHANGE_TOOLS = frozenset(
    {
        "Edit",
        "Write",
        "MultiEdit",
        "NotebookEdit",
        "write_file",
        "replace",
        "edit",
        "apply_patch",
        "edit_file",
        "edit_file_v2",
        "search_replace",
        "delete_file",
    }
)

#: Claude Code tools that hand a task to a subagent: their result is the subagent's report.
DELEGATING_TOOLS = frozenset({"Agent", "Task"})

#: Tool input keys that name a file or folder the tool works on.
PATH_KEYS = ("file_path", "notebook_path", "path", "dir_path", "absolute_path")

__all__ = [
    "CODE_CHANGE_TOOLS",
    "DELEGATING_TOOLS",
    "PATH_KEYS",
    "command_event_type",
    "is_test_command",
]


def command_event_type(command: str) -> EventType:
    """`test_run` when any part of `command` runs a test suite (per the shared command table)."""
    return EventType.TEST_RUN if is_test_command(command) else EventType.COMMAND_RUN
