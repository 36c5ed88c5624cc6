"""File watching: one watchdog observer per root, changes coalesced per path onto the event loop."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

import structlog
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

log = structlog.get_logger()

_RELEVANT = frozenset({"created", "modified", "moved", "closed", "deleted"})


class ChangeQueue:
    """A set of changed paths filled from any thread and drained on the asyncio loop.

    Repeated changes to one path between two drains count once. Watchdog threads call
    `put_threadsafe`, which wakes the loop with `call_soon_threadsafe` at most once per drain.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._lock = threading.Lock()
        self._paths: set[Path] = set()
        self._moves: dict[Path, Path] = {}
        self._wake_scheduled = False
        self._ready = asyncio.Event()

    def put_threadsafe(self, path: Path, moved_from: Path | None = None) -> None:
        """Record a change from a non-loop thread (`moved_from`: the path it was renamed from)."""
        with self._lock:
            self._paths.add(path)
            if moved_from is not None:
                self._moves[moved_from] = path
            if self._wake_scheduled:
                return
            self._wake_scheduled = True
        try:
            self._loop.call_soon_threadsafe(self._wake)
        except RuntimeError:  # the loop is closed: the process is shutting down
            return

    def put(self, path: Path) -> None:
        """Record a change from the loop thread."""
        with self._lock:
            self._paths.add(path)
        self._ready.set()

    def __len__(self) -> int:
        with self._lock:
            return len(self._paths)

    async def wait(self) -> None:
        """Return once at least one change is waiting."""
        await self._ready.wait()

    def take(self) -> set[Path]:
        """Every path recorded since the last take."""
        with self._lock:
            paths, self._paths = self._paths, set()
            self._ready.clear()
        return paths

    def take_moves(self) -> dict[Path, Path]:
        """Every rename recorded since the last call: old path to new (files and folders)."""
        with self._lock:
            moves, self._moves = self._moves, {}
        return moves

    def _wake(self) -> None:
        with self._lock:
            self._wake_scheduled = False
        self._ready.set()


class _Handler(FileSystemEventHandler):
    """Forwards created/modified/moved/closed/deleted paths (files and folders) to a queue."""

    def __init__(self, queue: ChangeQueue) -> None:
        self._queue = queue

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in _RELEVANT:
            return
        moved = event.event_type == "moved"
        target = event.dest_path if moved else event.src_path
        if target:
            source = Path(os.fsdecode(event.src_path)) if moved and event.src_path else None
            self._queue.put_threadsafe(Path(os.fsdecode(target)), moved_from=source)


class RootWatcher:
    """One watchdog observer per root; roots that do not exist yet are picked up by `sync()`.

    `sync()` is cheap and idempotent: the periodic rescan calls it so that a root created after
    start (or recreated after deletion) gets an observer, and dead observers are replaced. Once
    `stop()` has begun, `sync()` starts nothing: a sync still running in its thread when the
    service stops (cancelling the task that awaits a thread does not stop the thread) would
    otherwise start observers nobody stops.
    """

    def __init__(self, roots: Iterable[Path], queue: ChangeQueue) -> None:
        self._roots = tuple(dict.fromkeys(roots))
        self._queue = queue
        self._observers: dict[Path, BaseObserver] = {}
        self._handler = _Handler(queue)
        self._lock = threading.Lock()
        self._stopped = False

    @property
    def watched(self) -> frozenset[Path]:
        """Roots with a live observer."""
        return frozenset(root for root, obs in self._observers.items() if obs.is_alive())

    def sync(self) -> list[Path]:
        """Start observers for roots that exist and have none; returns the newly watched roots
        (none once `stop()` has begun)."""
        with self._lock:
            return [] if self._stopped else self._sync()

    def _sync(self) -> list[Path]:
        started: list[Path] = []
        for root in self._roots:
            current = self._observers.get(root)
            if current is not None and current.is_alive() and root.is_dir():
                continue
            if current is not None:
                _stop_quietly(current)
                del self._observers[root]
            if not root.is_dir():
                continue
            observer = Observer()
            try:
                observer.schedule(self._handler, str(root), recursive=True)
                observer.start()
            except OSError as error:  # inotify limits, permissions, a root removed meanwhile
                log.warning("watch_failed", error_type=type(error).__name__)
                continue
            self._observers[root] = observer
            started.append(root)
            log.info("watch_started", roots=len(self._observers))
        return started

    def stop(self) -> None:
        """Stop every observer and wait for its thread (call off the event loop); a sync in
        progress finishes first, and later ones start nothing."""
        with self._lock:
            self._stopped = True
            observers, self._observers = list(self._observers.values()), {}
        for observer in observers:
            observer.stop()
        for observer in observers:
            observer.join(timeout=5)


def _stop_quietly(observer: BaseObserver) -> None:
    try:
        observer.stop()
    except (OSError, RuntimeError):  # an observer that died on its own
        return


def walk_files(root: Path) -> Iterator[Path]:
    """Every regular file under `root` (symlinked folders are not followed, a link to a file is
    left out: it may point outside the folder); errors are skipped."""
    if root.is_file():
        yield root
        return
    for folder, _dirs, files in os.walk(root, onerror=None, followlinks=False):
        base = Path(folder)
        for name in files:
            if not (base / name).is_symlink():
                yield base / name
