"""One rule's row in the finders' table: how the things a rule found become candidates (their
type, importance, tags, files and cited sources)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from squirrel_memory.extractors.candidates import candidate, rule_of
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

Found = Any
"""A rule's own record of what it found: `key`, `content` and `event_ids`, and what a finder's
row reads besides (`path`, `folder`, `files`)."""
Extract = Callable[[list[StoredEvent]], list[MemoryCandidate]]


def no_paths(_found: Found) -> tuple[str, ...]:
    return ()


def path_of(found: Found) -> tuple[str, ...]:
    return (found.path,)


def files_of(found: Found) -> tuple[str, ...]:
    return tuple(found.files)


def one(
    find: Callable[[list[StoredEvent]], Found | None],
) -> Callable[[list[StoredEvent]], list[Found]]:
    """A rule that finds at most one thing, as one that finds a list."""

    @functools.wraps(find)
    def listed(events: list[StoredEvent]) -> list[Found]:
        found = find(events)
        return [] if found is None else [found]

    return listed


@dataclass(frozen=True)
class Finder:
    """How one rule's findings become candidates: their type, importance, tags and files."""

    find: Callable[[list[StoredEvent]], Iterable[Found]]
    kind: MemoryType
    importance: float
    tags: Callable[[Found], tuple[str, ...]]
    paths: Callable[[Found], tuple[str, ...]] = no_paths
    #: The `path:line` sources a finding cites.
    refs: Callable[[Found], tuple[str, ...]] = no_paths
    #: The rule the candidates name, when not the finder's own (`_rule_name`).
    rule: str = ""

    def __call__(self, events: list[StoredEvent]) -> list[MemoryCandidate]:
        return self.of(self.find(events))

    def of(self, found_items: Iterable[Found]) -> list[MemoryCandidate]:
        """The candidates of things this row's rule found (when a caller ran it already)."""
        return [
            replace(
                candidate(
                    self.kind,
                    found.key,
                    found.content,
                    tags=self.tags(found),
                    importance=self.importance,
                    event_ids=found.event_ids,
                    file_paths=self.paths(found),
                    rule=self.rule or _rule_name(self.find),
                ),
                source_refs=self.refs(found),
            )
            for found in found_items
        ]


def _rule_name(find: Callable[..., object]) -> str:
    """The rule a row's finder is: its module (one rule per module)."""
    return rule_of(getattr(find, "__module__", "") or "")


__all__ = ["Extract", "Finder", "Found", "files_of", "no_paths", "one", "path_of"]
