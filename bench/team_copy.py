"""Bulk loading a team server's memories with `COPY` (a benchmark's loader, not the product's).

The memories are the product's own: each batch of decisions runs through the store's write
plan (`_apply`, as `apply_processing_result` does), whose `Insert` steps are collected instead
of sent; each insert's values are `memory_sql.insert_writes`' (the row, its full-text texts, its
CREATED history row) and each vector's the row `PgVectorIndex.upsert` writes. They go in with
`COPY`: the history rows straight into their table, the vectors in COPY's binary format
(pgvector's own encoding), the memory rows into a
temporary table and from there into `memory_items` with the product's full-text expression
(`Dialect.search_insert`) computing `search`, so every column is what the product would have
written. `verify` reads a sample back through the product (`get_memories`, `search_fts`, the
vector index) and compares the stored full-text column with the product's statement.

`HashingVectors` gives the vectors of the test embedder (`FakeEmbedder`), the same numbers,
with each feature's hash computed once and a batch summed in one `bincount`: hashing and
summing every feature of every memory in Python was what bounded the load (the product's write
plan took a fifth of that); `verify` checks its vectors against `FakeEmbedder`'s.

`CopyBatches` loads the memories of any number of projects so on one connection, a batch of
them per transaction across projects.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from bench.common import progress
from bench.memory_text import MemoryGenerator
from squirrel_memory.embedding.base import Vectors, normalised
from squirrel_memory.embedding.fake import _EMPTY_FEATURE as _EMPTY
from squirrel_memory.embedding.fake import _WORD, FakeEmbedder
from squirrel_memory.index import Vector
from squirrel_memory.models import MemoryItem, MemorySource, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import embedding_text
from squirrel_memory.storage import Store
from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.memory_plans import Insert
from squirrel_memory.storage.memory_sql import MEMORY_COLUMNS, insert_writes, statements
from squirrel_memory.storage.postgres.search import search_fields
from squirrel_memory.storage.revisions import ChangeSet, drive_async
from squirrel_memory.storage.values import HistoryAction

_SQL = statements(POSTGRES)
_SEARCH_TEXTS = ("s_key", "s_tags", "s_content")
_VECTOR_COLUMNS = "memory_id, project_id, model_id, dim, embedding"


def _columns(insert: str) -> str:
    """The column list of an `INSERT INTO t (columns) VALUES ...` statement."""
    found = re.match(r"INSERT INTO \w+ \(([^)]*)\)", insert)
    assert found is not None, insert
    return found.group(1)


def _search_expression() -> str:
    """`Dialect.search_insert` over the staged texts instead of parameters."""
    expression = POSTGRES.search_insert
    for name in _SEARCH_TEXTS:
        expression = expression.replace("%s", name, 1)
    assert "%s" not in expression
    return expression


async def planned_inserts(
    store: Store, decisions: Sequence[UpdateDecision], user_id: str, now: datetime
) -> list[Insert]:
    """The `Insert` steps the store's write plan makes of ADD_NEW decisions (nothing sent)."""
    inserts: list[Insert] = []

    async def answer(step: object) -> None:
        assert isinstance(step, Insert), f"a bulk load only adds memories, not {step!r}"
        inserts.append(step)

    for decision in decisions:
        plan = store._apply(  # type: ignore[attr-defined]
            decision,
            user_id=user_id,
            source=MemorySource.RULES,
            now=now,
            changes=ChangeSet(),
        )
        await drive_async(plan, answer)
    return inserts


