"""The text embedder contract: unit-length float32 vectors, loaded in the background."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from squirrel_core.errors import InvalidArgumentError, UnavailableError

Vectors = npt.NDArray[np.float32]

# Longer texts are cut before tokenising; the model only reads its first 256 tokens anyway,
# and 256 word pieces rarely span more than a few thousand characters.
MAX_TEXT_CHARS = 16_384
# One call may embed at most this many texts; callers batch above it.
MAX_TEXTS_PER_CALL = 10_000


class EmbedderNotReadyError(UnavailableError):
    """The model is still loading, or failed to load; lexical search still works."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    @property
    def dim(self) -> int:
        """Length of every vector."""
        ...

    @property
    def model_id(self) -> str:
        """Names the model; vectors of different model ids must never share an index."""
        ...

    @property
    def ready(self) -> bool:
        """True once `embed` can answer."""
        ...

    @property
    def load_error(self) -> BaseException | None:
        """Why loading failed, if it did; `ready` then stays false."""
        ...

    def start(self) -> None:
        """Begin loading in the background; returns at once. Calling it again does nothing."""
        ...

    async def wait_ready(self) -> bool:
        """Wait until loading ends (bound it with `asyncio.timeout`); return `ready`."""
        ...

    async def close(self) -> None:
        """Wait until background loading has ended (it cannot be stopped midway): no thread of
        the embedder is left inside the model's native runtime when the process exits, which
        would abort it. Returns at once when loading never started or has ended."""
        ...

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Return a (len(texts), dim) array; raise `EmbedderNotReadyError` before `ready`."""
        ...

    async def embed_query(self, text: str) -> Vectors:
        """Embed one search query or task description, (1, dim); may use a faster, slightly
        less exact encoder than `embed` and a cache. Raise `EmbedderNotReadyError` before
        `ready`."""
        ...

    def embed_query_now(self, text: str) -> Vectors:
        """`embed_query` on the calling thread, which it blocks (never the event loop's): a
        search runs it in the thread that then searches the vector index."""
        ...


class LoadSignal:
    """Set once by a loading thread; awaited by any number of event loops without a thread each."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def is_set(self) -> bool:
        """True once `set` was called."""
        return self._event.is_set()

    def set(self) -> None:
        """Wake every waiter, on whichever loop it waits."""
        with self._lock:
            self._event.set()
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            if not loop.is_closed():
                loop.call_soon_threadsafe(_resolve, future)

    async def wait(self) -> None:
        """Return once set; cancellable (e.g. by `asyncio.timeout`)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if self._event.is_set():
                return
            self._waiters.append((loop, future))
        try:
            await future
        finally:
            with self._lock:
                if (loop, future) in self._waiters:
                    self._waiters.remove((loop, future))

    def wait_blocking(self) -> None:
        """Block the calling (non-event-loop) thread until set."""
        self._event.wait()


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def checked_texts(texts: Sequence[str]) -> list[str]:
    """Validate a batch and make every text safe to tokenise (valid UTF-8, bounded length)."""
    if isinstance(texts, str | bytes):
        raise InvalidArgumentError("texts must be a sequence of strings, not one string")
    if len(texts) > MAX_TEXTS_PER_CALL:
        raise InvalidArgumentError(f"at most {MAX_TEXTS_PER_CALL} texts per call")
    cleaned: list[str] = []
    for text in texts:
        if not isinstance(text, str):
            raise InvalidArgumentError("every text must be a string")
        clipped = text[:MAX_TEXT_CHARS]
        # Lone surrogates cannot cross into a tokenizer; replace them rather than fail.
        cleaned.append(clipped.encode("utf-8", "replace").decode("utf-8"))
    return cleaned


def empty_vectors(dim: int) -> Vectors:
    """The answer for an empty batch."""
    return np.zeros((0, dim), dtype=np.float32)


def normalised(vectors: npt.NDArray[np.floating]) -> Vectors:
    """Rows scaled to unit length (an all-zero row stays zero)."""
    matrix: Vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    result: Vectors = (matrix / np.maximum(norms, np.float32(1e-12))).astype(np.float32)
    return result


__all__ = [
    "MAX_TEXTS_PER_CALL",
    "MAX_TEXT_CHARS",
    "Embedder",
    "EmbedderNotReadyError",
    "LoadSignal",
    "Vectors",
    "checked_texts",
    "empty_vectors",
    "normalised",
]
