"""The ingest engine: find transcripts, read new lines, parse, redact, route, batch, deliver."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path

import structlog

from squirrel_core.events import SourceTool
from squirrel_core.kept_text import signed
from squirrel_ingest.batcher import Batcher
from squirrel_ingest.cursor.reader import CursorReader
from squirrel_ingest.delivery import Sink
from squirrel_ingest.discovery import expand, walk_roots, watched_roots
from squirrel_ingest.engine_settings import EngineSettings
from squirrel_ingest.file_table import FileTable
from squirrel_ingest.floors import (
    cursor_floors,
    delivered_by_cursors,
    forget_file,
    wanted,
)
from squirrel_ingest.git_intake import GitIntake
from squirrel_ingest.git_poller import GitPoller
from squirrel_ingest.outbox import Outbox
from squirrel_ingest.reading import (
    ParserFactory,
    ReadLimits,
    ReadPass,
    TrackedFile,
    read_cursor,
    read_pass,
    read_unchanged,
    stat_key,
)
from squirrel_ingest.routing import ProjectRouter, relocate
from squirrel_ingest.status import IngestStatus, ScanProgress, WatchedRoot
from squirrel_ingest.tally import Tally
from squirrel_ingest.watcher import ChangeQueue, RootWatcher

log = structlog.get_logger()


_CAUGHT_UP_GROUP = 64
"""Files a backlog import checks and reads in one worker hop when unchanged since their end."""


class IngestEngine:
    """Reads every transcript under the roots and delivers each event exactly once per project.

    Read positions are per file; each project's delivered position for a file travels with its
    events to the sink, which commits both together. A file resumes at the lowest position any
    registered project has for it, and an event is given to a project only past that project's
    own position, so a crash between two projects' deliveries, or a project registered later,
    neither loses nor repeats events.
    """

    def __init__(
        self,
        roots: Mapping[SourceTool, Sequence[Path]],
        projects: ProjectRouter,
        sink: Sink,
        parser_factory: ParserFactory,
        settings: EngineSettings | None = None,
        *,
        git_poller: GitPoller | None = None,
        cursor_reader: CursorReader | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._roots = {source: tuple(Path(p) for p in paths) for source, paths in roots.items()}
        self._router = projects
        self._sink = sink
        self._factory = parser_factory
        self._settings = settings or EngineSettings()
        self._limits = ReadLimits(
            max_line_bytes=self._settings.max_line_bytes,
            read_chunk_bytes=self._settings.read_chunk_bytes,
            max_read_bytes=self._settings.max_read_bytes,
            max_document_bytes=self._settings.max_document_bytes,
        )
        self._cursor = cursor_reader
        self._next_cursor = 0.0
        self._clock = clock
        self._read_lock = asyncio.Lock()
        self._stopping = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._queue: ChangeQueue | None = None
        self._watcher: RootWatcher | None = None
        self._tally = Tally()
        batcher = Batcher(
            max_batch_events=self._settings.batch_events,
            max_age_s=self._settings.batch_age_s,
            max_buffered_events=self._settings.buffer_events,
            clock=clock,
        )
        self._out = Outbox(
            sink,
            projects,
            batcher,
            self._settings.backoff,
            tally=self._tally,
            stopping=self._stopping,
            flusher_running=lambda: bool(self._tasks),
        )
        self._table = FileTable(self._roots, parser_factory, self._out, projects, self._tally)
        self._git = (
            GitIntake(git_poller, projects, self._out, self._tally)
            if git_poller is not None
            else None
        )

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Load the stored cursors, then watch the roots and deliver in the background."""
        if self._tasks:
            return
        self._stopping.clear()
        loop = asyncio.get_running_loop()
        self._queue = ChangeQueue(loop)
        self._watcher = RootWatcher([r for rs in self._roots.values() for r in rs], self._queue)
        self._tasks = [
            asyncio.create_task(self._run_reader(), name="ingest-reader"),
            asyncio.create_task(self._out.run_flusher(), name="ingest-flusher"),
        ]
        log.info("ingest_started", roots=sum(len(r) for r in self._roots.values()))

    async def stop(self, flush_timeout_s: float = 5.0) -> None:
        """Stop reading, try a last flush for up to `flush_timeout_s`, then stop everything.

        Lines read but not delivered are simply read again on the next start.
        """
        if not self._tasks:
            return
        reader, *others = self._tasks
        await _cancel(reader)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.flush(), timeout=flush_timeout_s)
        self._stopping.set()
        self._out.release()
        tasks, self._tasks = others, []
        for task in tasks:
            await _cancel(task)
        if self._watcher is not None:
            await asyncio.to_thread(self._watcher.stop)
        log.info("ingest_stopped", buffered=self._out.batcher.buffered_events)

    async def scan_once(
        self,
        sources: Collection[SourceTool] | None = None,
        on_progress: Callable[[ScanProgress], None] | None = None,
    ) -> ScanProgress:
        """Read every file under the roots (of `sources`, default all) to its end, poll git,
        and deliver it all: the backlog import, also the `Rescan` RPC.

        `on_progress` is called after each file and once more, with `done`, after delivery.
        """
        await self._out.ensure_floors()
        wanted = set(sources) if sources else set(self._roots) | {SourceTool.GIT, SourceTool.CURSOR}
        paths = await asyncio.to_thread(walk_roots, self._roots, wanted)
        baseline = self._tally.totals()

        def progress(files_done: int, *, done: bool = False) -> ScanProgress:
            return self._tally.progress(baseline, len(paths), files_done, done=done)

        for start in range(0, len(paths), _CAUGHT_UP_GROUP):
            group = paths[start : start + _CAUGHT_UP_GROUP]
            finished = await self._read_caught_up(group)
            for done_count, path in enumerate(group, start=start + 1):
                if path not in finished:
                    await self._read_paths([path], force=True)
                if on_progress is not None:
                    on_progress(progress(done_count))
        if self._git is not None and SourceTool.GIT in wanted:
            await self._git.poll()
        if self._cursor is not None and SourceTool.CURSOR in wanted:
            await self._poll_cursor(rescan=True)
        await self.flush()
        final = progress(len(paths), done=True)
        if on_progress is not None:
            on_progress(final)
        return final

    async def read_now(self, path: Path) -> int:
        """Reads one transcript to its end and delivers what it held (a host said its session
        ended). Only a file under a watched root is read; returns the events it produced."""
        if not path.is_absolute():
            return 0
        clean = Path(os.path.normpath(path))  # noqa: ASYNC240 - lexical only: no `..` escapes
        if self._table.source_of(clean) is None:
            return 0
        before = self._tally.totals()["events"]
        await self._read_paths([clean], force=True)
        await self.flush()
        return self._tally.totals()["events"] - before

    async def update_projects(self, roots: Iterable[str | os.PathLike[str]]) -> None:
        """Use a new set of registered projects; a new project gets every past event once."""
        await self.flush()
        async with self._read_lock:
            before = self._router.project_ids
            await asyncio.to_thread(self._router.replace, list(roots))
            added = self._router.project_ids - before
            if not added:
                return
            await self._out.add_projects(added)
            for tracked in self._table.files.values():
                self._table.rewind_for(tracked, added)
            if self._cursor is not None:
                self._cursor.forget()  # the next poll starts each chat at its lowest floor
        if self._queue is not None:
            for path in self._table.files:
                self._queue.put(path)
        log.info("projects_updated", projects=len(self._router.project_ids), added=len(added))

    def status(self) -> IngestStatus:
        """A snapshot of the counters."""
        files_seen = Counter(tracked.source for tracked in self._table.files.values())
        delivered = delivered_by_cursors(self._out.floors, self._router.project_ids)
        if self._cursor is not None:
            files_seen[SourceTool.CURSOR] = self._cursor.chats  # chats, for this source
        tally = self._tally
        return IngestStatus(
            running=bool(self._tasks),
            sources=tally.sources(self._roots, files_seen, delivered),
            buffered_events=self._out.batcher.buffered_events,
            unregistered_projects=dict(self._router.unregistered),
            unregistered_records=self._router.unregistered_records,
            records_without_cwd=self._router.records_without_cwd,
            delivery_failures=tally.counts["delivery_failures"],
            last_delivery_error=tally.last_error,
            last_delivery_at=tally.last_delivery_at,
            files_tracked=len(self._table.files),
            files_missing=tally.counts["files_missing"],
            resets=dict(tally.resets),
            events_already_delivered=tally.counts["already_delivered"],
        )

    def watched_sources(self) -> list[WatchedRoot]:
        """Every configured root, whether it exists, and the transcript files found under it."""
        return watched_roots(self._roots, self._table.files, self._cursor)

    # -- background tasks ------------------------------------------------------------------

    async def _run_reader(self) -> None:
        assert self._queue is not None and self._watcher is not None
        await self._out.ensure_floors()
        next_rescan = 0.0
        next_git = 0.0
        while not self._stopping.is_set():
            try:
                next_rescan, next_git = await self._reader_pass(next_rescan, next_git)
            except Exception as error:  # keep ingesting; the next rescan retries everything
                log.error("reader_pass_failed", error_type=type(error).__name__)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), timeout=1.0)

    async def _reader_pass(self, next_rescan: float, next_git: float) -> tuple[float, float]:
        """One turn of the reader: rescan and poll git when due, then handle watched changes."""
        assert self._queue is not None and self._watcher is not None
        now = self._clock()
        rescan = now >= next_rescan
        if rescan:
            await asyncio.to_thread(self._watcher.sync)
            async with self._read_lock:  # worktrees added or removed since the last look
                await asyncio.to_thread(self._router.refresh)
            found = await asyncio.to_thread(walk_roots, self._roots, set(self._roots))
            vanished = set(self._table.files).difference(found)  # e.g. a folder moved away
            await self._read_paths([*found, *sorted(vanished)], force=False)
            next_rescan = self._clock() + self._settings.rescan_interval_s
        if self._git is not None and now >= next_git:
            await self._git.poll()
            next_git = self._clock() + self._settings.git_poll_interval_s
        if self._cursor is not None and now >= self._next_cursor:
            await self._poll_cursor(rescan=rescan)
            self._next_cursor = self._clock() + self._settings.cursor_poll_interval_s
        due = [next_rescan, next_git if self._git else next_rescan]
        if self._cursor is not None:
            due.append(self._next_cursor)
        wait = min(due) - self._clock()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._queue.wait(), timeout=max(0.0, wait))
        changed = self._queue.take()
        self._table.renamed(self._queue.take_moves())
        if changed:
            expanded = await asyncio.to_thread(expand, changed, set(self._table.files))
            await self._read_paths(expanded, force=True)
        return next_rescan, next_git

    # -- delivery --------------------------------------------------------------------------

    async def flush(self) -> bool:
        """Deliver everything pending now; False if stopped before the sink took it all."""
        return await self._out.flush()

    # -- reading ---------------------------------------------------------------------------

    async def _read_paths(self, paths: Iterable[Path], *, force: bool) -> None:
        for path in paths:
            if self._stopping.is_set():
                return
            tracked: TrackedFile | None = None
            try:
                async with self._read_lock:
                    tracked = self._table.track(path)
                if tracked is not None:
                    await self._read_file(tracked, force=force)
            except Exception as error:  # a parser bug must not stop every other file
                self._table.failed(path, tracked, error)

    async def _read_caught_up(self, paths: Sequence[Path]) -> set[Path]:
        """Forced reads, in one worker hop, of the files among `paths` unchanged since they were
        read to their end (most files of a caught-up home at `sqrl import`); the paths read
        to their end this way. Any other file, and one whose read fails or has more to read,
        is left to `_read_paths`."""
        await self._out.room()
        finished: set[Path] = set()
        async with self._read_lock:
            if self._stopping.is_set():
                return finished
            candidates = [self._table.files[path] for path in paths if path in self._table.files]
            read = await asyncio.to_thread(read_unchanged, candidates, self._factory, self._limits)
            for tracked, result in read:
                if isinstance(result, Exception):
                    self._table.failed(tracked.path, tracked, result)
                    finished.add(tracked.path)
                    continue
                self._apply(tracked, result)
                if result.missing or result.at_end:
                    finished.add(tracked.path)
        return finished

    async def _read_file(self, tracked: TrackedFile, *, force: bool) -> None:
        if not force and tracked.seen is not None and stat_key(tracked.path) == tracked.seen:
            return
        while not self._stopping.is_set():
            await self._out.room()
            async with self._read_lock:
                if self._table.files.get(tracked.path) is not tracked:
                    return
                result = await asyncio.to_thread(read_pass, tracked, self._factory, self._limits)
                self._apply(tracked, result)
            if result.missing or result.at_end:
                return

    def _apply(self, tracked: TrackedFile, result: ReadPass) -> None:
        """Count, route and batch the outcome of one read (on the event loop)."""
        if result.missing:
            self._table.files.pop(tracked.path, None)
            self._tally.counts["files_missing"] += 1
            log.info("source_file_missing", source=tracked.source.value)
            return
        if result.reset is not None:
            self._tally.resets[result.reset.value] += 1
            forget_file(self._out.floors, tracked.key)
            log.info("source_file_reset", source=tracked.source.value, reason=result.reset.value)
        self._take(tracked.source, result)

    def _take(self, source: SourceTool, result: ReadPass) -> None:
        """Count, route and batch what one read of a source produced (on the event loop)."""
        self._tally.read(source, result)
        for read in result.events:
            route = self._router.resolve(read.cwd, read.git_branch)
            if route is None:
                continue
            project_id = route.project_id
            # A worktree's paths (this session's, or another of the project's), moved onto
            # the main checkout.
            event = relocate(read, route, self._router.checkouts(project_id))
            event = signed(event)  # known by the shorter form earlier versions kept
            if not wanted(self._out.floors, project_id, event):
                self._tally.counts["already_delivered"] += 1
                continue
            self._out.batcher.add(project_id, event)
        for cursor in result.cursors:
            self._out.batcher.touch(cursor)
        self._out.flush_wanted.set()

    # -- cursor ----------------------------------------------------------------------------

    async def _poll_cursor(self, *, rescan: bool) -> None:
        """Read the new bubbles of Cursor's chats, in bounded steps, and batch them."""
        reader = self._cursor
        assert reader is not None
        if rescan:
            async with self._read_lock:
                reader.invalidate()
        while not self._stopping.is_set():
            await self._out.room()
            async with self._read_lock:
                floors = cursor_floors(self._out.floors, self._router.project_ids)
                try:
                    result = await asyncio.to_thread(read_cursor, reader, floors)
                except Exception as error:  # a reader bug must not stop transcript ingest
                    self._tally.skipped[SourceTool.CURSOR]["read_error"] += 1
                    log.warning("cursor_poll_failed", error_type=type(error).__name__)
                    return
                self._take(SourceTool.CURSOR, result)
            if result.at_end:
                return


async def _cancel(task: asyncio.Task[None]) -> None:
    """Cancel `task` and wait until it ends. A cancellation can be lost: in Python 3.11
    `asyncio.wait_for` returns its inner result instead of raising when the inner wait completes
    at the moment of the cancel (the reader's wait for changes), and the task carries on; so the
    cancel is repeated until the task is done."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.5)
    with contextlib.suppress(asyncio.CancelledError):
        await task
