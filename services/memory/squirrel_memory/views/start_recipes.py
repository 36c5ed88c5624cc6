"""Which recipes a session starts with: the commands sessions run, not one they stopped running.

A session start shows the project's everyday commands, the test command first. A recipe is
judged like any served memory (`outcomes.judge`): used when the session ran a command it states,
unused otherwise. Once its last `UNUSED_STARTS` session-start servings went unused, with no use
nor miss since (`OutcomeBook.rests_at_start`), the sessions have moved on from it (a second
type checker tried once, a task of a purpose the work no longer has), and the start leaves it
out. It stays in search, in the per-prompt context and in every view; it comes back when a
session uses it (a prompt's answer gave it and the command ran) or when a session runs its
command anyway (the recipe is rewritten with that session's evidence: a new version). A recipe
that quotes a command running the tests is never left out (the test command opens every start,
and a routine that runs the tests holds it too), nor is a recipe the user or a model wrote.
"""

from __future__ import annotations

import re
from typing import Final

from squirrel_core.commands import is_test_command
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType
from squirrel_memory.outcomes.book import OutcomeBook

__all__ = ["rests_at_start"]

_QUOTED: Final = re.compile(r"`([^`\n]+)`")


def rests_at_start(item: MemoryItem, book: OutcomeBook) -> bool:
    """Whether a session start leaves `item` out: a rules' recipe that quotes no test command
    and rests at the start (`OutcomeBook.rests_at_start`)."""
    if item.type != MemoryType.RECIPE or item.source != MemorySource.RULES:
        return False
    if any(is_test_command(quoted) for quoted in _QUOTED.findall(item.content)):
        return False
    return book.rests_at_start(item)
