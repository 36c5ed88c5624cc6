"""How close two of the user's instructions are in meaning: the cosine of their sentence vectors.

The recurrence rules (`paraphrases.same_instruction`) use it beside word overlap to tell that an
instruction came back in other words. The vectors come from the service's embedder, in one
batch per pass (only the stored instructions that share a telling word with the pass's: the
meaning rule needs one). The pass waits for the model to load (it loads locally, in the
background, at start) for at most `LOAD_WAIT_SECONDS`, so that what a pass decides does not
depend on how fast the model loaded. Without an embedder, or when it failed to load, word
overlap decides alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np
import structlog

from squirrel_memory.embedding.base import Embedder, EmbedderNotReadyError, Vectors
from squirrel_memory.extractors.instruction_words import instruction_words, telling_words
from squirrel_memory.extractors.paraphrases import Likeness
from squirrel_memory.models import MemoryItem

log = structlog.get_logger()

#: The longest a pass waits for the model to finish loading before it decides without it.
LOAD_WAIT_SECONDS = 120.0


class MeaningTable:
    """Sentence vectors of a fixed set of texts; `likeness` compares two of them."""

    def __init__(self, texts: Sequence[str], vectors: Vectors) -> None:
        self._rows = {text: i for i, text in enumerate(texts)}
        self._vectors = vectors

    def likeness(self, first: str, second: str) -> float | None:
        """The cosine of the two texts' vectors; None when either has none."""
        a, b = self._rows.get(first), self._rows.get(second)
        if a is None or b is None:
            return None
        return float(np.dot(self._vectors[a], self._vectors[b]))


def comparable(
    wordings: Sequence[str], stored: Sequence[MemoryItem], echoed: Sequence[str] = ()
) -> list[str]:
    """`wordings` and the stored instructions that share a telling word with one of them, and
    the `echoed` sentences (`echoes`) that share one with either: the only texts the meaning
    rule can join (the others need no vector; an echo is only ever compared with an
    instruction)."""
    known: set[str] = set().union(*(_telling(w) for w in wordings))
    echo_words = [(e, _telling(e)) for e in echoed]
    telling = known.union(*(words for _, words in echo_words))
    kept: list[str] = []
    for memory in stored:
        words = _telling(memory.content)
        if telling & words:
            kept.append(memory.content)
            known |= words
    return [*wordings, *kept, *(e for e, words in echo_words if known & words)]


def _telling(text: str) -> frozenset[str]:
    return telling_words(instruction_words(text))


async def instruction_likeness(
    embedder: Embedder | None, texts: Sequence[str], *, wait: float = LOAD_WAIT_SECONDS
) -> Likeness | None:
    """A `Likeness` over `texts` (embedded in one batch), or None without a usable model."""
    unique = list(dict.fromkeys(t for t in texts if t.strip()))
    if embedder is None or len(unique) < 2:
        return None
    if not embedder.ready:
        embedder.start()
        try:
            async with asyncio.timeout(wait):
                await embedder.wait_ready()
        except TimeoutError:
            pass
    if not embedder.ready:
        log.warning("instruction_meaning_skipped", reason="embedder_not_ready")
        return None
    try:
        vectors = await embedder.embed(unique)
    except EmbedderNotReadyError:
        return None
    return MeaningTable(unique, vectors).likeness


__all__ = ["LOAD_WAIT_SECONDS", "MeaningTable", "comparable", "instruction_likeness"]
