"""The same-memory rule (see `manual`), and `WordScreen`: which memories could be the same
memory as a statement, from their words alone, so a batch searches only when one could."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from squirrel_memory.models import MemoryItem, MemorySource, MemoryType
from squirrel_memory.storage.values import FindLookalikes
from squirrel_memory.updates import (
    NEAR_DUPLICATE_JACCARD,
    NEAR_DUPLICATE_RATIO,
    content_words,
    contradicts,
    edit_ratio_reaches,
    jaccard,
)

#: A call of fewer statements still reads a type's memories when it holds at most this many.
LEARN_FOR_ONE = 300
#: How many of its rarest words a memory must share with a statement to be compared with it
#: (besides the memories whose words are all the statement's).
PAIRED_WORDS = 3


def same_memory(statement: str, existing: str) -> bool:
    """The same-memory rule (see `manual`'s docstring)."""
    if round(jaccard(statement, existing), 4) < NEAR_DUPLICATE_JACCARD:
        # Both conditions must hold; the word test is linear, the edit ratio is not.
        left, right = content_words(statement), content_words(existing)
        if not (left <= right or right <= left):
            return False
        if not edit_ratio_reaches(statement, existing, NEAR_DUPLICATE_RATIO):
            return False
    return not contradicts(statement, existing)


def _may_be_same(words: frozenset[str], other: frozenset[str]) -> bool:
    """Whether `same_memory` can hold for statements with these words (Jaccard of at least
    0.8 as rounded there, or the words of one all in the other), from the sets alone."""
    shared = len(words & other)
    if shared in (len(words), len(other)):
        return True
    return shared >= 0.79994 * (len(words) + len(other) - shared)


class WordScreen:
    """A `LookalikeScreen` for a batch of statements: which memories could be the same memory
    as a statement, from their words alone, so the lexical search runs only when one could.

    Every memory that is the same memory as a statement (with words W; see `same_memory`)
    shares words with it: with Jaccard >= 0.8 it misses at most `s = int(0.2001 * |W|)` words
    of W, so it holds at least `n` of any `s + n` words of W (the rarest are taken); when W is
    in its words, it holds them all; when its words M are all in W, any word of M is in W (one
    is kept per memory: the one fewest memories held when it was learnt). So the memories
    holding `n` of the rarest words, those whose kept word is in W and those without words are
    the only ones that can be: `same_memory` is run on them, and when it holds for none, no
    search can find a look-alike (and none is run).

    It is kept between batches: what it learnt of a type holds while the store reports the same
    version of that type's memories (the backend checks it inside each batch's transaction, and
    settles the version the batch's own writes made). It learns a type it does not know when
    the call is `learning` (many statements), or when the type is small enough to read for one.
    A step that keeps no manual memory (`FindLookalikes.manual` False, a named key) is ruled
    out when only manual memories could be the same.
    """

    def __init__(self) -> None:
        self.learning = True
        self.forget()

    def forget(self) -> None:
        """Drop everything learnt (a batch that changed it failed)."""
        self._versions: dict[MemoryType, Hashable] = {}
        self._ids: dict[MemoryType, set[str]] = {}
        self._types: dict[str, MemoryType] = {}
        self._contents: dict[str, str] = {}
        self._words: dict[str, frozenset[str]] = {}
        self._holding: dict[tuple[MemoryType, str], set[str]] = {}
        self._first: dict[tuple[MemoryType, str], set[str]] = {}
        self._anchor: dict[str, str] = {}
        self._wordless: dict[MemoryType, set[str]] = {}
        self._manual: set[str] = set()

    def wants(self, count: int) -> bool:
        return self.learning or count <= LEARN_FOR_ONE

    def knows(self, memory_type: MemoryType, version: Hashable) -> bool:
        return memory_type in self._versions and self._versions[memory_type] == version

    def learn(
        self,
        memory_type: MemoryType,
        version: Hashable,
        memories: Sequence[tuple[str, str, bool]],
    ) -> None:
        for memory_id in list(self._ids.get(memory_type, ())):
            self._drop(memory_id)
        self._versions[memory_type] = version
        self._ids[memory_type] = set()
        self._wordless[memory_type] = set()
        for memory_id, content, manual in memories:
            self._add(memory_type, memory_id, content, manual)

    def written(self, item: MemoryItem) -> None:
        if item.type not in self._versions:
            return
        self._drop(item.id)
        if not item.deleted:
            self._add(item.type, item.id, item.content, item.source is MemorySource.MANUAL)

    def settle(self, memory_type: MemoryType, version: Hashable) -> None:
        if memory_type in self._versions:
            self._versions[memory_type] = version

    def rules_out(self, step: FindLookalikes) -> bool:
        kind = step.memory_type
        words = content_words(step.content)
        if not words or kind not in self._versions:
            return False
        holding = self._holding
        # (how many memories hold it, the word, those memories), rarest first; words are
        # distinct, so the sets are never compared.
        rarest = sorted(
            (len(held), word, held) for word in words for held in [holding.get((kind, word), ())]
        )
        # A memory with Jaccard >= 0.8, or holding all of W, misses at most `spare` words of W,
        # so it holds at least `needed` of the `spare + needed` rarest.
        spare = int(0.2001 * len(words))
        needed = min(PAIRED_WORDS, len(words) - spare)
        hits: Counter[str] = Counter()
        for _, _, held in rarest[: spare + needed]:
            hits.update(held)
        candidates = {m for m, n in hits.items() if n >= needed}
        candidates.update(self._wordless[kind])
        for word in words:
            candidates.update(self._first.get((kind, word), ()))
        if not step.manual:
            candidates -= self._manual
        return not any(
            _may_be_same(words, self._words[m]) and same_memory(step.content, self._contents[m])
            for m in candidates
        )

    def _add(self, kind: MemoryType, memory_id: str, content: str, manual: bool) -> None:
        words = content_words(content)
        self._ids[kind].add(memory_id)
        if manual:
            self._manual.add(memory_id)
        self._types[memory_id] = kind
        self._contents[memory_id] = content
        self._words[memory_id] = words
        if not words:
            self._wordless[kind].add(memory_id)
            return
        for word in words:
            self._holding.setdefault((kind, word), set()).add(memory_id)
        # Any one of its words will do; the one fewest memories hold keeps the lists short.
        first = min(words, key=lambda w: (len(self._holding[(kind, w)]), w))
        self._anchor[memory_id] = first
        self._first.setdefault((kind, first), set()).add(memory_id)

    def _drop(self, memory_id: str) -> None:
        kind = self._types.pop(memory_id, None)
        if kind is None:
            return
        self._ids[kind].discard(memory_id)
        self._manual.discard(memory_id)
        del self._contents[memory_id]
        words = self._words.pop(memory_id)
        if not words:
            self._wordless[kind].discard(memory_id)
            return
        self._first[(kind, self._anchor.pop(memory_id))].discard(memory_id)
        for word in words:
            self._holding[(kind, word)].discard(memory_id)
