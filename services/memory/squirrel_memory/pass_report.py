"""What a processing pass did, and how a pass decides a candidate against stored memories."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from squirrel_memory.models import MemoryCandidate, MemoryItem, UpdateDecision

Decide = Callable[[MemoryCandidate, list[MemoryItem]], Awaitable[UpdateDecision]]


@dataclass
class PassReport:
    """What one processing pass (or a drain of several) did."""

    events_processed: int = 0
    episodes_created: int = 0
    memories_added: int = 0
    memories_updated: int = 0
    memories_deleted: int = 0
    dead_lettered: int = 0

    def add(self, other: PassReport) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))
