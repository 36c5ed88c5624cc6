"""A command the user ran themselves in the Codex TUI (`!git status`), as Codex records it: a
`<user_shell_command>` block in a user message (the command, then its exit code, duration and
output), and an `exec_command_end` whose `source` is `user_shell`."""

from __future__ import annotations

import re
from typing import Any

#: A command the user ran themselves in the Codex TUI (`!git status`), as Codex records it for
#: the model: the command, then its exit code, duration and output.
_USER_SHELL = re.compile(
    r"^<user_shell_command>\s*<command>\n?(?P<command>.*?)\n?</command>\s*"
    r"<result>\n?(?P<result>.*?)\n?</result>\s*</user_shell_command>$",
    re.DOTALL,
)
_SHELL_OUTPUT = re.compile(r"^Output:\n?", re.MULTILINE)


def user_shell(text: str) -> tuple[str, str] | None:
    """(command, what it printed) of a command the user ran themselves (Codex's
    `<user_shell_command>` block); None when `text` is not such a block."""
    found = _USER_SHELL.match(text.strip())
    if found is None or not found.group("command").strip():
        return None
    result = found.group("result")
    output = _SHELL_OUTPUT.search(result)
    printed = result[output.end() :].strip("\n") if output else ""
    return found.group("command").strip(), printed


def user_shell_end(payload: dict[str, Any]) -> bool:
    """Whether an `exec_command_end` is the end of the user's own `!cmd` (its own message,
    `<user_shell_command>`, says it)."""
    return payload.get("source") == "user_shell"
