"""Store benchmark: event append throughput, memory writes, FTS query latency, FTS sync cost.

Run: .venv/bin/python bench/store_append.py [--events 100000] [--batch 500] [--memories 10000]

Everything runs against a real data.db in a temporary folder, through the public async API
(one writer thread, pooled readers). Events look like transcript traffic: user messages,
tool calls with inputs, tool results with outputs of a few hundred bytes to a few KB.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import structlog

from squirrel_core.events import Event, EventType, SourceCursor, SourceTool
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite.fts_rows import FTS_TOKENIZER

_WORD_TEXT = (
    "auth service token login session cache redis postgres migration alembic pytest fixture "
    "docker compose deploy kubernetes helm queue worker celery retry timeout config settings "
    "router endpoint handler schema pydantic model validate serialize parser lexer index "
    "search embed vector faiss budget token estimate stream grpc proto client server health"
)
WORDS = _WORD_TEXT.split()
T0 = datetime(2026, 1, 1, tzinfo=UTC)


VOCABULARY = WORDS + [f"{a}{b.capitalize()}" for a in WORDS for b in WORDS if a != b]
ZIPF = [1.0 / rank for rank in range(1, len(VOCABULARY) + 1)]


def sentence(rng: random.Random, words: int) -> str:
    """Words drawn Zipf-like from ~4,000 terms, as prose and identifiers mix in real notes."""
    return " ".join(rng.choices(VOCABULARY, weights=ZIPF, k=words))


def make_event(i: int, rng: random.Random) -> Event:
    at = T0 + timedelta(seconds=i * 3)
    session = f"session-{i // 400}"
    kind = i % 3
    if kind == 0:
        return Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            at,
            {"text": sentence(rng, 30)},
            session,
        )
    if kind == 1:
        return Event(
            SourceTool.CLAUDE_CODE,
            EventType.TOOL_CALL,
            at,
            {"tool": "Bash", "tool_use_id": f"toolu_{i}", "input": {"command": "pytest -q"}},
            session,
        )
    return Event(
        SourceTool.CLAUDE_CODE,
        EventType.TOOL_RESULT,
        at,
        {
            "tool": "Edit",
            "tool_use_id": f"toolu_{i - 1}",
            "output": sentence(rng, rng.randint(50, 400)),
            "is_error": False,
        },
        session,
        file_paths=(f"src/module_{i % 50}.py",),
    )


def database_size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench_events(root: Path, total: int, batch: int) -> list[tuple[str, str]]:
    rng = random.Random(1)
    events = [make_event(i, rng) for i in range(total)]
    store = await SqliteStore.open(str(root))
    rows: list[tuple[str, str]] = []
    try:
        per_batch: list[float] = []
        start = time.perf_counter()
        for offset in range(0, total, batch):
            chunk = events[offset : offset + batch]
            t = time.perf_counter()
            cursor = SourceCursor(SourceTool.CLAUDE_CODE, "/logs/a.jsonl", 1, offset + batch)
            await store.append_events(str(root), "bench", chunk, [cursor])
            per_batch.append(time.perf_counter() - t)
        elapsed = time.perf_counter() - start
        rows.append(
            (f"append {total:,} new events, batches of {batch}", f"{total / elapsed:,.0f} rows/s")
        )
        rows.append(
            (
                "  per batch p50 / p95",
                f"{pct(per_batch, 0.5) * 1e3:.1f} / {pct(per_batch, 0.95) * 1e3:.1f} ms",
            )
        )
        start = time.perf_counter()
        for offset in range(0, min(total, 20_000), batch):
            await store.append_events(str(root), "bench", events[offset : offset + batch], [])
        elapsed = time.perf_counter() - start
        rows.append(("re-append 20,000 duplicates", f"{min(total, 20_000) / elapsed:,.0f} rows/s"))
        fetches: list[float] = []
        for _ in range(20):
            t = time.perf_counter()
            await store.fetch_unprocessed(str(root), limit=200)
            fetches.append(time.perf_counter() - t)
        rows.append(("fetch_unprocessed(200) p50", f"{statistics.median(fetches) * 1e3:.1f} ms"))
        size = database_size(store.path)
        rows.append(("data.db + wal size", f"{size / 1e6:,.0f} MB"))
    finally:
        await store.close()
    return rows


async def bench_memories(root: Path, count: int) -> list[tuple[str, str]]:
    rng = random.Random(2)
    store = await SqliteStore.open(str(root))
    rows: list[tuple[str, str]] = []
    try:
        decisions = [
            UpdateDecision(
                UpdateAction.ADD_NEW,
                MemoryCandidate(
                    rng.choice(list(MemoryType)),
                    f"{rng.choice(WORDS)}_{i}",
                    sentence(rng, rng.randint(8, 30)),
                    tuple(rng.sample(WORDS, 3)),
                    rng.random(),
                    source_event_ids=(f"evt_{i}",),
                ),
            )
            for i in range(count)
        ]
        start = time.perf_counter()
        for offset in range(0, count, 500):
            await store.apply_processing_result(
                [], decisions[offset : offset + 500], [], user_id="bench"
            )
        elapsed = time.perf_counter() - start
        rows.append(
            (
                f"add {count:,} memories (FTS kept in step), 500/txn",
                f"{count / elapsed:,.0f} rows/s",
            )
        )
        cases = [("Zipf-drawn", 1), ("Zipf-drawn", 3), ("Zipf-drawn", 6), ("uniform", 3)]
        for label, terms in cases:
            times: list[float] = []
            for _ in range(300):
                if label == "uniform":
                    query = " ".join(rng.sample(VOCABULARY, terms))
                else:
                    query = sentence(rng, terms)
                t = time.perf_counter()
                await store.search_fts(str(root), query, limit=10)
                times.append(time.perf_counter() - t)
            rows.append(
                (
                    f"search_fts top-10 at {count:,}, {terms} {label} words p50 / p95",
                    f"{statistics.median(times) * 1e3:.2f} / {pct(times, 0.95) * 1e3:.2f} ms",
                )
            )
    finally:
        await store.close()
    return rows


def bench_fts_sync(root: Path, count: int) -> list[tuple[str, str]]:
    """Raw SQLite: FTS kept in step by a trigger vs by explicit inserts, same rows."""
    rng = random.Random(3)
    data = [(f"mem_{i}", f"key_{i}", sentence(rng, 20)) for i in range(count)]
    rows: list[tuple[str, str]] = []
    for mode in ("none", "trigger", "explicit"):
        path = root / f"fts_{mode}.db"
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("CREATE TABLE m (id TEXT PRIMARY KEY, key TEXT, content TEXT)")
        conn.execute(
            f"CREATE VIRTUAL TABLE f USING fts5(key, content, tokenize = '{FTS_TOKENIZER}')"
        )
        if mode == "trigger":
            conn.execute(
                "CREATE TRIGGER m_ai AFTER INSERT ON m BEGIN "
                "INSERT INTO f(rowid, key, content) VALUES (new.rowid, new.key, new.content); END"
            )
        start = time.perf_counter()
        for offset in range(0, count, 500):
            conn.execute("BEGIN")
            chunk = data[offset : offset + 500]
            conn.executemany("INSERT INTO m VALUES (?, ?, ?)", chunk)
            if mode == "explicit":
                conn.executemany(
                    "INSERT INTO f(key, content) VALUES (?, ?)", [(k, c) for _, k, c in chunk]
                )
            conn.execute("COMMIT")
        elapsed = time.perf_counter() - start
        conn.close()
        rows.append(
            (f"raw insert {count:,} rows, FTS sync = {mode}", f"{count / elapsed:,.0f} rows/s")
        )
    return rows


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--memories", type=int, default=10_000)
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    with tempfile.TemporaryDirectory() as tmp:
        events_root = Path(tmp) / "events"
        memories_root = Path(tmp) / "memories"
        events_root.mkdir()
        memories_root.mkdir()
        rows = await bench_events(events_root, args.events, args.batch)
        rows += await bench_memories(memories_root, args.memories)
        rows += bench_fts_sync(Path(tmp), args.memories)
    width = max(len(name) for name, _ in rows)
    print(f"| {'measure'.ljust(width)} | result |")
    print(f"| {'-' * width} | ------ |")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value} |")


if __name__ == "__main__":
    asyncio.run(main())
