"""The reason the task context gives a standing coding-style preference it adds to what it found.

When something relevant to a task was found, the memory service's task context rounds the answer
off with the user's most important standing preferences (`squirrel_memory.task_context`): how
this user writes code applies to any code change. Such a preference is no answer to the task by
itself. The gateway, which leaves some of the relevant memories out of a prompt's answer (what
the session already has, what the assistant sees at a glance: `squirrel_gateway.hook_left_out`),
tells them apart by this reason, so that they are never served on their own.
"""

from __future__ import annotations

from typing import Final

STYLE_REASON: Final = "Standing coding-style preference of this user; applies to any code change."


def is_supplement(reason: str) -> bool:
    """Whether a selected memory's `reason` says it was added as a standing preference, not
    found relevant to the task."""
    return reason == STYLE_REASON
