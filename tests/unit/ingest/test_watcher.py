"""Real watchdog observers report new and changed files, including ones in new folders."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from squirrel_ingest.watcher import ChangeQueue, RootWatcher, walk_files
from tests.conftest import PATIENCE_SECONDS

# watchdog warns when a nested tree appears faster than it adds watches; it still reports the
# files (which these tests check), so the warning is expected here.
pytestmark = pytest.mark.filterwarnings("ignore:Callback with id:RuntimeWarning")

DEADLINE_S = PATIENCE_SECONDS


async def _collect_until(queue: ChangeQueue, wanted: Path) -> set[Path]:
    """Drain the queue (expanding folders like the engine does) until `wanted` shows up."""
    seen: set[Path] = set()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE_S
    while wanted not in seen:
        remaining = deadline - loop.time()
        if remaining <= 0:
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(queue.wait(), timeout=remaining)
        for path in queue.take():
            seen.update(walk_files(path) if path.is_dir() else [path])
    return seen


async def _moves_until(queue: ChangeQueue, wanted: Path) -> dict[Path, Path]:
    """Drain the queue until a rename to `wanted` is recorded; every move seen on the way.

    A folder event expanded to its files can show the new name before watchdog hands over the
    move itself, so waiting for the path alone races the move.
    """
    moves: dict[Path, Path] = {}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE_S
    while wanted not in moves.values():
        remaining = deadline - loop.time()
        if remaining <= 0:
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(queue.wait(), timeout=remaining)
        queue.take()
        moves.update(queue.take_moves())
    return moves


@pytest.fixture
async def watched(tmp_path: Path) -> AsyncIterator[tuple[Path, ChangeQueue, RootWatcher]]:
    root = tmp_path / "root"
    root.mkdir()
    queue = ChangeQueue(asyncio.get_running_loop())
    watcher = RootWatcher([root], queue)
    watcher.sync()
    try:
        yield root, queue, watcher
    finally:
        await asyncio.to_thread(watcher.stop)


async def test_file_created_in_a_new_subfolder_is_reported(
    watched: tuple[Path, ChangeQueue, RootWatcher],
) -> None:
    root, queue, _ = watched
    target = root / "project-a" / "session" / "subagents" / "agent-1.jsonl"
    target.parent.mkdir(parents=True)
    target.write_text('{"type":"user"}\n')

    seen = await _collect_until(queue, target)

    assert target in seen


async def test_appended_file_is_reported_again(
    watched: tuple[Path, ChangeQueue, RootWatcher],
) -> None:
    root, queue, _ = watched
    target = root / "a.jsonl"
    target.write_text("one\n")
    assert target in await _collect_until(queue, target)

    with target.open("a") as handle:
        handle.write("two\n")

    assert target in await _collect_until(queue, target)


async def test_file_moved_into_the_root_is_reported(
    watched: tuple[Path, ChangeQueue, RootWatcher], tmp_path: Path
) -> None:
    root, queue, _ = watched
    outside = tmp_path / "staging.jsonl"
    outside.write_text("x\n")
    target = root / "moved.jsonl"

    outside.rename(target)

    assert target in await _collect_until(queue, target)


async def test_a_rename_in_the_root_is_reported_with_its_old_path(
    watched: tuple[Path, ChangeQueue, RootWatcher],
) -> None:
    root, queue, _ = watched
    old = root / "session.jsonl"
    old.write_text("x\n")
    assert old in await _collect_until(queue, old)
    queue.take_moves()
    new = root / "session-renamed.jsonl"

    old.rename(new)

    assert await _moves_until(queue, new) == {old: new}
    assert queue.take_moves() == {}


async def test_a_file_created_or_deleted_records_no_move(
    watched: tuple[Path, ChangeQueue, RootWatcher],
) -> None:
    root, queue, _ = watched
    doomed = root / "doomed.jsonl"
    doomed.write_text("x\n")
    assert doomed in await _collect_until(queue, doomed)
    doomed.unlink()
    other = root / "other.jsonl"
    other.write_text("y\n")  # may take the deleted file's inode: still no rename

    assert other in await _collect_until(queue, other)
    assert queue.take_moves() == {}


async def test_root_created_after_start_is_watched_after_sync(tmp_path: Path) -> None:
    root = tmp_path / "later"
    queue = ChangeQueue(asyncio.get_running_loop())
    watcher = RootWatcher([root], queue)
    try:
        assert watcher.sync() == []
        root.mkdir()
        assert watcher.sync() == [root]
        assert watcher.sync() == []
        target = root / "new.jsonl"
        target.write_text("x\n")

        assert target in await _collect_until(queue, target)
        assert watcher.watched == frozenset({root})
    finally:
        await asyncio.to_thread(watcher.stop)


async def test_changes_from_threads_are_coalesced_per_path(tmp_path: Path) -> None:
    queue = ChangeQueue(asyncio.get_running_loop())
    a, b = tmp_path / "a", tmp_path / "b"

    def hammer() -> None:
        for _ in range(500):
            queue.put_threadsafe(a)
            queue.put_threadsafe(b)

    threads = [threading.Thread(target=hammer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    await asyncio.wait_for(queue.wait(), timeout=DEADLINE_S)

    assert queue.take() == {a, b}
    assert queue.take() == set()


def test_walk_lists_nested_files_without_following_folder_links(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f.jsonl").write_text("")
    (tmp_path / "top.jsonl").write_text("")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "hidden.jsonl").write_text("")
    (tmp_path / "link").symlink_to(outside, target_is_directory=True)

    found = set(walk_files(tmp_path))

    assert found == {tmp_path / "a" / "b" / "f.jsonl", tmp_path / "top.jsonl"}


def test_walk_of_a_missing_root_finds_nothing(tmp_path: Path) -> None:
    assert list(walk_files(tmp_path / "absent")) == []


async def test_a_sync_after_stop_starts_no_observer(tmp_path: Path) -> None:
    """A rescan's sync still running in its thread when the service stops must not start
    observers nobody will stop (the engine's stop cancels the task, not the thread)."""
    root = tmp_path / "root"
    root.mkdir()
    watcher = RootWatcher([root], ChangeQueue(asyncio.get_running_loop()))
    before = set(threading.enumerate())
    await asyncio.to_thread(watcher.stop)
    assert await asyncio.to_thread(watcher.sync) == []
    assert watcher.watched == frozenset()
    assert _new_threads(before) == []


async def test_a_stop_waits_for_a_sync_in_progress_and_stops_what_it_started(
    tmp_path: Path,
) -> None:
    roots = [tmp_path / f"root-{n}" for n in range(3)]
    for root in roots:
        root.mkdir()
    watcher = RootWatcher(roots, ChangeQueue(asyncio.get_running_loop()))
    before = set(threading.enumerate())
    syncing = asyncio.create_task(asyncio.to_thread(watcher.sync))
    await asyncio.to_thread(watcher.stop)
    started = await syncing
    assert watcher.watched == frozenset()
    assert _new_threads(before) == [], started


def _new_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    """Live threads started since `before`, not counting the loop's executor workers."""
    return [
        t
        for t in threading.enumerate()
        if t not in before and t.is_alive() and not t.name.startswith("asyncio_")
    ]
