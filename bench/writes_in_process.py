"""The writes bench's in-process part (`bench.writes`, no gRPC, no embedding): manual statements
through `manual.remember_many` in calls of `--batch` and one by one, extraction's write path
(`Processor.write_candidates`) with and without a manual memory in the project, a repository
sync (a first reading, then every fact changed), and the home's change mark rewritten on the
event loop for each change against `ChangeMarks`."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.common import Figure, percentile
from squirrel_core.start_texts import mark_changed
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    Scope,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.repository.sync import sync_repository_memories
from squirrel_memory.repository.wording import KEY_PREFIX
from squirrel_memory.storage import SqliteStore, Store
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.manual import Remembered, Statement, remember, remember_many
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views.change_marks import ChangeMarks

SECTION = "writes"
USER = "bench"
#: Candidates per extraction pass (a busy session's pass finds tens to a few hundred).
EXTRACTION_PASS = 200


async def remember_in_process(texts: Sequence[str], batch: int) -> float:
    """Memories/s written by `manual.remember_many` in calls of `batch`, each under its own key,
    into a fresh SQLite store in this process."""
    statements = [
        Statement(USER, MemoryType.PROJECT_FACT, f"s-{n:05d}", text, (), 0.5, Scope.PROJECT)
        for n, text in enumerate(texts)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        store = await SqliteStore.open(str(root.resolve()))
        try:
            started = time.perf_counter()
            for start in range(0, len(statements), batch):
                done = await remember_many(
                    store, store.project_id, statements[start : start + batch]
                )
                if any(not isinstance(d, Remembered) for d in done):
                    raise RuntimeError("remember_many refused a statement")
            seconds = time.perf_counter() - started
        finally:
            await store.close()
    return len(statements) / seconds


async def extraction_writes(texts: Sequence[str], per_pass: int, manual: bool) -> float:
    """Memories/s written by extraction's write path for `texts` as project facts."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        store = await SqliteStore.open(str(root.resolve()))
        users = await SqliteUserStore.open(Path(tmp) / "home")
        try:

            async def stores() -> list[Store]:
                return [store]

            async def decide(
                candidate: MemoryCandidate, existing: list[MemoryItem]
            ) -> UpdateDecision:
                return decide_update(candidate, existing)

            processor = Processor(stores, users, RulesExtractor(), decide, user_id=USER)
            if manual:
                await remember(
                    store,
                    store.project_id,
                    user_id=USER,
                    memory_type=MemoryType.PROJECT_FACT,
                    key="",
                    content="Releases are tagged from the main branch.",
                    tags=[],
                    importance=0.8,
                    scope=Scope.PROJECT,
                )
            candidates = [
                MemoryCandidate(MemoryType.PROJECT_FACT, f"turn:{n:05d}", text, (), 0.5)
                for n, text in enumerate(texts)
            ]
            started = time.perf_counter()
            added = 0
            for start in range(0, len(candidates), per_pass):
                report = await processor.write_candidates(
                    store, candidates[start : start + per_pass]
                )
                added += report.memories_added
            seconds = time.perf_counter() - started
        finally:
            await users.close()
            await store.close()
    return added / seconds


