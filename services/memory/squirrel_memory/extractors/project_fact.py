"""A project fact as the fact rules find it, before it becomes a memory candidate."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fact:
    """A project fact: key, clean statement, tags, strength, paths and the events behind it."""

    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    event_ids: tuple[str, ...]
    file_paths: tuple[str, ...] = ()
