"""A deterministic hashing-trick embedder for tests: same text, same vector, no model files."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from squirrel_memory.embedding.base import (
    EmbedderNotReadyError,
    LoadSignal,
    Vectors,
    checked_texts,
    empty_vectors,
    normalised,
)

_WORD = re.compile(r"\w+", re.UNICODE)
_EMPTY_FEATURE = "\x00empty"


class FakeEmbedder:
    """Hashes lower-cased words and their character trigrams into signed buckets.

    Texts sharing words get a positive cosine, so ranking tests behave sensibly. Loading is
    instant unless `loaded=False`; then tests drive it with `finish_loading` / `fail_loading`.
    """

    def __init__(self, dim: int = 64, *, loaded: bool = True, model_id: str | None = None) -> None:
        if dim < 2:
            raise ValueError("dim must be at least 2")
        self._dim = dim
        self._model_id = model_id or f"fake-hashing-{dim}"
        self._done = LoadSignal()
        self._ready = False
        self._error: BaseException | None = None
        self.calls = 0
        self.texts_embedded = 0
        if loaded:
            self.finish_loading()

    @property
    def dim(self) -> int:
        """Length of every vector."""
        return self._dim

    @property
    def model_id(self) -> str:
        """Names the hashing scheme and its dimension."""
        return self._model_id

    @property
    def ready(self) -> bool:
        """True once loading finished without error."""
        return self._ready

    @property
    def load_error(self) -> BaseException | None:
        """The error passed to `fail_loading`, if any."""
        return self._error

    def start(self) -> None:
        """Nothing to load; kept for the `Embedder` protocol."""

    def finish_loading(self) -> None:
        """Mark the embedder ready and wake every waiter."""
        self._ready = True
        self._done.set()

    def fail_loading(self, error: BaseException) -> None:
        """Record a loading failure and wake every waiter; `ready` stays false."""
        self._error = error
        self._done.set()

    async def wait_ready(self) -> bool:
        """Wait until loading ends; return `ready`."""
        await self._done.wait()
        return self._ready

    async def close(self) -> None:
        """No loading thread to wait for; kept for the `Embedder` protocol."""

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed `texts`; raises `EmbedderNotReadyError` until ready."""
        cleaned = checked_texts(texts)
        if not self._ready:
            raise EmbedderNotReadyError("the embedding model is not loaded")
        self.calls += 1
        self.texts_embedded += len(cleaned)
        if not cleaned:
            return empty_vectors(self._dim)
        return self.embed_now(cleaned)

    async def embed_query(self, text: str) -> Vectors:
        """The same vector `embed` gives one text (counted as a call)."""
        return await self.embed([text])

    def embed_query_now(self, text: str) -> Vectors:
        """`embed_query` on the calling thread."""
        cleaned = checked_texts([text])
        if not self._ready:
            raise EmbedderNotReadyError("the embedding model is not loaded")
        self.calls += 1
        self.texts_embedded += 1
        return self.embed_now(cleaned)

    def embed_now(self, texts: Sequence[str]) -> Vectors:
        """Synchronous embedding, for building test data without an event loop."""
        matrix = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in _features(text):
                digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                sign = 1.0 if value & 1 else -1.0
                matrix[row, (value >> 1) % self._dim] += sign
        return normalised(matrix)


def _features(text: str) -> list[str]:
    words = [w.lower() for w in _WORD.findall(text)]
    if not words:
        return [_EMPTY_FEATURE]
    features = [f"w:{w}" for w in words]
    for word in words:
        padded = f"#{word}#"
        features.extend(f"c:{padded[i : i + 3]}" for i in range(len(padded) - 2))
    return features