class HashingVectors:
    """`FakeEmbedder.embed_now`'s vectors, each feature (a word's `w:` feature, a trigram's
    `c:`, as `fake_embedder._features` makes them) hashed once and each word's features kept
    as codes (bucket and sign in one int); a batch's codes are summed in one `bincount`. The
    sums are small integers, exact in float32 in any order, so the vectors are the same
    numbers. Hashing every feature of every memory again, and summing them one at a time in
    Python, was what bounded the load."""

    def __init__(self, dim: int, cache: int = 1_000_000) -> None:
        self.dim = dim
        self._cache = cache
        self._features: dict[str, int] = {}
        self._words: dict[str, list[int]] = {}

    def _code(self, feature: str) -> int:
        """The feature's bucket times two, plus one when its sign is positive."""
        found = self._features.get(feature)
        if found is None:
            digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            found = ((value >> 1) % self.dim) * 2 + (value & 1)
            if len(self._features) < self._cache:
                self._features[feature] = found
        return found

    def _of_word(self, word: str) -> list[int]:
        found = self._words.get(word)
        if found is None:
            padded = f"#{word}#"
            code = self._code
            found = [code(f"w:{word}")]
            found += [code(f"c:{padded[i : i + 3]}") for i in range(len(padded) - 2)]
            if len(self._words) < self._cache:
                self._words[word] = found
        return found

    def embed(self, texts: Sequence[str]) -> Vectors:
        codes: list[int] = []
        lengths: list[int] = []
        empty = [self._code(_EMPTY)]
        for text in texts:
            start = len(codes)
            words = _WORD.findall(text)
            for word in words:
                codes += self._of_word(word.lower())
            if not words:
                codes += empty
            lengths.append(len(codes) - start)
        found = np.array(codes, dtype=np.int64)
        rows = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
        cells = rows * self.dim + (found >> 1)
        signs = np.where(found & 1, 1.0, -1.0)
        flat = np.bincount(cells, weights=signs, minlength=len(texts) * self.dim)
        return normalised(flat.reshape(len(texts), self.dim).astype(np.float32))


def copy_rows(
    conn: psycopg.Connection[Any],
    inserts: Sequence[Insert],
    vectors: Any,
    model_id: str,
) -> None:
    """The rows of `inserts` and their vectors (in the same order), in the caller's transaction."""
    writes = [
        insert_writes(POSTGRES, _SQL, s.item, s.reason, search_fields(s.item)) for s in inserts
    ]
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS load_items ON COMMIT DELETE ROWS AS "
        f"SELECT {MEMORY_COLUMNS}, ''::text AS s_key, ''::text AS s_tags, "
        "''::text AS s_content FROM memory_items WITH NO DATA"
    )
    staged = f"{MEMORY_COLUMNS}, {', '.join(_SEARCH_TEXTS)}"
    with conn.cursor().copy(f"COPY load_items ({staged}) FROM STDIN") as copy:
        for write in writes:
            copy.write_row(write[0][1])
    conn.execute(
        f"INSERT INTO memory_items ({_columns(_SQL.insert)}) "
        f"SELECT {MEMORY_COLUMNS}, {_search_expression()} FROM load_items"
    )
    history = _columns(_SQL.keep_history)
    with conn.cursor().copy(f"COPY memory_history ({history}) FROM STDIN") as copy:
        for write in writes:
            copy.write_row(write[1][1])
    binary = f"COPY memory_vectors ({_VECTOR_COLUMNS}) FROM STDIN WITH (FORMAT BINARY)"
    with conn.cursor().copy(binary) as copy:
        copy.set_types(["text", "text", "text", "int4", "vector"])
        for step, vector in zip(inserts, vectors, strict=True):
            item = step.item
            copy.write_row((item.id, item.project_id, model_id, len(vector), vector))


async def verify(
    store: Store, dsn: str, inserts: Sequence[Insert], vectors: Sequence[Any], model_id: str
) -> int:
    """Read `inserts` back through the product; raise on any difference, return how many."""
    if not inserts:
        return 0
    items = {s.item.id: s.item for s in inserts}
    read = {m.id: m for m in await store.get_memories(list(items))}
    if read != items:
        raise AssertionError("memories read back differ from those loaded")
    with psycopg.connect(dsn) as conn:
        for step in inserts:
            item: MemoryItem = step.item
            expected = sql.SQL(POSTGRES.search_insert.replace("%s", "{}")).format(
                *(sql.Literal(t) for t in search_fields(item))
            )
            row = conn.execute(
                sql.SQL(
                    "SELECT search = ({e}), (SELECT (action, reason) FROM memory_history "
                    "WHERE memory_id = m.id AND version = 1) FROM memory_items m "
                    "WHERE id = {id}"
                ).format(e=expected, id=sql.Literal(item.id))
            ).fetchone()
            if row is None or row[0] is not True:
                raise AssertionError(f"full-text column of {item.id} differs")
            if tuple(row[1]) != (str(HistoryAction.CREATED), step.reason):
                raise AssertionError(f"history of {item.id} differs")
    dim = len(vectors[0])
    expected_vectors = FakeEmbedder(dim=dim).embed_now([embedding_text(s.item) for s in inserts])
    if not np.array_equal(np.asarray(vectors), expected_vectors):
        raise AssertionError("the cached hashing vectors differ from FakeEmbedder's")
    index, _ = store.open_vector_index(dim, model_id)
    for step, vector in zip(inserts, vectors, strict=True):
        if step.item.id not in index:
            raise AssertionError(f"vector of {step.item.id} missing")
        similarity = index.similarities(vector, [step.item.id])[step.item.id]
        if abs(similarity - 1.0) > 1e-5:
            raise AssertionError(f"vector of {step.item.id} differs ({similarity})")
    for step in inserts[:20]:
        hits = await store.search_fts(store.project_id, step.item.key, limit=10)
        if step.item.id not in {m for m, _ in hits}:
            raise AssertionError(f"search_fts does not find {step.item.id} by its key")
    return len(inserts)


