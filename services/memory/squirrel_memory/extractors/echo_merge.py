"""An echo (`echoes`) met with the instruction it says again: what the pair becomes.

Within a batch (`recurrence.merge_pair`), an echo on an instruction's anchor is the instruction
said in one more session when the echo is of another episode, and nothing new when of the
instruction's own; two echoes stay an echo. Against a stored tentative instruction
(`recurrence.decide_recurrence`), an echo from another episode is that instruction, in its
stored words and tags, said once more.
"""

from __future__ import annotations

from dataclasses import replace

from squirrel_memory.extractors.echoes import is_echo
from squirrel_memory.models import MemoryCandidate, MemoryItem
from squirrel_memory.promotion import SessionsOf, is_tentative, pooled, promoted


def merged_with_echo(
    first: MemoryCandidate, second: MemoryCandidate, sessions: SessionsOf | None = None
) -> MemoryCandidate:
    """An instruction and an echo on one anchor: the instruction, said in one more session when
    the echo is of another episode (a standing one cites it; a tentative one is promoted), as
    it was when of its own. Two echoes stay an echo, citing both (it counts only where it says
    again an instruction given before)."""
    cited = pooled(first.source_event_ids, second.source_event_ids)
    if is_echo(first) and is_echo(second):
        return replace(second, source_event_ids=cited)
    said, echo = (second, first) if is_echo(first) else (first, second)
    if said.source_episode_id == echo.source_episode_id:
        return said
    if not is_tentative(said.tags):
        return replace(said, source_event_ids=pooled(said.source_event_ids, echo.source_event_ids))
    return promoted(said, echo.source_event_ids, (), sessions)


def as_stored(echo: MemoryCandidate, stored: MemoryItem) -> MemoryCandidate:
    """The `stored` instruction an echo says again, as said in one more session: its words, its
    tags, its scope and its importance, cited by the echo's messages."""
    return replace(
        echo,
        content=stored.content,
        tags=stored.tags,
        scope=stored.scope,
        importance=stored.importance,
    )


__all__ = ["as_stored", "merged_with_echo"]
