"""Each memory's standing from its outcomes: what ranking and the hooks learn from sessions.

The outcomes of a project (`OutcomeLog`, append-only) are read once when the project is first
asked for, then kept up to date as sessions are judged (`judge`). From them:
- **used** raises a memory's importance in ranking (+0.05 each, at most +0.2);
- **unused** lowers it slowly (-0.01 for each serving since it was last used, at most -0.1);
- **contradicted** flags it stale (⚠): it is left out of what reaches a model unasked (hooks,
  views, task context) until the user confirms it (`sqrl confirm`) or it is rewritten (a newer
  version than the one contradicted), or a later session uses it;
- **missed** (its error happened anyway) changes neither: the memory was right, and not heeded;
- a **pitfall at rest**: its last `REST_AFTER` servings went unused, with no use and no miss
  since (fixed, and not met again). The session start leaves it out; it stays in search, in the
  per-prompt context and in the views asked for a task, a path or all pitfalls, and a use, a
  miss or a rewrite (its error met again while it rested) brings it back;
- a **heeded** memory (used, or missed, at least once) has had its trigger recur: a pitfall met
  only once opens sessions from then on (`views.start_pitfalls`);
- a project fact **passed over**: served at `UNUSED_STARTS` session starts, never used nor
  missed. The brief a session starts with leaves it out (`views.start_order`); a use puts it
  back. Only session-start servings count: a prompt's answer serving it unused says
  nothing of whether a session start should show it;
- a recipe **resting at the start**: its last `UNUSED_STARTS` session-start servings of its
  current version went unused, with no use and no miss since. The session start leaves it out
  (`views.start_recipes`); a use, a miss or a rewrite (its command worked again: a new version)
  brings it back.

The memory itself is never edited: its standing is read from the events.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final

from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.storage import Store
from squirrel_memory.storage.outcome_log import OutcomeEvent
from squirrel_memory.user_memories.confirmations import Confirmations

USED_STEP: Final = 0.05
USED_CAP: Final = 0.2
UNUSED_STEP: Final = 0.01
UNUSED_CAP: Final = 0.1
REST_AFTER: Final = 2
"""Servings in a row, unused, after which a pitfall rests (`OutcomeBook.resting`)."""
UNUSED_STARTS: Final = 4
"""Session-start servings, all unused, after which a project fact leaves the brief a session
starts with (`OutcomeBook.passed_over`, `views.start_order`), and unused in a
row after which a recipe rests at the start (`OutcomeBook.rests_at_start`). In the foresight
replay, of the 11 start lines a later session used, 7 were used the first time they were served
and the longest wait was 3 unused servings (a finish-gate recipe, then used in 3 sessions in a
row): one more than that never lowers a line the replay saw used later."""
START: Final = "session_start"
"""The channel of a session-start serving (`storage.outcome_log.CHANNELS`)."""


@dataclass(slots=True)
class Standing:
    """A memory's outcomes so far, and the version a session contradicted (0: none standing)."""

    used: int = 0
    missed: int = 0
    contradicted: int = 0
    unused: int = 0
    unused_since_used: int = 0
    contradicted_version: int = 0
    #: Unused servings of the memory's current version since the last use or miss (a miss: the
    #: trouble is still met), and the version they were of.
    unused_in_a_row: int = 0
    unused_version: int = 0
    #: The same, of its session-start servings only (`START`): all of them unused, and those
    #: unused since the last use or miss at the version they were of.
    unused_starts: int = 0
    unused_starts_in_a_row: int = 0
    unused_start_version: int = 0

    def add(self, event: OutcomeEvent) -> None:
        if event.outcome == "used":
            self.used += 1
            self.unused_since_used = 0
            self.unused_in_a_row = 0
            self.unused_starts_in_a_row = 0
            self.contradicted_version = 0
        elif event.outcome == "unused":
            self.unused += 1
            self.unused_since_used += 1
            if event.version != self.unused_version:
                # A rewrite (its error met again) starts the count anew: the servings of a
                # former version say nothing of this one.
                self.unused_in_a_row = 0
            self.unused_in_a_row += 1
            self.unused_version = event.version
            if event.channel == START:
                self.unused_starts += 1
                if event.version != self.unused_start_version:
                    self.unused_starts_in_a_row = 0
                self.unused_starts_in_a_row += 1
                self.unused_start_version = event.version
        elif event.outcome == "missed":
            self.missed += 1
            self.unused_in_a_row = 0
            self.unused_starts_in_a_row = 0
        elif event.outcome == "contradicted":
            self.contradicted += 1
            self.contradicted_version = event.version

    @property
    def adjustment(self) -> float:
        """What the outcomes add to the memory's importance in ranking."""
        return min(self.used * USED_STEP, USED_CAP) - min(
            self.unused_since_used * UNUSED_STEP, UNUSED_CAP
        )


