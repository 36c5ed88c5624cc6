"""Which memory the gateway reads: local memory alone, or (with a team server) local and team
merged; and that memory as the hooks read it, within their deadline."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

import structlog

from squirrel_core.errors import SquirrelError
from squirrel_core.home import HomeLayout
from squirrel_core.project_identity import project_identity
from squirrel_core.settings import Settings
from squirrel_core.team_client import saved_team_link, team_link, team_memory_client
from squirrel_core.team_refusal import note_accepted, note_refused
from squirrel_gateway.backend import MemoryBackend
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.team_backend import TEAM_WAIT_SECONDS, TeamMemoryBackend
from squirrel_gateway.team_connection import TeamConnection
from squirrel_gateway.team_outbox import OutboxSender, TeamOutbox

log = structlog.get_logger()


async def _nothing_to_close() -> None:
    return None


def reads_backend(
    settings: Settings, local: GrpcMemoryBackend
) -> tuple[MemoryBackend, Callable[[], Awaitable[None]]]:
    """What reads go through: local memory alone, or (with `team.server`) local and team
    merged; and how to close what was opened. A half-configured team link is logged and local
    memory is used alone."""
    try:
        link = team_link(settings)
    except SquirrelError as exc:
        log.warning("team_reads_off", reason=str(exc))
        return local, _nothing_to_close
    if link is None:
        return local, _nothing_to_close
    connection = TeamConnection(
        link,
        HomeLayout(settings.home).team_token,
        lambda: saved_team_link(settings),
        timeout=TEAM_WAIT_SECONDS,
    )
    team = GrpcMemoryBackend(connection.client, list, timeout=TEAM_WAIT_SECONDS)

    async def team_id(root: str) -> str:
        return await backend.team_id(root)

    sender = OutboxSender(
        TeamOutbox(HomeLayout(settings.home).team_outbox),
        lambda: team_memory_client(connection.current_link(), timeout=TEAM_WAIT_SECONDS),
        team_id,
        timeout=TEAM_WAIT_SECONDS,
        token=lambda: connection.current_link().token,
    )
    backend = TeamMemoryBackend(
        local,
        team,
        lambda root: project_identity(root, link.machine),
        server=link.server,
        outbox=sender,
        token_in_use=lambda: connection.current_link().token,
        token_refused=connection.refused,
    )
    sender.on_sent = backend.team_is_back
    refusal = HomeLayout(settings.home).team_refused

    def on_token(accepted: bool) -> None:
        note = note_accepted if accepted else note_refused
        try:
            note(refusal, connection.current_link().token)
        except OSError as exc:
            log.warning("team_refusal_not_noted", error_type=type(exc).__name__)

    sender.on_token = on_token
    sender.start()

    async def close() -> None:
        await sender.stop()
        await connection.close()

    return backend, close


HOOK_TEAM_SHARE: Final = 0.25
"""Of a hook's deadline, what one read may wait for the team server (a session start reads
three views)."""


def for_hooks(reads: MemoryBackend, deadline_ms: int) -> MemoryBackend:
    """`reads` as the hooks use it: the team waited for only a share of the hook's deadline;
    the memory service's searches without stale memories."""
    if isinstance(reads, TeamMemoryBackend):
        return reads.waiting_at_most(max(0.05, deadline_ms / 1000 * HOOK_TEAM_SHARE))
    if isinstance(reads, GrpcMemoryBackend):
        return reads.for_hooks()
    return reads
