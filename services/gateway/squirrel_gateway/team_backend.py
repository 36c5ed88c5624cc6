"""A laptop's memory when it shares with a team server: the team's memory and its own, merged.

Every read asks both at once: the team server (under the project's team identity, as this
laptop's token's user) and the local memory service (which also holds what only this checkout
knows, such as the facts read from the repository). The answers are merged, alternating best
first and dropping a memory both hold (same type and key). When the team server does not answer
within `TEAM_WAIT_SECONDS`, or fails, the local answer is used alone and the team is left alone
for `RETRY_AFTER_SECONDS`; reads never fail because the team server is down.

Writes (`remember`, `forget`) go to the team server when it is reachable, so the whole team
gets them (a user_style memory stays its author's), else to local memory; a `remember` written
locally is also queued (`team_outbox`) and sent to the team when it answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Final, TypeVar

import structlog

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import (
    InvalidArgumentError,
    NotFoundError,
    SquirrelError,
    UnauthenticatedError,
)
from squirrel_core.read_shapes import MemoryTypeName
from squirrel_gateway import messages, team_away
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
from squirrel_gateway.team_merge import alternate, decode_cursor, encode_cursor
from squirrel_gateway.team_outbox import OutboxSender

log = structlog.get_logger()

TEAM_WAIT_SECONDS: Final = 3.0
RETRY_AFTER_SECONDS: Final = 30.0
T = TypeVar("T")


def _nothing() -> None:
    return None


def _one_token() -> str:
    return ""


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
        """`token_in_use` gives the token the team calls carry now (the home's, read again when
        `sqrl team join` saved another): a pause ends when it is no longer the refused one.
        `token_refused` is told when the team server refused it (UNAUTHENTICATED)."""
        self._outbox = outbox
        self._token_in_use = token_in_use or _one_token
        self._token_refused = token_refused or _nothing
        self._local = local
        self._team = team
        self._team_id = team_id
        self._server = server
        self._wait = wait_seconds
        self._down_until = 0.0
        self._down_reason = ""
        self._down_token = ""
        """The token the call that began the pause carried."""
        self._ids: dict[str, str] = {}

    @property
    def server(self) -> str:
        return self._server

    @property
    def local(self) -> GrpcMemoryBackend:
        return self._local

    @property
    def outbox(self) -> OutboxSender | None:
        return self._outbox

    def team_is_back(self) -> None:
        """The team answered (the outbox sent to it): reads ask it again at once."""
        self._down_until = 0.0

    async def queue_remember(self, project_id: str, request: pb.RememberRequest) -> bool:
        """Queues a remember written locally for the team (False without an outbox)."""
        if self._outbox is None:
            return False
        await self._outbox.queue(project_id, request)
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
        return await self._ask_team(
            lambda t: call(self._team.client(), t),
            project_id,
            write=write,
            queued=queued and self._outbox is not None,
            quiet_not_found=quiet_not_found,
            raise_invalid=True,
        )

    def registered_roots(self) -> list[str]:
        return self._local.registered_roots()

    def waiting_at_most(self, seconds: float) -> TeamMemoryBackend:
        """The same two memories, waiting at most `seconds` for the team (for hooks, whose
        host gives up after `hooks.deadline_ms`: local memory must still make it in time)."""
        return TeamMemoryBackend(
            self._local,
            self._team,
            self._team_id,
            server=self._server,
            wait_seconds=seconds,
            outbox=self._outbox,
            token_in_use=self._token_in_use,
            token_refused=self._token_refused,
        )

    async def resolve_project(self, path: str) -> str:
        return await self._local.resolve_project(path)

    async def team_id(self, project_id: str) -> str:
        """The project's id on the team server."""
        return await self._id(project_id)

    async def _id(self, project_id: str) -> str:
        if project_id not in self._ids:
            self._ids[project_id] = await asyncio.to_thread(self._team_id, project_id)
        return self._ids[project_id]

    async def _ask_team(
        self,
        call: Callable[[str], Awaitable[T]],
        project_id: str,
        *,
        write: bool = False,
        queued: bool = False,
        quiet_not_found: bool = False,
        raise_invalid: bool = False,
    ) -> T | None:
        """The team server's answer, or None (down, slow, failing, or left alone for now); the
        reason is noted for whoever answers (`team_away`)."""
        # A token saved since the server refused this one (`sqrl team join`) ends the pause, for
        # every read (each asks for itself: none can use up the news for another).
        token = self._token_in_use()
        if time.monotonic() < self._down_until and token == self._down_token:
            team_away.note(
                team_away.line(self._server, self._down_reason, write=write, queued=queued)
            )
            return None
        try:
            answer = await asyncio.wait_for(call(await self._id(project_id)), self._wait)
        except (SquirrelError, TimeoutError, OSError) as exc:
            if isinstance(exc, NotFoundError) and quiet_not_found:
                return None
            if isinstance(exc, InvalidArgumentError) and raise_invalid:
                raise
            if isinstance(exc, UnauthenticatedError):
                self._token_refused()
            reason = team_away.reason_of(exc, self._wait)
            if not isinstance(exc, NotFoundError):  # a project the team has not seen yet
                self._down_until = time.monotonic() + RETRY_AFTER_SECONDS
                self._down_reason = reason
                self._down_token = token
            team_away.note(team_away.line(self._server, reason, write=write, queued=queued))
            log.warning("team_read_skipped", server=self._server, error_type=type(exc).__name__)
            return None
        if self._outbox is not None:
            self._outbox.wake()  # the team answers: what waits in the outbox goes now
        return answer

    async def _both(
        self, project_id: str, team: Callable[[str], Awaitable[T]], local: Awaitable[T]
    ) -> tuple[T | None, T]:
        team_task = asyncio.create_task(self._ask_team(team, project_id))
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
            list(shared.selected_memories),
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
        items = alternate(list(mine.items), list(shared.items), lambda i: i.key)
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
    ) -> ProjectBriefData:
        shared, mine = await self._both(
            project_id,
            lambda t: self._team.get_project_brief_view(t, mode=mode, budget=budget),
            self._local.get_project_brief_view(
                project_id, mode=mode, budget=budget, omit_sources_in=omit_sources_in
            ),
        )
        if shared is None:
            return mine
        facts = alternate(list(mine.key_facts), list(shared.key_facts), lambda f: f)
        modules = alternate(list(mine.modules), list(shared.modules), lambda m: m.name)
        return ProjectBriefData(
            mode=mine.mode,
            project_id=mine.project_id,
            generated_at=max(shared.generated_at, mine.generated_at),
            modules=modules,
            key_facts=facts,
            total=max(len(facts) + len(modules), mine.total),
        )

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
        items = alternate(list(shared.items), list(mine.items), lambda i: i.key)
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
            alternate(list(shared.results), list(mine.results), lambda r: (r.type, r.key)),
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

        queued = self._outbox is not None
        done = await self._ask_team(team, project_id, write=True, queued=queued)
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
        done = await self._ask_team(
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