class OutcomeBook:
    """The standings of one project's memories, kept in memory (reads never wait on storage)."""

    def __init__(self, store: Store, *, learn: bool = True) -> None:
        self._store = store
        self.learn = learn
        """Whether ranking and the hooks use the standings (`hooks.learn_from_outcomes`)."""
        self._standings: dict[str, Standing] = {}
        self._loaded = False
        self._lock = asyncio.Lock()
        self._listeners: list[Callable[[], Awaitable[None]]] = []

    @property
    def store(self) -> Store:
        return self._store

    async def load(self) -> OutcomeBook:
        """Read the project's outcomes once (later ones arrive through `apply`)."""
        async with self._lock:
            if not self._loaded:
                events = await self._store.outcome_events()
                self._standings = {}
                for event in events:
                    self._standings.setdefault(event.memory_id, Standing()).add(event)
                self._loaded = True
        return self

    def on_change(self, listener: Callable[[], Awaitable[None]]) -> None:
        """Call `listener` whenever a memory's stale flag or its rank may have changed."""
        self._listeners.append(listener)

    async def apply(self, events: Sequence[OutcomeEvent]) -> None:
        """Fold newly stored outcomes into the standings (listeners told when a stale flag may
        have changed, or, while ranking learns, a memory's weight or whether it rests)."""
        before = {e.memory_id: self._weight(self.standing(e.memory_id)) for e in events}
        for event in events:
            self._standings.setdefault(event.memory_id, Standing()).add(event)
        reweighed = self.learn and any(
            self._weight(self.standing(m)) != weight for m, weight in before.items()
        )
        if reweighed or any(e.outcome in ("contradicted", "used") for e in events):
            for listener in list(self._listeners):
                await listener()

    @staticmethod
    def _weight(standing: Standing) -> tuple[float, bool, bool, bool, bool]:
        """What ranking and the session start read of a standing: its adjustment, whether
        it is at rest, whether it was heeded (`heeded`), whether it is passed over, and
        whether it rests at the start (`rests_at_start`, its version aside)."""
        heeded = standing.used + standing.missed > 0
        passed = not heeded and standing.unused_starts >= UNUSED_STARTS
        return (
            standing.adjustment,
            standing.unused_in_a_row >= REST_AFTER,
            heeded,
            passed,
            standing.unused_starts_in_a_row >= UNUSED_STARTS,
        )

    def standing(self, memory_id: str) -> Standing:
        return self._standings.get(memory_id) or Standing()

    def contradicted_ids(self) -> list[str]:
        """Memories with a contradiction standing (stale unless confirmed or rewritten)."""
        return [i for i, s in self._standings.items() if s.contradicted_version]

    def is_stale(self, item: MemoryItem, confirmations: Confirmations | None = None) -> bool:
        """Contradicted at its current version, and not confirmed as it is."""
        found = self._standings.get(item.id)
        if found is None or found.contradicted_version != item.version:
            return False
        return confirmations is None or not confirmations.is_confirmed(item)

    def stale_ids(self, items: Sequence[MemoryItem]) -> set[str]:
        """Ids of `items` that are stale now (none when learning is off)."""
        if not self.learn or not self._standings:
            return set()
        confirmations = self._store.confirmations
        return {m.id for m in items if self.is_stale(m, confirmations)}

    def importance(self, item: MemoryItem) -> float:
        """The memory's importance as ranking weighs it."""
        found = self._standings.get(item.id) if self.learn else None
        if found is None:
            return item.importance
        return max(0.0, min(1.0, item.importance + found.adjustment))

    def resting(self, item: MemoryItem) -> bool:
        """Whether a pitfall rests: served `REST_AFTER` times in a row unused, not used nor
        missed since, and not rewritten since (its error met again in a session it was not
        served to adds that occurrence: a new version); never while learning is off, never
        another type."""
        if not self.learn or item.type != MemoryType.PITFALL:
            return False
        standing = self.standing(item.id)
        return standing.unused_in_a_row >= REST_AFTER and standing.unused_version == item.version

    def heeded(self, item: MemoryItem) -> bool:
        """Whether a session it was served to used it or met its error anyway (its trigger
        recurred: a one-off pitfall so met earns the session start); never while learning is
        off."""
        if not self.learn:
            return False
        standing = self.standing(item.id)
        return standing.used + standing.missed > 0

    def passed_over(self, item: MemoryItem) -> bool:
        """Whether a project fact was served at `UNUSED_STARTS` session starts and never used
        nor missed (`views.start_order`): a prompt's answer that served it unused does not
        count. Never while learning is off, never another type."""
        if not self.learn or item.type != MemoryType.PROJECT_FACT:
            return False
        standing = self.standing(item.id)
        return standing.used + standing.missed == 0 and standing.unused_starts >= UNUSED_STARTS

    def rests_at_start(self, item: MemoryItem) -> bool:
        """Whether a recipe's last `UNUSED_STARTS` session-start servings of its current
        version went unused, with no use nor miss since (`views.start_recipes`); a rewrite
        (its command worked again) ends it. Never while learning is off, never another type."""
        if not self.learn or item.type != MemoryType.RECIPE:
            return False
        standing = self.standing(item.id)
        return (
            standing.unused_starts_in_a_row >= UNUSED_STARTS
            and standing.unused_start_version == item.version
        )

    def may_rest_at_start(self, memory_id: str) -> bool:
        """Whether a memory's start servings alone could make it rest (`rests_at_start` needs
        its current version too): a cheap test before reading the memory."""
        return self.learn and self.standing(memory_id).unused_starts_in_a_row >= UNUSED_STARTS

    def injectable(self, items: Sequence[MemoryItem]) -> list[MemoryItem]:
        """What may reach a model unasked: the confirmations' rule, then no stale memory."""
        confirmations = self._store.confirmations
        kept = confirmations.injectable(items)
        if not self.learn or not self._standings:
            return kept
        return [m for m in kept if not self.is_stale(m, confirmations)]


class OutcomeBooks:
    """One `OutcomeBook` per open project."""

    def __init__(self, *, learn: bool = True) -> None:
        self.learn = learn
        self._books: dict[str, OutcomeBook] = {}

    async def of(self, store: Store) -> OutcomeBook:
        """The project's book, its outcomes read (the store it was made for is kept)."""
        book = self._books.get(store.project_id)
        if book is None or book.store is not store:
            book = OutcomeBook(store, learn=self.learn)
            self._books[store.project_id] = book
        return await book.load()
