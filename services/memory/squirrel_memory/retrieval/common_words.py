"""Words a project's memory says everywhere: a task's words that half its memories hold.

In a project called ocean-sound-log, "ocean", "log" and "py" are in nearly every memory; a
prompt naming `ocean_sound_log/renderer.py` shares them with all of them, and BM25 (whose IDF is
about 0 for such a word) gives no reason to prefer one memory over another. Such a word, like a
generic verb, neither makes a memory relevant to a task nor explains why it is: the task context
judges a memory that shares nothing else with the task on its meaning alone. The share is the
one at which BM25's own IDF reaches 0 (a word in half the rows or more). A project with few
memories has no common word: too few to tell. The memories read are at most `SAMPLE` of the
types asked for; in a larger project a word's share is counted on them.

The shares also order the words a reason names (`rarest_first`): the word few memories hold
decided the pick, so it is named before the project's everyday words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from squirrel_memory.models import MemoryType
from squirrel_memory.retrieval.queries import matched_terms
from squirrel_memory.retrieval.reader import MemoryReader

COMMON_SHARE = 0.5
"""A word held by at least this share of the memories is common (BM25's IDF is ~0 there)."""
MIN_MEMORIES = 6
"""Below this many memories no word is common."""
SAMPLE = 500
"""Most memories read to count the words' shares."""


async def term_shares(
    reader: MemoryReader,
    project_id: str,
    terms: Sequence[str],
    types: Sequence[MemoryType] | None,
) -> dict[str, float]:
    """The share of the project's live memories of `types` that hold each of `terms` (a query's
    words, by a light stem, as a match is counted), in query order; empty when the project has
    too few memories to tell."""
    if not terms:
        return {}
    items, _ = await reader.list_memories(project_id, types, limit=SAMPLE)
    live = [m for m in items if not m.deleted]
    if len(live) < MIN_MEMORIES:
        return {}
    held = dict.fromkeys(terms, 0)
    for item in live:
        for term in matched_terms(terms, item):
            held[term] += 1
    return {t: n / len(live) for t, n in held.items()}


def common_of(shares: Mapping[str, float]) -> frozenset[str]:
    """The terms at least `COMMON_SHARE` of the memories hold."""
    return frozenset(t for t, share in shares.items() if share >= COMMON_SHARE)


def rarest_first(shares: Mapping[str, float]) -> tuple[str, ...]:
    """The terms, those fewest memories hold first (query order among equals): the words that
    tell one memory from the others come before the ones many memories share."""
    return tuple(sorted(shares, key=lambda t: shares[t]))


async def common_terms(
    reader: MemoryReader,
    project_id: str,
    terms: Sequence[str],
    types: Sequence[MemoryType] | None,
) -> frozenset[str]:
    """The `terms` (a query's words) that at least `COMMON_SHARE` of the project's live memories
    of `types` hold (by a light stem, as a match is counted)."""
    return common_of(await term_shares(reader, project_id, terms, types))
