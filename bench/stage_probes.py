"""Where `bench.search_stages` times a search: each stage's code wrapped where the search calls
it (`probes`), its thread CPU added to the stage (`Clocks`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from squirrel_memory.index import FaissIndex
from squirrel_memory.retrieval import Retriever
from squirrel_memory.retrieval import ranking as ranking_module
from squirrel_memory.retrieval import retriever as retriever_module
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite import postings as postings_module
from squirrel_memory.storage.sqlite import reads as reads_module
from squirrel_memory.storage.sqlite import search as search_module


class Clocks:
    """Thread CPU ns per stage of the search being timed (every reader thread adds to it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.current: dict[str, int] = {}
        self.found: set[str] = set()
        """The stages whose code was found and wrapped."""
        self.counts: dict[str, int] = {}
        """Things counted in the search being timed (`counted`), not times."""
        self.counting: set[str] = set()
        """The counts whose code was found and wrapped."""

    def add(self, stage: str, ns: int) -> None:
        with self._lock:
            self.current[stage] = self.current.get(stage, 0) + ns

    def take(self) -> dict[str, int]:
        with self._lock:
            taken, self.current = self.current, {}
        return taken

    def take_counts(self) -> dict[str, int]:
        """Each count found (0 where nothing was counted) since the last take."""
        with self._lock:
            taken, self.counts = self.counts, {}
        return {name: taken.get(name, 0) for name in self.counting}

    def counted(
        self, name: str, fn: Callable[..., Any], how_many: Callable[..., int]
    ) -> Callable[..., Any]:
        """`fn`, `how_many(*args)` added to the count `name` on every call."""
        self.counting.add(name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            n = how_many(*args)
            with self._lock:
                self.counts[name] = self.counts.get(name, 0) + n
            return fn(*args, **kwargs)

        return wrapper

    def timed(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """`fn`, its thread CPU added to `stage` on every call."""
        self.found.add(stage)
        clock, add = time.thread_time_ns, self.add

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                add(stage, clock() - started)

        return wrapper


@contextmanager
def patched(target: object, name: str, clocks: Clocks, stage: str) -> Iterator[None]:
    """`target.name` timed as `stage` while inside (nothing when it has no such attribute)."""
    original = getattr(target, name, None)
    if original is None:
        yield
        return
    own = name in vars(target)  # else a class's attribute, seen through an instance
    setattr(target, name, clocks.timed(stage, original))
    try:
        yield
    finally:
        if own:
            setattr(target, name, original)
        else:
            delattr(target, name)


ROWS_ASKED = "rows asked"
ROWS_READ = "rows read"
"""The memory rows a search asks for (through the row cache, each id once per read) and those
read from the file (not in the cache)."""


@contextmanager
def rows_counted(clocks: Clocks) -> Iterator[None]:
    """The rows each read of a search asks for and reads from the file, counted (nothing where
    an older tree has no such function)."""

    def asked(_conn: object, _rows: object, _generation: object, ids: Sequence[str]) -> int:
        return len(set(ids))

    def read(_conn: object, ids: Sequence[str]) -> int:
        return len(ids)

    counted: tuple[tuple[str, str, Callable[..., int]], ...] = (
        ("cached_memories", ROWS_ASKED, asked),
        ("load_memories", ROWS_READ, read),
    )
    originals = [(name, getattr(reads_module, name, None)) for name, _, _ in counted]
    for (name, what, how_many), (_, original) in zip(counted, originals, strict=True):
        if original is not None:
            setattr(reads_module, name, clocks.counted(what, original, how_many))
    try:
        yield
    finally:
        for name, original in originals:
            if original is not None:
                setattr(reads_module, name, original)


@contextmanager
def jobs_timed(store: SqliteStore, clocks: Clocks) -> Iterator[None]:
    """The two jobs of a search's paired read (vector, then lexical) timed whole."""
    db = store._db  # a bench looks inside
    original = db.read_pair

    async def read_pair(first: Callable[..., Any], second: Callable[..., Any]) -> Any:
        return await original(
            clocks.timed("vector job", first), clocks.timed("lexical job", second)
        )

    clocks.found.update(("vector job", "lexical job"))
    db.read_pair = read_pair  # type: ignore[method-assign]
    try:
        yield
    finally:
        del db.read_pair


@contextmanager
def probes(
    store: SqliteStore, retriever: Retriever, index: FaissIndex, clocks: Clocks
) -> Iterator[None]:
    """Every stage of `STAGES` wrapped where the search calls it."""
    embedder = retriever._candidates._embedder
    lexical = store._lexical
    tokenizer = getattr(lexical, "_tokenizer", None)
    wrapped: list[tuple[object, str, str]] = [
        (embedder, "embed_query_now", "encoder"),
        (index, "search", "vector index"),
        (index, "similarities", "exact cosines"),
        (search_module, "read_memories", "vector rows"),
        (lexical, "_catch_up", "lexical catch-up"),
        (postings_module.IndexState, "best", "bm25"),  # an older tree's
        (postings_module.IndexState, "_top", "bm25"),  # under `ranked`, which searches call
        (search_module, "memories_of_docs", "lexical rows"),
        (retriever_module, "matched_terms", "matched terms"),  # an older tree's
        (retriever_module, "matched_counts", "matched terms"),
        (retriever_module, "parse_query", "parse"),
        (retriever_module, "fuse", "fusion"),  # an older tree's
        (retriever_module, "fused_hits", "fusion"),
        (retriever_module, "placed", "placing"),
        (ranking_module.Ranking, "scored", "page"),  # an older tree's
        (ranking_module.Ranking, "rows", "page"),
        (retriever_module, "search_result", "page"),
    ]
    if tokenizer is not None:
        wrapped.append((tokenizer, "tokens", "tokenizer"))
    with jobs_timed(store, clocks), rows_counted(clocks), _all(wrapped, clocks):
        yield


@contextmanager
def _all(wrapped: Sequence[tuple[object, str, str]], clocks: Clocks) -> Iterator[None]:
    if not wrapped:
        yield
        return
    target, name, stage = wrapped[0]
    with patched(target, name, clocks, stage), _all(wrapped[1:], clocks):
        yield