async def repository_writes(texts: Sequence[str]) -> tuple[float, float]:
    """Memories/s written by a repository sync (`sync_repository_memories`) of `texts` as
    facts read from a repository: the first reading (every fact added), then a second one
    where every fact changed (every fact updated, the previous version kept in history)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        store = await SqliteStore.open(str(root.resolve()))
        try:
            rates: list[float] = []
            for reading, suffix in enumerate(("", " (changed)")):
                candidates = [
                    MemoryCandidate(
                        MemoryType.PROJECT_FACT,
                        f"{KEY_PREFIX}fact:{n:05d}",
                        text + suffix,
                        (),
                        0.5,
                        source_refs=(f"docs/notes.md:{n + 1}",),
                    )
                    for n, text in enumerate(texts)
                ]
                started = time.perf_counter()
                report = await sync_repository_memories(
                    store, candidates, user_id=USER, head=f"{reading:040d}"
                )
                seconds = time.perf_counter() - started
                if report.added + report.updated != len(texts):
                    raise RuntimeError(f"the sync wrote {report}")
                rates.append(len(texts) / seconds)
        finally:
            await store.close()
    return rates[0], rates[1]


async def mark_costs(changes: int) -> list[Figure]:
    """The home's change mark after `changes` committed changes a few milliseconds apart, two
    ways, in this process: rewritten on the event loop with an fsync for each change (the
    memory service before `ChangeMarks`), and through `ChangeMarks` (off the loop, no fsync, at
    most once per `MARK_INTERVAL_SECONDS`). Times the event loop is held per change."""
    spacing = 0.002
    held: dict[str, list[float]] = {"each change, fsync'd, on the loop": [], "ChangeMarks": []}
    writes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        run.mkdir()
        way = "each change, fsync'd, on the loop"
        for _ in range(changes):
            t0 = time.perf_counter()
            mark_changed(run, sync=True)
            held[way].append(1e6 * (time.perf_counter() - t0))
            await asyncio.sleep(spacing)
        writes[way] = changes
        marks = ChangeMarks(run)
        for _ in range(changes):
            t0 = time.perf_counter()
            marks.changed()
            held["ChangeMarks"].append(1e6 * (time.perf_counter() - t0))
            await asyncio.sleep(spacing)
        await marks.close()
        writes["ChangeMarks"] = marks.writes
    note = f"{changes} changes {spacing * 1000:.0f} ms apart, in-process"
    figures: list[Figure] = []
    for way, times in held.items():
        figures.append(
            Figure(
                SECTION, f"change mark, {way}: loop held p50", statistics.median(times), "µs", note
            )
        )
        figures.append(
            Figure(SECTION, f"change mark, {way}: loop held p95", percentile(times, 95), "µs", note)
        )
        figures.append(Figure(SECTION, f"change mark, {way}: rewrites", writes[way], "files", note))
    return figures


async def in_process_figures(texts: Sequence[str], single: int, batch: int) -> list[Figure]:
    """The in-process rows of the writes table, measured in its order: `remember_many` in
    calls of `batch` and the first `single` texts one per call, extraction's writes without
    and with a manual memory, a repository sync's two readings, then the change marks."""
    in_process = await remember_in_process(texts, batch)
    in_process_one = await remember_in_process(texts[:single], 1)
    extracted = await extraction_writes(texts, EXTRACTION_PASS, manual=False)
    extracted_manual = await extraction_writes(texts, EXTRACTION_PASS, manual=True)
    repository_added, repository_updated = await repository_writes(texts)
    extraction_note = f"{len(texts)} turns as candidates, {EXTRACTION_PASS} per pass, in-process"
    return [
        Figure(
            SECTION,
            "remember_many in-process, SQLite store",
            in_process,
            "memories/s",
            f"{len(texts)} turns, calls of {batch}, no gRPC, no embedding",
        ),
        Figure(
            SECTION,
            "remember in-process, one statement per call",
            in_process_one,
            "memories/s",
            f"{single} turns, no gRPC, no embedding",
        ),
        Figure(SECTION, "extraction writes", extracted, "memories/s", extraction_note),
        Figure(
            SECTION,
            "extraction writes, a manual memory present",
            extracted_manual,
            "memories/s",
            extraction_note + "; each candidate also checked against manual look-alikes",
        ),
        Figure(
            SECTION,
            "repository sync writes, first reading",
            repository_added,
            "memories/s",
            f"{len(texts)} turns as facts read from a repository, every one added, in-process",
        ),
        Figure(
            SECTION,
            "repository sync writes, every fact changed",
            repository_updated,
            "memories/s",
            f"the same {len(texts)} facts read again, each updated (history kept)",
        ),
        *await mark_costs(200),
    ]