class CopyBatches:
    """Memories of any number of projects loaded with `COPY` (`team_copy`) on one connection,
    `rows` per transaction across projects: each project's memories are planned by its own
    store, then queued, and every full batch goes in one transaction (one `COPY` per table).
    A transaction per project of 100 (its commit, the temporary table, four `COPY`s) was what
    bounded loading many small projects. Keeps the first `check` memories of the first
    projects with their vectors, to be read back once indexed."""

    def __init__(
        self,
        conn: Any,
        hashing: HashingVectors,
        model_id: str,
        deadline: float,
        rows: int = 10_000,
        name: str = "",
    ) -> None:
        self.name = name
        self._conn = conn
        self._deadline = deadline
        self._hashing = hashing
        self._model_id = model_id
        self._rows = rows
        self._queued: list[Insert] = []
        self.loaded = 0
        self.samples: list[tuple[Store, list[Insert], list[Vector]]] = []
        self._sampling: dict[str, tuple[Store, int]] = {}
        self._sending: tuple[asyncio.Task[None], list[Insert], Any] | None = None

    async def add(self, store: Store, count: int, first: int, check: int = 0) -> int:
        """Up to `count` memories of `store`'s project (the generator's from `first`), queued,
        none planned after the deadline (`time.monotonic`); every full batch is sent. Returns
        how many were queued (`flush` sends the rest)."""
        generator = MemoryGenerator(first)
        queued = 0
        for offset in range(0, count, self._rows):
            if time.monotonic() > self._deadline:
                break
            decisions = [
                UpdateDecision(UpdateAction.ADD_NEW, generator.candidate(first + offset + n))
                for n in range(min(self._rows, count - offset))
            ]
            inserts = await planned_inserts(store, decisions, "bench", datetime.now(UTC))
            if check and offset == 0:
                self._sampling[store.project_id] = (store, min(check, len(inserts)))
                self.samples.append((store, [], []))
            self._queued.extend(inserts)
            queued += len(inserts)
            if len(self._queued) >= self._rows:
                await self.flush()
        return queued

    async def flush(self) -> None:
        """Sends what is queued in one transaction, on a thread of its own: the next batch is
        planned while this one is sent and Postgres computes its full-text columns. The batch
        before is waited for first (one connection, one transaction at a time)."""
        await self.sent()
        if not self._queued:
            return
        inserts, self._queued = self._queued, []
        vectors = self._hashing.embed([embedding_text(s.item) for s in inserts])
        sending = asyncio.create_task(asyncio.to_thread(self._send, inserts, vectors))
        self._sending = (sending, inserts, vectors)

    def _send(self, inserts: list[Insert], vectors: Any) -> None:
        with self._conn.transaction():
            copy_rows(self._conn, inserts, vectors, self._model_id)

    async def sent(self) -> None:
        """Waits for the batch being sent; keeps its sample."""
        if self._sending is None:
            return
        (sending, inserts, vectors), self._sending = self._sending, None
        await sending
        if (self.loaded + len(inserts)) // 100_000 > self.loaded // 100_000:
            progress(self.name, f"{self.loaded + len(inserts):,} memories loaded")
        self.loaded += len(inserts)
        for store, sample, sample_vectors in self.samples:
            wanted = self._sampling[store.project_id][1] - len(sample)
            for step, vector in zip(inserts, vectors, strict=True):
                if wanted <= 0:
                    break
                if step.item.project_id == store.project_id:
                    sample.append(step)
                    sample_vectors.append(vector)
                    wanted -= 1
