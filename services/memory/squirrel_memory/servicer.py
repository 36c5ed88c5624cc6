"""MemoryService over gRPC: protobuf in, engine calls, protobuf out. No logic lives here."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

import structlog

from squirrel.v1 import events_pb2, memory_service_pb2_grpc
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.caller import team_grant, team_user
from squirrel_core.errors import InvalidArgumentError, PermissionDeniedError, SquirrelError
from squirrel_core.events import Event
from squirrel_core.redaction import preload as preload_redaction
from squirrel_core.redaction import ruleset
from squirrel_core.settings import Settings
from squirrel_core.wire import (
    EventDecodeError,
    cursor_from_pb,
    cursor_to_pb,
    event_from_pb,
)
from squirrel_memory.convert import (
    decode_offset,
    encode_offset,
    memory_to_pb,
    memory_type_from_pb,
    memory_types_from_pb,
    outcome_summary_to_pb,
    outcome_to_pb,
    project_status_to_pb,
    remember_response,
    scope_from_pb,
    served_from_pb,
    source_event_to_pb,
    source_from_pb,
    source_tool_name,
    statement_from_pb,
    version_to_pb,
)
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.engine import MemoryEngine
from squirrel_memory.indexer import read_deadline
from squirrel_memory.outcomes.judge import outcome_report, record_served
from squirrel_memory.readside import ReadSide
from squirrel_memory.status import ProjectStatus
from squirrel_memory.storage.outcome_log import check_served
from squirrel_memory.team.laptop import delivery_fields, delivery_for
from squirrel_memory.team.registry import TeamProjectRegistry
from squirrel_memory.user_memories.keyed_writes import KeyedWrites, R
from squirrel_memory.user_memories.privacy import callers_cursors, owned_cursors, require_admin

Context = Any
log = structlog.get_logger()
DEFAULT_OUTCOME_SESSIONS = 20
MAX_OUTCOME_SESSIONS = 1000
MAX_OUTCOMES_SHOWN = 200


class MemoryServicer(memory_service_pb2_grpc.MemoryServiceServicer):
    """Maps each RPC to the engine (writes, status) or the read side (views, context, search)."""

    def __init__(self, settings: Settings) -> None:
        embedder = MiniLmEmbedder()
        self.engine = MemoryEngine(settings, embedder)
        self.reads = ReadSide(self.engine, settings, embedder)
        self.keyed = KeyedWrites(self.engine.registry.store)
        self.delivery = (
            None
            if self.engine.team_server
            else delivery_for(settings, self.engine.registry.open_stores)
        )
        """A laptop sharing with a team server: its events go there too (`team.delivery`)."""

    async def _once(
        self,
        method: str,
        request: pb.RememberRequest | pb.ForgetRequest | pb.ConfirmMemoryRequest,
        reply_type: type[R],
        write: Callable[[], Awaitable[R]],
    ) -> R:
        """`write()`, run once per the request's idempotency key (`keyed_writes`)."""
        return await self.keyed.run(
            request.project_id,
            request.idempotency_key,
            method=method,
            user=team_user() or "",
            request=request,
            reply_type=reply_type,
            write=write,
        )

    async def start(self) -> None:
        """Opens every registered project before the service reports SERVING."""
        preload_redaction()
        await self.engine.start()
        await self.reads.start()
        if self.delivery is not None:
            self.delivery.start()

    async def close(self) -> None:
        if self.delivery is not None:
            await self.delivery.stop()
        await self.reads.close()
        await self.engine.close()

    # -- events ----------------------------------------------------------------------------------
    async def AppendEvents(
        self, request: pb.AppendEventsRequest, context: Context
    ) -> pb.AppendEventsResponse:
        decoded: list[Event | str] = []
        for msg in request.events:
            try:
                decoded.append(event_from_pb(msg))
            except EventDecodeError as exc:
                decoded.append(str(exc))
        cursors = owned_cursors([cursor_from_pb(c) for c in request.cursors])
        # Content this install's own ingest redacted with these very rules is not redacted twice;
        # anything else (no stamp, other rules, a team user's delivery) is.
        redacted = (
            bool(request.redacted_with)
            and request.redacted_with == ruleset()
            and team_user() is None
        )
        outcome = await self.engine.append(
            request.project_id, request.user_id, decoded, cursors, redacted=redacted
        )
        if self.delivery is not None and outcome.accepted:
            self.delivery.wake()
        return pb.AppendEventsResponse(
            accepted=outcome.accepted,
            duplicates=outcome.duplicates,
            rejected=[events_pb2.RejectedEvent(index=i, reason=r) for i, r in outcome.rejected],
            redactions=outcome.redactions,
        )

    async def GetSourceCursors(
        self, request: pb.GetSourceCursorsRequest, context: Context
    ) -> pb.GetSourceCursorsResponse:
        found = await self.engine.cursors(list(request.project_ids))
        return pb.GetSourceCursorsResponse(
            projects=[
                pb.ProjectCursors(
                    project_id=pid, cursors=[cursor_to_pb(c) for c in callers_cursors(cursors)]
                )
                for pid, cursors in found
            ]
        )

    async def GetProcessingStatus(
        self, request: pb.GetProcessingStatusRequest, context: Context
    ) -> pb.GetProcessingStatusResponse:
        statuses = await self.engine.status(request.project_id)
        return pb.GetProcessingStatusResponse(
            projects=[await self._project_status(s, request.outcome_sessions) for s in statuses],
            embedder_loading=not self.reads.embedder_ready,
            extractor_activity=pb.ExtractorActivity(**asdict(self.engine.extractor_activity())),
        )

    async def _project_status(
        self, status: ProjectStatus, sessions: int
    ) -> pb.ProjectProcessingStatus:
        """One project's row; a store that refuses writes and cannot be read either (its mapped
        index cut short) still says why, without its outcomes and team delivery."""
        try:
            outcomes = await self._outcomes(status.project_id, sessions)
            team = await self._team_status(status.project_id)
        except SquirrelError:
            if not status.write_failure:
                raise
            outcomes, team = pb.OutcomeSummary(), {}
        return project_status_to_pb(
            status,
            vectors_pending=self.reads.indexes.pending(status.project_id),
            outcomes=outcomes,
            team=team,
        )

    async def _outcomes(self, project_id: str, sessions: int) -> pb.OutcomeSummary:
        if not 0 <= sessions <= MAX_OUTCOME_SESSIONS:
            raise InvalidArgumentError(
                f"outcome_sessions must be between 0 and {MAX_OUTCOME_SESSIONS}"
            )
        store = await self.engine.registry.store(project_id)
        report = await outcome_report(
            self.engine.outcomes, store, sessions or DEFAULT_OUTCOME_SESSIONS
        )
        return outcome_summary_to_pb(report)

    async def RecordServedMemories(
        self, request: pb.RecordServedMemoriesRequest, context: Context
    ) -> pb.RecordServedMemoriesResponse:
        store = await self.engine.registry.store(request.project_id)
        records = served_from_pb(request, datetime.now(UTC))
        check_served(records)
        return pb.RecordServedMemoriesResponse(recorded=await record_served(store, records))

    async def _team_status(self, project_id: str) -> dict[str, Any]:
        """The project's delivery to the team server, for a laptop that shares with one."""
        if self.delivery is None:
            return {}
        return await delivery_fields(self.delivery, await self.engine.registry.store(project_id))

    async def ProcessNow(
        self, request: pb.ProcessNowRequest, context: Context
    ) -> pb.ProcessNowResponse:
        require_admin("ProcessNow")
        if request.max_batches < 0:
            raise InvalidArgumentError("max_batches cannot be negative")
        report = await self.engine.process_now(
            request.project_id,
            request.drain,
            request.max_batches,
            list(request.session_ids),
            consolidate=request.consolidate,
        )
        return pb.ProcessNowResponse(
            events_processed=report.events_processed,
            episodes_created=report.episodes_created,
            memories_added=report.memories_added,
            memories_updated=report.memories_updated,
            memories_deleted=report.memories_deleted,
            dead_lettered=report.dead_lettered,
        )

    # -- manual memory ---------------------------------------------------------------------------
    async def Remember(self, request: pb.RememberRequest, context: Context) -> pb.RememberResponse:
        memory_type = memory_type_from_pb(request.type)

        async def write() -> pb.RememberResponse:
            done = await self.engine.manual.remember(
                request.project_id,
                user_id=request.user_id,
                memory_type=memory_type,
                key=request.key,
                content=request.content,
                tags=list(request.tags),
                importance=request.importance,
                scope=scope_from_pb(request.scope, memory_type),
                file_paths=list(request.file_paths),
            )
            return remember_response(done)

        return await self._once("Remember", request, pb.RememberResponse, write)

    async def RememberMany(
        self, request: pb.RememberManyRequest, context: Context
    ) -> pb.RememberManyResponse:
        items = [statement_from_pb(request.project_id, item) for item in request.items]
        done = await self.engine.manual.remember_many(request.project_id, items)
        return pb.RememberManyResponse(
            results=[
                pb.RememberManyResult(error=pb.ItemError(code=outcome.status, message=str(outcome)))
                if isinstance(outcome, SquirrelError)
                else pb.RememberManyResult(remembered=remember_response(outcome))
                for outcome in done
            ]
        )

    async def Forget(self, request: pb.ForgetRequest, context: Context) -> pb.ForgetResponse:
        async def write() -> pb.ForgetResponse:
            item, already = await self.engine.forget(
                request.project_id, request.memory_id, request.reason
            )
            return pb.ForgetResponse(memory=memory_to_pb(item), already_forgotten=already)

        return await self._once("Forget", request, pb.ForgetResponse, write)

    async def GetMemory(
        self, request: pb.GetMemoryRequest, context: Context
    ) -> pb.GetMemoryResponse:
        item = await self.engine.get(request.project_id, request.memory_id)
        confirmed = await self.engine.confirmed(request.project_id, [item])
        return pb.GetMemoryResponse(memory=memory_to_pb(item, confirmed=item.id in confirmed))

    async def ConfirmMemory(
        self, request: pb.ConfirmMemoryRequest, context: Context
    ) -> pb.ConfirmMemoryResponse:
        async def write() -> pb.ConfirmMemoryResponse:
            item = await self.engine.confirm(request.project_id, request.memory_id)
            await self.reads.forget_cached_views(request.project_id)
            return pb.ConfirmMemoryResponse(memory=memory_to_pb(item, confirmed=True))

        return await self._once("ConfirmMemory", request, pb.ConfirmMemoryResponse, write)

    async def CorrectMemory(
        self, request: pb.CorrectMemoryRequest, context: Context
    ) -> pb.CorrectMemoryResponse:
        item, changed = await self.engine.correct(
            request.project_id,
            request.memory_id,
            content=request.content,
            importance=request.importance,
            reason=request.reason,
        )
        confirmed = await self.engine.confirmed(request.project_id, [item])
        return pb.CorrectMemoryResponse(
            memory=memory_to_pb(item, confirmed=item.id in confirmed), changed=changed
        )

    async def ListMemories(
        self, request: pb.ListMemoriesRequest, context: Context
    ) -> pb.ListMemoriesResponse:
        offset = decode_offset(request.page_token)
        items, total = await self.engine.list(
            request.project_id,
            types=memory_types_from_pb(request.types),
            include_deleted=request.include_deleted,
            page_size=request.page_size,
            offset=offset,
            source=source_from_pb(request.source),
            source_tool=source_tool_name(request.source_tool),
        )
        following = offset + len(items)
        confirmed = await self.engine.confirmed(request.project_id, items)
        handles = await self.engine.handles_for(request.project_id, [m.id for m in items])
        memories = [memory_to_pb(m, confirmed=m.id in confirmed) for m in items]
        for memory in memories:
            memory.handle = handles.get(memory.memory_id, memory.memory_id)
        return pb.ListMemoriesResponse(
            memories=memories,
            total_count=total,
            next_page_token=encode_offset(following) if following < total and items else "",
        )

    async def GetMemoryHistory(
        self, request: pb.GetMemoryHistoryRequest, context: Context
    ) -> pb.GetMemoryHistoryResponse:
        item, versions = await self.engine.history(request.project_id, request.memory_id)
        ids = [event_id for v in versions for event_id in v.source_event_ids]
        events = await self.engine.source_events(request.project_id, ids)
        confirmed = await self.engine.confirmed(request.project_id, [item])
        store = await self.engine.registry.store(request.project_id)
        book = await self.engine.outcomes.of(store)
        outcomes = await store.outcome_events([item.id], limit=MAX_OUTCOMES_SHOWN)
        return pb.GetMemoryHistoryResponse(
            memory=memory_to_pb(item, confirmed=item.id in confirmed),
            versions=[version_to_pb(v) for v in versions],
            source_events=[source_event_to_pb(e) for e in events],
            outcomes=[outcome_to_pb(o) for o in outcomes],
            stale=not item.deleted and book.is_stale(item, store.confirmations),
        )

    # -- retrieval -------------------------------------------------------------------------------
    async def GetUserStyleView(
        self, request: pb.GetUserStyleViewRequest, context: Context
    ) -> pb.GetUserStyleViewResponse:
        return await self.reads.user_style_view(request)

    async def GetProjectBriefView(
        self, request: pb.GetProjectBriefViewRequest, context: Context
    ) -> pb.GetProjectBriefViewResponse:
        return await self.reads.project_brief_view(request)

    async def GetPitfallsView(
        self, request: pb.GetPitfallsViewRequest, context: Context
    ) -> pb.GetPitfallsViewResponse:
        return await self.reads.pitfalls_view(request)

    async def GetTaskContext(
        self, request: pb.GetTaskContextRequest, context: Context
    ) -> pb.GetTaskContextResponse:
        with read_deadline(context.time_remaining()):
            return await self.reads.task_context(request)

    async def SearchMemory(
        self, request: pb.SearchMemoryRequest, context: Context
    ) -> pb.SearchMemoryResponse:
        with read_deadline(context.time_remaining()):
            return await self.reads.search(request)

    async def Reindex(self, request: pb.ReindexRequest, context: Context) -> pb.ReindexResponse:
        require_admin("Reindex")
        return await self.reads.reindex(request)

    # -- projects --------------------------------------------------------------------------------
    async def RegisterProject(
        self, request: pb.RegisterProjectRequest, context: Context
    ) -> pb.RegisterProjectResponse:
        registry = self.engine.registry
        grant = team_grant()
        if grant is not None and not isinstance(registry, TeamProjectRegistry):
            raise PermissionDeniedError("a team token cannot register projects here")
        if isinstance(registry, TeamProjectRegistry):
            project_id, created = await registry.register(request.root, grant)
        else:
            project_id, created = await registry.register(request.root)
        return pb.RegisterProjectResponse(project_id=project_id, created=created)

    async def ListProjects(
        self, request: pb.ListProjectsRequest, context: Context
    ) -> pb.ListProjectsResponse:
        registry = self.engine.registry
        grant = team_grant()
        return pb.ListProjectsResponse(
            projects=[
                pb.Project(project_id=root, available=registry.is_available(root))
                for root in registry.roots()
                if grant is None or grant.covers(root)
            ],
            team_user=grant.user if grant is not None else "",
            team_role=grant.role.label if grant is not None else "",
        )
