"""IngestService over gRPC: protobuf in, engine calls, protobuf out."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import structlog

from squirrel.v1 import ingest_service_pb2 as pb
from squirrel.v1 import ingest_service_pb2_grpc, memory_service_pb2
from squirrel_core.auth import load_token
from squirrel_core.clients import MemoryClient, open_channel, target_of
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.events import SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.projects import read_projects
from squirrel_core.redaction import preload as preload_redaction
from squirrel_core.redaction import ruleset
from squirrel_core.settings import Settings
from squirrel_core.source_roots import cursor_roots, default_roots
from squirrel_core.wire import SOURCE_TOOLS, SOURCE_TOOLS_PB, timestamp_pb
from squirrel_core.worktrees import WorktreeMemory
from squirrel_ingest.cursor.reader import CursorReader
from squirrel_ingest.engine import IngestEngine
from squirrel_ingest.engine_settings import EngineSettings
from squirrel_ingest.git_poller import GitPoller
from squirrel_ingest.grpc_sink import GrpcSink
from squirrel_ingest.parsers import GIT_LOG_ARGS, parse_git_log
from squirrel_ingest.routing import ProjectRouter
from squirrel_ingest.sources import parser_factory
from squirrel_ingest.status import ScanProgress

log = structlog.get_logger()

Context = Any
PROJECTS_POLL_SECONDS = 2.0


def engine_settings(settings: Settings) -> EngineSettings:
    return EngineSettings(
        batch_events=settings.int_("ingest.batch_events"),
        batch_age_s=settings.float_("ingest.batch_age_seconds"),
        buffer_events=settings.int_("ingest.buffer_events"),
        rescan_interval_s=settings.float_("ingest.rescan_seconds"),
        git_poll_interval_s=settings.float_("ingest.git_poll_seconds"),
        cursor_poll_interval_s=settings.float_("ingest.cursor_poll_seconds"),
    )


def progress_pb(progress: ScanProgress) -> pb.ImportBacklogProgress:
    return pb.ImportBacklogProgress(
        files_total=progress.files_total,
        files_done=progress.files_done,
        lines=progress.lines,
        events=progress.events,
        duplicates=progress.duplicates,
        rejected=progress.rejected,
        redactions=progress.redactions,
        bytes_read=progress.bytes_read,
        done=progress.done,
    )


class IngestServicer(ingest_service_pb2_grpc.IngestServiceServicer):
    """Owns the engine: starts it with the service, follows `projects.json`, reports status."""

    def __init__(self, settings: Settings, home: Path | None = None) -> None:
        self._layout = HomeLayout(settings.home)
        roots = read_projects(self._layout.projects)
        self._router = ProjectRouter(
            roots, memory=WorktreeMemory(self._layout.worktrees), own=[self._layout.root]
        )
        # Every event the engine delivers was redacted as it was read (`reading.redacted`, and
        # again where `relocate` changed a string), so its deliveries say with which rules.
        self._sink = GrpcSink(self._memory_client, settings.user_id, redacted_with=ruleset())
        self.engine = IngestEngine(
            default_roots(settings, home or Path.home()),
            self._router,
            self._sink,
            parser_factory(self._router),
            engine_settings(settings),
            git_poller=GitPoller(GIT_LOG_ARGS, parse_git_log),
            cursor_reader=CursorReader(cursor_roots(settings, home or Path.home())),
        )
        self._projects_mtime = self._registry_mtime()
        self._poller: asyncio.Task[None] | None = None

    def _memory_client(self) -> MemoryClient:
        channel = open_channel(target_of(self._layout.service_file("memory")))
        return MemoryClient(channel, load_token(self._layout.token))

    def _registry_mtime(self) -> int:
        try:
            return self._layout.projects.stat().st_mtime_ns
        except OSError:
            return 0

    async def start(self) -> None:
        preload_redaction()
        await self.engine.start()
        self._poller = asyncio.create_task(self._follow_projects(), name="projects-poller")

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        await self.engine.stop()
        await self._sink.close()

    async def _follow_projects(self) -> None:
        """Picks up projects registered (or removed) while running; new ones get their past."""
        while True:
            await asyncio.sleep(PROJECTS_POLL_SECONDS)
            mtime = self._registry_mtime()
            if mtime == self._projects_mtime:
                continue
            self._projects_mtime = mtime
            try:
                await self.engine.update_projects(read_projects(self._layout.projects))
            except Exception as exc:  # a half-written registry is read again next time
                log.warning("projects_reload_failed", error_type=type(exc).__name__)

    async def GetIngestStatus(
        self, request: pb.GetIngestStatusRequest, context: Context
    ) -> pb.GetIngestStatusResponse:
        status = self.engine.status()
        return pb.GetIngestStatusResponse(
            sources=[
                pb.SourceStatus(
                    source_tool=SOURCE_TOOLS_PB[source],
                    files_seen=c.files_seen,
                    lines_read=c.lines_read,
                    events_produced=c.events_produced,
                    events_delivered=c.events_delivered,
                    duplicates=c.duplicates,
                    rejected=c.rejected,
                    redactions=c.redactions,
                    skipped=c.skipped,
                )
                for source, c in sorted(status.sources.items())
            ],
            buffered_events=status.buffered_events,
            unregistered_projects=status.unregistered_projects,
            delivery_failures=status.delivery_failures,
            last_delivery_at=timestamp_pb(status.last_delivery_at),
        )

    async def Rescan(self, request: pb.RescanRequest, context: Context) -> pb.RescanResponse:
        progress = await self.engine.scan_once()
        return pb.RescanResponse(
            files_scanned=progress.files_total, events_produced=progress.events
        )

    async def ListWatchedSources(
        self, request: pb.ListWatchedSourcesRequest, context: Context
    ) -> pb.ListWatchedSourcesResponse:
        return pb.ListWatchedSourcesResponse(
            sources=[
                pb.WatchedSource(
                    source_tool=SOURCE_TOOLS_PB[w.source_tool],
                    root=w.root,
                    exists=w.exists,
                    files=w.files,
                )
                for w in self.engine.watched_sources()
            ]
        )

    async def ImportBacklog(
        self, request: pb.ImportBacklogRequest, context: Context
    ) -> AsyncIterator[pb.ImportBacklogProgress]:
        wanted: set[SourceTool] = {
            SOURCE_TOOLS[s] for s in request.source_tools if s in SOURCE_TOOLS
        }
        queue: asyncio.Queue[ScanProgress] = asyncio.Queue()
        scan = asyncio.create_task(
            self.engine.scan_once(wanted or None, on_progress=queue.put_nowait)
        )
        getter: asyncio.Task[ScanProgress] | None = None
        try:
            while True:
                getter = asyncio.create_task(queue.get())
                done, _ = await asyncio.wait({getter, scan}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    progress = getter.result()
                    while not progress.done and not queue.empty():
                        progress = queue.get_nowait()  # running totals: the newest says it all
                    yield progress_pb(progress)
                    if progress.done:
                        break
                else:
                    scan.result()  # raises if the scan failed
                    while not queue.empty():
                        yield progress_pb(queue.get_nowait())
                    break
        finally:
            # A caller that goes away (or a server stopping) ends the scan here, and the scan is
            # waited for: it may be in the middle of a delivery to memory, whose call must end
            # before the sink's channel closes.
            await _cancelled(getter, scan)

    async def EndSession(
        self, request: pb.EndSessionRequest, context: Context
    ) -> pb.EndSessionResponse:
        if not request.project_id or not request.session_id:
            raise InvalidArgumentError("project_id and session_id are required")
        read = 0
        if request.transcript_path:
            read = await self.engine.read_now(Path(request.transcript_path))
        client = self._memory_client()
        try:
            reply = await client.call(
                client.stub.ProcessNow,
                memory_service_pb2.ProcessNowRequest(
                    project_id=request.project_id, session_ids=[request.session_id]
                ),
            )
        finally:
            await client.close()
        log.info("session_end_processed", events_read=read, processed=reply.events_processed)
        return pb.EndSessionResponse(events_read=read, events_processed=reply.events_processed)


async def _cancelled(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancels the tasks not yet done and waits until each has ended."""
    running = [t for t in tasks if t is not None and not t.done()]
    for task in running:
        task.cancel()
    for task in running:
        with contextlib.suppress(asyncio.CancelledError):
            await task
