"""The order of the brief a session starts with: what sessions used before what they never did.

Each line of the brief a session starts with names the memory it was rendered from, so the
served log judges it like any served memory (`outcomes.judge`): used when the session touched
what it says, unused otherwise. A fact served `UNUSED_STARTS` times (`OutcomeBook.passed_over`)
and never used nor missed is placed after the others; the session start fills its budget in
this order, so such a fact is the first the budget leaves out. It is never dropped from the
brief view, from search or from the per-prompt context, and a single use puts it back in its
place. A project with no served history keeps the brief's order as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from squirrel_memory.models import MemoryItem

__all__ = ["used_first"]


def used_first(
    facts: Sequence[MemoryItem], passed_over: Callable[[MemoryItem], bool]
) -> list[MemoryItem]:
    """`facts` in their order, those `passed_over` moved after the others (their own order
    kept)."""
    return sorted(facts, key=passed_over)
