"""The vector index follows memory changes, survives restarts, and is rebuilt when corrupt."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import faiss
import pytest
from structlog.testing import capture_logs

from squirrel_memory.embedding.base import Vectors
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.indexer import ProjectIndexes, hold_seconds, index_path, read_deadline
from squirrel_memory.models import MemoryType, Scope
from squirrel_memory.storage import SqliteStore
from tests.conftest import PATIENCE_SECONDS


async def _remember(store: SqliteStore, key: str, content: str) -> str:
    item = await store.remember(
        store.project_id,
        type=MemoryType.PROJECT_FACT,
        key=key,
        content=content,
        tags=[],
        importance=0.8,
        scope=Scope.PROJECT,
        user_id="u",
    )
    return item.id


async def _until(predicate: object, timeout: float = PATIENCE_SECONDS) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        if predicate():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    pytest.fail("condition not met")


async def test_changes_reach_the_index_and_deletes_leave_it(store: SqliteStore) -> None:
    indexes = ProjectIndexes(FakeEmbedder(), save_delay=0.01)
    index = await indexes.attach(store)
    kept = await _remember(store, "framework", "Uses FastAPI")
    dropped = await _remember(store, "database", "Uses PostgreSQL")
    await _until(lambda: {kept, dropped} <= index.memory_ids())
    await store.forget(dropped, "wrong")
    await _until(lambda: dropped not in index.memory_ids())
    assert kept in index.memory_ids()
    await indexes.close()
    assert index_path(store.project_id).exists()


async def test_restart_syncs_memories_added_while_the_index_was_not_saved(
    store: SqliteStore,
) -> None:
    first = await _remember(store, "framework", "Uses FastAPI")
    indexes = ProjectIndexes(FakeEmbedder(), save_delay=0.01)
    index = await indexes.attach(store)
    await _until(lambda: first in index.memory_ids())
    await indexes.close()
    # Written while no index was following (e.g. the service crashed before saving).
    second = await _remember(store, "database", "Uses PostgreSQL")
    again = ProjectIndexes(FakeEmbedder(), save_delay=0.01)
    reopened = await again.attach(store)
    await _until(lambda: {first, second} <= reopened.memory_ids())
    await again.close()


async def test_a_corrupt_index_file_is_rebuilt_from_sqlite(store: SqliteStore) -> None:
    memory_id = await _remember(store, "framework", "Uses FastAPI")
    indexes = ProjectIndexes(FakeEmbedder(), save_delay=0.01)
    await indexes.rebuild(store)
    await indexes.close()
    index_path(store.project_id).write_bytes(b"not a faiss index")
    again = ProjectIndexes(FakeEmbedder(), save_delay=0.01)
    index = await again.attach(store)
    await _until(lambda: memory_id in index.memory_ids())
    await again.close()


async def test_while_the_model_loads_changes_wait_for_the_sync(store: SqliteStore) -> None:
    embedder = FakeEmbedder(loaded=False)
    indexes = ProjectIndexes(embedder, save_delay=0.01)
    index = await indexes.attach(store)
    memory_id = await _remember(store, "framework", "Uses FastAPI")
    await asyncio.sleep(0.05)
    assert memory_id not in index.memory_ids()
    embedder.finish_loading()
    await _until(lambda: memory_id in index.memory_ids())
    await indexes.close()


@pytest.mark.parametrize("same_size", [True, False])
async def test_a_crafted_index_file_is_rebuilt_without_faiss_ever_parsing_it(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch, same_size: bool
) -> None:
    memory_id = await _remember(store, "framework", "Uses FastAPI")
    indexes = ProjectIndexes(FakeEmbedder(), save_delay=0.01)
    await indexes.rebuild(store)
    await indexes.close()
    path = index_path(store.project_id)
    size = path.stat().st_size
    # A valid-looking header with absurd sizes, padded to the recorded size or not.
    crafted = b"IxM2" + (2**62).to_bytes(8, "little") * 4
    path.write_bytes(crafted.ljust(size, b"\xff") if same_size else crafted)
    parsed: list[int] = []
    real = faiss.deserialize_index

    def watched(blob: object) -> object:
        parsed.append(1)
        return real(blob)

    monkeypatch.setattr(faiss, "deserialize_index", watched)
    monkeypatch.setattr(faiss, "read_index", watched)
    again = ProjectIndexes(FakeEmbedder(), save_delay=0.01)
    index = await again.attach(store)
    await _until(lambda: memory_id in index.memory_ids())
    await again.close()
    assert parsed == []
    assert path.stat().st_size != len(crafted)


async def test_writes_do_not_wait_for_the_model_and_what_was_queued_survives_a_stop(
    store: SqliteStore,
) -> None:
    calls: list[int] = []
    embedding = asyncio.Event()
    embedding.set()

    class Counting(FakeEmbedder):
        async def embed(self, texts: Sequence[str]) -> Vectors:
            await embedding.wait()
            calls.append(len(texts))
            return await super().embed(texts)

    indexes = ProjectIndexes(Counting(), save_delay=0.01)
    index = await indexes.attach(store)
    await _until(lambda: indexes.pending(store.project_id) == 0)
    embedding.clear()  # the model is busy: no embedding ends until it is set again
    written = [
        await _remember(store, f"k{n}", f"Fact number {n} about the build") for n in range(150)
    ]
    # Every write returned while no embedding could end: they are queued, and embedded later.
    assert indexes.pending(store.project_id) > 0
    embedding.set()
    await _until(lambda: set(written) <= index.memory_ids())
    # Ids are in the index as each batch lands; the queue's count drops when its batch is done.
    await _until(lambda: indexes.pending(store.project_id) == 0)
    assert sum(calls) >= len(written)
    # Stopped with work queued (as a crash would leave it): the next start's sync embeds it.
    more = [await _remember(store, f"m{n}", f"Another fact {n} about tests") for n in range(100)]
    await indexes.close()
    again = ProjectIndexes(FakeEmbedder(), save_delay=0.01)
    reopened = await again.attach(store)
    await _until(lambda: set(written + more) <= reopened.memory_ids())
    await again.close()


async def test_a_read_waits_for_the_model_the_sync_and_the_writes_before_it(
    store: SqliteStore,
) -> None:
    embedder = FakeEmbedder(loaded=False)
    indexes = ProjectIndexes(embedder, save_delay=0.01)
    index = await indexes.attach(store)
    first = await _remember(store, "framework", "Uses FastAPI")  # before the model loads
    waiting = asyncio.create_task(indexes.caught_up(store.project_id, timeout=PATIENCE_SECONDS))
    await asyncio.sleep(0.05)
    assert not waiting.done()  # the model is loading: the sync is still to come
    embedder.finish_loading()
    assert await waiting
    assert first in index.memory_ids()
    second = await _remember(store, "database", "Uses PostgreSQL")  # queued behind the write
    assert await indexes.caught_up(store.project_id)
    assert second in index.memory_ids()
    assert indexes.pending(store.project_id) == 0
    await indexes.close()


async def test_a_read_does_not_wait_for_a_backlog_a_failed_model_or_forever(
    store: SqliteStore,
) -> None:
    embedder = FakeEmbedder(loaded=False)
    indexes = ProjectIndexes(embedder, save_delay=0.01)
    await indexes.attach(store)
    assert not await indexes.caught_up(store.project_id, timeout=0.05)  # time ran out
    for n in range(3):
        await _remember(store, f"fact{n}", f"Fact number {n}")
    embedder.finish_loading()
    assert await indexes.caught_up(store.project_id, timeout=PATIENCE_SECONDS)
    # A backlog larger than a read may wait for is answered at once.
    indexes._pending[store.project_id] = dict.fromkeys(f"m{n}" for n in range(10))
    assert not await indexes.caught_up(store.project_id, max_pending=5)
    indexes._pending[store.project_id].clear()
    await indexes.close()

    broken = FakeEmbedder(loaded=False)
    broken.fail_loading(RuntimeError("no model"))
    others = ProjectIndexes(broken, save_delay=0.01)
    await others.attach(store)
    # A read answers at once while the sync gives up on the model that failed to load (a fixed
    # pause here lost that race on a loaded machine); from then on nothing is left to wait for.
    deadline = asyncio.get_running_loop().time() + PATIENCE_SECONDS
    while not await others.caught_up(store.project_id, timeout=PATIENCE_SECONDS):
        assert asyncio.get_running_loop().time() < deadline, "the sync never gave up"
        await asyncio.sleep(0.01)
    await others.close()


async def test_a_read_whose_caller_cannot_spare_the_wait_answers_at_once_and_says_so(
    store: SqliteStore,
) -> None:
    """A hook has a second for its whole answer: while the model loads (tens of seconds after
    a start on a loaded machine) its reads are answered from what the index holds, without a
    wait that could only end in a timeout. A caller with time to spare still waits."""
    embedder = FakeEmbedder(loaded=False)
    indexes = ProjectIndexes(embedder, save_delay=0.01)
    await indexes.attach(store)
    project = store.project_id
    with read_deadline(0.0):  # no time left
        assert not await indexes.caught_up(project, timeout=PATIENCE_SECONDS)
    with capture_logs() as logs, read_deadline(1.0):  # half a second to spare, a 1.5 s wait
        read = asyncio.create_task(indexes.caught_up(project))
        await asyncio.sleep(0)  # the read's first step: it either waits or has answered
        embedder.finish_loading()  # a read still waiting would now see the index catch up
        assert not await read
    skipped = [e for e in logs if e["event"] == "vector_index_catch_up_skipped"]
    assert [e["model_loading"] for e in skipped] == [True]
    assert not [e for e in logs if e["event"] == "vector_index_catch_up_timeout"]
    # Must not fire for a caller that can spare the wait: it waits, and sees the index caught up.
    second = await _remember(store, "database", "Uses PostgreSQL")
    with capture_logs() as logs, read_deadline(4 * PATIENCE_SECONDS):
        assert await indexes.caught_up(project, timeout=PATIENCE_SECONDS)
    assert second in indexes.get(project).memory_ids()  # type: ignore[union-attr]
    assert not [e for e in logs if e["event"] == "vector_index_catch_up_skipped"]
    await indexes.close()


def test_the_hold_ends_after_a_quiet_period_and_never_beyond_its_cap() -> None:
    def wait(now: float, last_change: float) -> float:
        return hold_seconds(now, started=0.0, last_change=last_change, quiet=0.1, max_hold=1.0)

    assert wait(0.0, 0.0) == pytest.approx(0.1)  # a single write: embedded after the quiet
    assert wait(0.05, 0.04) == pytest.approx(0.09)  # each change restarts the quiet period
    assert wait(0.2, 0.04) == 0.0  # the burst ended
    # A steady stream (a change every 10 ms on a fake clock) is held at most `max_hold`.
    now, held = 0.0, 0.0
    while (left := wait(now, now)) > 0:
        held, now = now, now + min(left, 0.01)
    assert held < 1.0 <= now
    assert wait(1.0, 1.0) == 0.0
    assert wait(5.0, 4.99) == 0.0


async def test_a_burst_is_held_and_embedded_at_once_when_a_read_waits(store: SqliteStore) -> None:
    calls: list[int] = []

    class Counting(FakeEmbedder):
        async def embed(self, texts: Sequence[str]) -> Vectors:
            calls.append(len(texts))
            return await super().embed(texts)

    # Holds an hour unless a read asks: nothing but the read can end this hold.
    indexes = ProjectIndexes(Counting(), save_delay=0.01, quiet=3600.0, max_hold=3600.0)
    index = await indexes.attach(store)
    assert await indexes.caught_up(store.project_id, timeout=30.0)  # the start's sync
    calls.clear()
    written = [
        await _remember(store, f"k{n}", f"Fact number {n} about the build") for n in range(5)
    ]
    for _ in range(20):
        await asyncio.sleep(0)
    assert calls == []
    assert indexes.pending(store.project_id) == len(written)
    assert not set(written) & index.memory_ids()
    assert await indexes.caught_up(store.project_id, timeout=30.0)
    assert set(written) <= index.memory_ids()
    assert calls == [len(written)]  # the held burst went to the model as one batch
    assert indexes.pending(store.project_id) == 0
    # A close ends a hold too; what was held is embedded by the sync on the next start.
    more = await _remember(store, "later", "Another fact about tests")
    await asyncio.wait_for(indexes.close(), 30.0)
    assert more not in index.memory_ids()
    again = ProjectIndexes(FakeEmbedder(), save_delay=0.01)
    reopened = await again.attach(store)
    await _until(lambda: more in reopened.memory_ids())
    await again.close()


@pytest.mark.parametrize(("quiet", "max_hold"), [(0.01, 3600.0), (3600.0, 0.01)])
async def test_a_hold_ends_by_itself_after_quiet_or_at_its_cap(
    store: SqliteStore, quiet: float, max_hold: float
) -> None:
    indexes = ProjectIndexes(FakeEmbedder(), save_delay=0.01, quiet=quiet, max_hold=max_hold)
    index = await indexes.attach(store)
    written = [
        await _remember(store, f"k{n}", f"Fact number {n} about the build") for n in range(3)
    ]
    # No read asks for them. The start's own sync may put them in the index before the held
    # changes are handled, so the hold's end is the pending count falling to zero.
    await _until(
        lambda: set(written) <= index.memory_ids() and indexes.pending(store.project_id) == 0
    )
    await indexes.close()


async def test_a_stop_in_the_middle_of_a_sync_still_saves_what_the_sync_changed(
    store: SqliteStore,
) -> None:
    """The start-up sync embeds in batches; a stop after one batch went in (the next still
    embedding) must save the changed index, not leave the file as it was before the sync."""
    ids = [await _remember(store, f"fact-{n}", f"Fact number {n}") for n in range(70)]
    calls: list[int] = []
    blocked = asyncio.Event()

    class SecondBatchHangs(FakeEmbedder):
        async def embed(self, texts: Sequence[str]) -> Vectors:
            calls.append(len(texts))
            if len(calls) > 1:
                blocked.set()
                await asyncio.Event().wait()  # never ends: only the stop ends it
            return await super().embed(texts)

    path = index_path(store.project_id)
    assert not path.exists()
    indexes = ProjectIndexes(SecondBatchHangs(), save_delay=3600)
    index = await indexes.attach(store)
    await asyncio.wait_for(blocked.wait(), PATIENCE_SECONDS)
    assert len(index.memory_ids() & set(ids)) == 64  # the first batch is in, the second waits
    await indexes.close()
    assert path.exists()
    reopened, problem = store.open_vector_index(FakeEmbedder().dim, FakeEmbedder().model_id)
    assert problem is None
    assert len(reopened.memory_ids() & set(ids)) == 64
