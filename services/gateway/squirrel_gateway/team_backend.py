"""A laptop's memory when it shares with a team server: the team's memory and its own, merged.

Every read asks both at once: the team server (under the project's team identity, as this
laptop's token's user) and the local memory service (which also holds what only this checkout
knows, such as the facts read from the repository). The answers are merged, alternating best
first and dropping a memory both hold (same type and key). When the team server does not answer
within `TEAM_WAIT_SECONDS`, or fails, the local answer is used alone and the team is left alone
for `RETRY_AFTER_SECONDS` (`team_reach`); reads never fail because the team server is down.

Writes (`remember`, `forget`) go to the team server when it is reachable, so the whole team
gets them (a user_style memory stays its author's), else to local memory; a `remember` written
locally is also queued (`team_outbox`) and sent to the team when it answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.read_shapes import MemoryTypeName
from squirrel_gateway import messages
from squirrel_gateway.backend import (
    ForgetOutcome,
    PitfallsData,
    ProjectBriefData,
    RememberOutcome,
    SearchPage,
    TaskContextData,
    UserStyleData,
)
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.schemas import ViewMode
from squirrel_gateway.team_merge import (
    alternate,
    decode_cursor,
    encode_cursor,
    from_team,
    merged_brief,
)
from squirrel_gateway.team_outbox import OutboxSender
from squirrel_gateway.team_reach import RETRY_AFTER_SECONDS, TEAM_WAIT_SECONDS, TeamReach

__all__ = ["RETRY_AFTER_SECONDS", "TEAM_WAIT_SECONDS", "TeamMemoryBackend"]

T = TypeVar("T")


class TeamMemoryBackend:
    """`MemoryBackend` over the team server and the local memory service together."""

    def __init__(
        self,
        local: GrpcMemoryBackend,
        team: GrpcMemoryBackend,
        team_id: Callable[[str], str],
        *,
        server: str,
        wait_seconds: float = TEAM_WAIT_SECONDS,
        outbox: OutboxSender | None = None,
        token_in_use: Callable[[], str] | None = None,
        token_refused: Callable[[], None] | None = None,
    ) -> None:
        """`team_id`, `token_in_use` and `token_refused`: as `TeamReach` takes them."""
        self._local = local
        self._team = team
        self._reach = TeamReach(
            team_id,
            server=server,
            wait_seconds=wait_seconds,
            outbox=outbox,
            token_in_use=token_in_use,
            token_refused=token_refused,
        )

    @classmethod
    def _reaching(
        cls, local: GrpcMemoryBackend, team: GrpcMemoryBackend, reach: TeamReach
    ) -> TeamMemoryBackend:
        backend = cls.__new__(cls)
        backend._local, backend._team, backend._reach = local, team, reach
        return backend

    @property
    def server(self) -> str:
        return self._reach.server

    @property
    def local(self) -> GrpcMemoryBackend:
        return self._local

    @property
    def outbox(self) -> OutboxSender | None:
        return self._reach.outbox

    def team_is_back(self) -> None:
        """The team answered (the outbox sent to it): reads ask it again at once."""
        self._reach.team_is_back()

    async def queue_remember(self, project_id: str, request: pb.RememberRequest) -> bool:
        """Queues a remember written locally for the team (False without an outbox)."""
        if self.outbox is None:
            return False
        await self.outbox.queue(project_id, request)
        return True

    async def on_team(
        self,
        project_id: str,
        call: Callable[[MemoryClient, str], Awaitable[T]],
        *,
        write: bool = False,
        queued: bool = False,
        quiet_not_found: bool = False,
    ) -> T | None:
        """`call(team client, team project id)`'s answer, or None when the team server was not
        used (the reason noted for the answer, `team_away`). `quiet_not_found`: NOT_FOUND is an
        answer (a memory id only local memory holds), not a reason to say anything. A request
        the team server found invalid (an ambiguous handle, a memory too long) is raised: it is
        the caller's mistake, not the team's absence."""
        return await self._reach.ask(
            lambda t: call(self._team.client(), t),
            project_id,
            write=write,
            queued=queued and self.outbox is not None,
            quiet_not_found=quiet_not_found,
            raise_invalid=True,
        )

    def registered_roots(self) -> list[str]:
        return self._local.registered_roots()

    def waiting_at_most(self, seconds: float) -> TeamMemoryBackend:
        """The same two memories, waiting at most `seconds` for the team (for hooks, whose
        host gives up after `hooks.deadline_ms`: local memory must still make it in time); local
        memory read as hooks read it (`GrpcMemoryBackend.for_hooks`: its searches leave out stale
        memories and the recipes resting at a session start)."""
        return TeamMemoryBackend._reaching(
            self._local.for_hooks(), self._team, self._reach.waiting_at_most(seconds)
        )

    async def resolve_project(self, path: str) -> str:
        return await self._local.resolve_project(path)

    async def team_id(self, project_id: str) -> str:
        """The project's id on the team server."""
        return await self._reach.team_id(project_id)

    async def _both(
        self, project_id: str, team: Callable[[str], Awaitable[T]], local: Awaitable[T]
    ) -> tuple[T | None, T]:
        team_task = asyncio.create_task(self._reach.ask(team, project_id))
        try:
            mine = await local
        except BaseException:
            team_task.cancel()  # and waited for: its call to the team server ends here
            with contextlib.suppress(asyncio.CancelledError):
                await team_task
            raise
        return await team_task, mine

    async def get_task_context(
        self,
        project_id: str,
        *,
        user_id: str | None,
        task_description: str,
        active_file_paths: Sequence[str],
        preferred_memory_types: Sequence[MemoryTypeName],
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> TaskContextData:
        def team(team_id: str) -> Awaitable[TaskContextData]:
            return self._team.get_task_context(
                team_id,
                user_id=None,
                task_description=task_description,
                active_file_paths=active_file_paths,
                preferred_memory_types=preferred_memory_types,
                budget=budget,
            )

        shared, mine = await self._both(
            project_id,
            team,
            self._local.get_task_context(
                project_id,
                user_id=user_id,
                task_description=task_description,
                active_file_paths=active_file_paths,
                preferred_memory_types=preferred_memory_types,
                budget=budget,
                omit_sources_in=omit_sources_in,
            ),
        )
        if shared is None or not shared.has_relevant_memory:
            return mine
        chosen = alternate(
            from_team(shared.selected_memories),
            list(mine.selected_memories) if mine.has_relevant_memory else [],
            lambda m: (m.type, m.key),
        )
        return TaskContextData(
            project_id=mine.project_id,
            user_id=mine.user_id,
            task_description=mine.task_description,
            generated_at=max(shared.generated_at, mine.generated_at),
            has_relevant_memory=bool(chosen),
            selected_memories=chosen,
            total=max(len(chosen), shared.total + mine.total - _overlap(shared, mine)),
        )

    async def get_user_style_view(
        self,
        project_id: str,
        *,
        user_id: str | None,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> UserStyleData:
        shared, mine = await self._both(
            project_id,
            lambda t: self._team.get_user_style_view(t, user_id=None, mode=mode, budget=budget),
            self._local.get_user_style_view(
                project_id,
                user_id=user_id,
                mode=mode,
                budget=budget,
                omit_sources_in=omit_sources_in,
            ),
        )
        if shared is None:
            return mine
        items = alternate(list(mine.items), from_team(shared.items), lambda i: i.key)
        return UserStyleData(
            mode=mine.mode,
            project_id=mine.project_id,
            user_id=mine.user_id,
            generated_at=max(shared.generated_at, mine.generated_at),
            items=items,
            total=max(len(items), mine.total),
        )

    async def get_project_brief_view(
        self,
        project_id: str,
        *,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
        live_only: bool = False,
    ) -> ProjectBriefData:
        shared, mine = await self._both(
            project_id,
            lambda t: self._team.get_project_brief_view(
                t, mode=mode, budget=budget, live_only=live_only
            ),
            self._local.get_project_brief_view(
                project_id,
                mode=mode,
                budget=budget,
                omit_sources_in=omit_sources_in,
                live_only=live_only,
            ),
        )
        if shared is None:
            return mine
        return merged_brief(mine, shared)

    async def get_pitfalls_view(
        self,
        project_id: str,
        *,
        scope_paths: Sequence[str],
        task_description: str | None,
        budget: int,
        live_only: bool = False,
    ) -> PitfallsData:
        shared, mine = await self._both(
            project_id,
            lambda t: self._team.get_pitfalls_view(
                t,
                scope_paths=scope_paths,
                task_description=task_description,
                budget=budget,
                live_only=live_only,
            ),
            self._local.get_pitfalls_view(
                project_id,
                scope_paths=scope_paths,
                task_description=task_description,
                budget=budget,
                live_only=live_only,
            ),
        )
        if shared is None:
            return mine
        items = alternate(from_team(shared.items), list(mine.items), lambda i: i.key)
        return PitfallsData(
            project_id=mine.project_id,
            generated_at=max(shared.generated_at, mine.generated_at),
            has_relevant_pitfalls=shared.has_relevant_pitfalls or mine.has_relevant_pitfalls,
            items=items,
            total=max(len(items), shared.total + mine.total),
        )

    async def search_memory(
        self,
        project_id: str,
        *,
        query: str,
        top_k: int,
        types: Sequence[MemoryTypeName],
        scope_paths: Sequence[str],
        cursor: str | None,
    ) -> SearchPage:
        team_cursor, local_cursor, first = decode_cursor(cursor)

        async def nothing() -> SearchPage:
            return SearchPage(query=query, results=[], total=0, next_cursor=None)

        def team(team_id: str) -> Awaitable[SearchPage]:
            if not first and team_cursor is None:
                return nothing()
            return self._team.search_memory(
                team_id,
                query=query,
                top_k=top_k,
                types=types,
                scope_paths=scope_paths,
                cursor=team_cursor,
            )

        local = (
            self._local.search_memory(
                project_id,
                query=query,
                top_k=top_k,
                types=types,
                scope_paths=scope_paths,
                cursor=local_cursor,
            )
            if first or local_cursor is not None
            else nothing()
        )
        shared, mine = await self._both(project_id, team, local)
        if shared is None:
            shared = await nothing()
        results = sorted(
            alternate(from_team(shared.results), list(mine.results), lambda r: (r.type, r.key)),
            key=lambda r: -r.score,
        )
        return SearchPage(
            query=mine.query or query,
            results=results,
            total=shared.total + mine.total,
            next_cursor=encode_cursor(shared.next_cursor, mine.next_cursor),
        )

    async def remember(
        self,
        project_id: str,
        *,
        user_id: str | None,
        memory_type: MemoryTypeName,
        key: str | None,
        content: str,
        tags: Sequence[str],
        importance: float,
        file_paths: Sequence[str],
    ) -> RememberOutcome:
        once = uuid.uuid4().hex  # this write's key on the team server, and its queued retries

        def team(team_id: str) -> Awaitable[RememberOutcome]:
            return self._team.remember(
                team_id,
                user_id=None,
                memory_type=memory_type,
                key=key,
                content=content,
                tags=tags,
                importance=importance,
                file_paths=file_paths,
                idempotency_key=once,
            )

        queued = self.outbox is not None
        done = await self._reach.ask(team, project_id, write=True, queued=queued)
        if done is not None:
            return done
        written = await self._local.remember(
            project_id,
            user_id=user_id,
            memory_type=memory_type,
            key=key,
            content=content,
            tags=tags,
            importance=importance,
            file_paths=file_paths,
        )
        await self.queue_remember(
            project_id,
            pb.RememberRequest(
                type=messages.memory_type_value(memory_type),
                key=key or "",
                content=content,
                tags=list(tags),
                importance=importance,
                file_paths=list(file_paths),
                idempotency_key=once,
            ),
        )
        return written

    async def forget(self, project_id: str, *, memory_id: str, reason: str | None) -> ForgetOutcome:
        """A team memory's id is forgotten there; any other id locally."""
        done = await self._reach.ask(
            lambda t: self._team.forget(
                t, memory_id=memory_id, reason=reason, idempotency_key=uuid.uuid4().hex
            ),
            project_id,
            write=True,
            quiet_not_found=True,
        )
        if done is not None:
            return done
        return await self._local.forget(project_id, memory_id=memory_id, reason=reason)


def _overlap(shared: TaskContextData, mine: TaskContextData) -> int:
    keys = {(m.type, m.key) for m in shared.selected_memories}
    return sum(1 for m in mine.selected_memories if (m.type, m.key) in keys)
