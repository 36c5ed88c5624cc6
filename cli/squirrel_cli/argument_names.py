"""A service's refusal of a value, in the words of the command line that sent it.

The gateway and the memory service name the field of the request they refuse (`scope_paths must
not be empty`), as an MCP host sends it; `sqrl` took that value as an argument of its own
(`--paths`). Each command's fields are named here as its arguments, once, at the command
line's edge, for the full CLI and the quick one alike. Standard library only.
"""

from __future__ import annotations

import re
from typing import Final

from squirrel_core.errors import InvalidArgumentError, SquirrelError

_BUDGET: Final = {"context_budget_tokens": "--budget", "max_tokens": "--budget"}
ARGUMENTS: Final[dict[str, dict[str, str]]] = {
    "context": {
        "task_description": "task",
        "active_file_paths": "--files",
        "user_id": "--user",
        **_BUDGET,
    },
    "search": {
        "scope_paths": "--paths",
        "cursor": "--cursor",
        "top_k": "-k/--top-k",
        "types": "--type",
        **_BUDGET,
    },
    "view": {
        "scope_paths": "--paths",
        "task_description": "--task",
        "user_id": "--user",
        "mode": "--mode",
        **_BUDGET,
    },
    "remember": {"tags": "--tag", "tag": "--tag", "memory_type": "--type"},
    "memories": {"page_token": "--page-token", "page_size": "--limit"},
}
"""For each command, the request fields a refusal may start with, and the argument each was."""


def said_by_command(command: str | None, exc: SquirrelError) -> str:
    """`exc`'s message; a refused value (`InvalidArgumentError`) whose message starts with the
    name of a request field `command` fills from an argument names that argument instead."""
    message = str(exc)
    if not isinstance(exc, InvalidArgumentError):
        return message
    for field, argument in ARGUMENTS.get(command or "", {}).items():
        if re.match(rf"{field}\b", message):
            return argument + message[len(field) :]
    return message
