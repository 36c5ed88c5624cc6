"""Which shell commands are test runs, and which tools change code."""

from __future__ import annotations

from squirrel_core.commands import is_test_command
from squirrel_core.events import EventType
from squirrel_core.host_tools import CHANGE_TOOLS

#: Every host's tools whose successful use changes files (`squirrel_core.host_tools`).
CODE_CHANGE_TOOLS = CHANGE_TOOLS

#: Tool input keys that name a file or folder the tool works on.
PATH_KEYS = ("file_path", "notebook_path", "path", "dir_path", "absolute_path")

__all__ = ["CODE_CHANGE_TOOLS", "PATH_KEYS", "command_event_type", "is_test_command"]


def command_event_type(command: str) -> EventType:
    """`test_run` when any part of `command` runs a test suite (per the shared command table)."""
    return EventType.TEST_RUN if is_test_command(command) else EventType.COMMAND_RUN
