"""A laptop's delivery of its redacted events to the team server, exactly once.

Ingest and redaction run on the laptop; its memory service stores the events as always. This
loop then sends each local project's events, in the order they were stored (SQLite's rowid), to
the team server under the project's team identity. Every batch carries a cursor
`team://<machine>/<local root>` at the last local position sent, which the server commits in the
same transaction as the events; after any failure (server down, killed mid-batch, a lost reply)
the laptop forgets what it thought and asks the server for that cursor again, so it resumes
exactly after what was committed. While the server is unreachable, the loop pauses (doubling up
to a minute) but checks the server's health every few seconds and delivers as soon as it
answers; after the server refused the token, it checks the home's token file as often and
delivers as soon as another token is saved there; the refusal is noted in the home
(`squirrel_core.team_refusal`) for `sqrl status` and `sqrl doctor`, and the events stay in the
local store. The server also drops events whose dedup
hash it holds (the `machine` content key is not hashed), so a batch sent twice is stored once.
Each event is sized with its mark as the server will size it: one the mark would push past the
server's content limit (a local event within a few bytes of it) is sent without the mark, so no
event is ever rejected for a size the laptop added (its history then names the user alone).

Reads keep working on local memory meanwhile; nothing here blocks the service.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import structlog

from squirrel.v1 import events_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient, channel_health
from squirrel_core.errors import SquirrelError, UnauthenticatedError, UnavailableError
from squirrel_core.events import Event, EventType, Origin, SourceCursor, SourceTool
from squirrel_core.project_identity import project_identity
from squirrel_core.team_client import TeamLink, team_channel, team_memory_client
from squirrel_core.team_refusal import note_accepted, note_refused
from squirrel_core.wire import cursor_from_pb, cursor_to_pb, event_to_pb, struct_to_dict
from squirrel_memory.models import StoredEvent
from squirrel_memory.storage import SqliteStore, Store
from squirrel_memory.storage.checks import MAX_CONTENT_BYTES
from squirrel_memory.storage.formats import to_json

log = structlog.get_logger()

BATCH_EVENTS = 500
BATCH_BYTES = 8 * 1024 * 1024
"""A batch also stops before it would pass this many encoded bytes (it holds one event at least):
an event's content may be up to 512 KB, so 500 of them would be far past the 32 MiB a gRPC
message may hold, and a batch the channel refuses would be sent again, whole, every round."""
CURSOR_TOOL = SourceTool.MANUAL
"""The cursor's tool: not a transcript; its path (`team://…`) names the laptop and project."""
MAX_BACKOFF_SECONDS = 60.0
REASON_CHARS = 80
"""A rejection's reason (the server's code for it, e.g. `timestamp_out_of_range`) is kept to
this many characters."""


PROBE_SECONDS = 2.0
"""While the server is unreachable, how often its health is checked (so the backlog goes within
seconds of its return, not after the whole pause)."""


async def serving(link: TeamLink) -> bool:
    """Whether the team server answers its health check now (a fresh channel: an old one may
    still be backing off)."""
    try:
        channel = team_channel(link)
    except SquirrelError:
        return False
    async with channel:
        return await channel_health(channel, timeout=PROBE_SECONDS) == "SERVING"


def cursor_path(machine: str, local_root: str, laptop: str = "") -> str:
    """The cursor a laptop's delivery of one local project is kept at on the server, filed
    under the token's user: by machine name and path, and the home's own id (`laptop`), so two
    laptops of one user with one machine name (`localhost`, a stock host name) and one project
    path never take each other's position (one would skip the other's events)."""
    path = f"team://{machine}/{local_root.lstrip('/')}"
    return f"{path}#{laptop}" if laptop else path


JSON_GROWTH = 6
"""The most a Struct's content grows as the server's JSON: a control character is one byte on
the wire and six (`\\u0001`) in JSON; everything else grows less. An event whose message is
smaller than the limit by this factor is not measured."""


def outgoing_event(event: StoredEvent, machine: str | None) -> Event:
    """A stored (already redacted) event as it is sent, marked with the machine it came from
    (None: unmarked)."""
    content = event.content if machine is None else {**event.content, "machine": machine}
    return Event(
        source_tool=SourceTool(event.source_tool),
        event_type=EventType(event.event_type),
        timestamp=event.timestamp,
        content=content,
        session_id=event.session_id,
        file_paths=event.file_paths,
        sidechain=event.sidechain,
        agent_id=event.agent_id,
        origin=Origin(event.origin) if event.origin else None,
    )


def server_content_bytes(message: events_pb2.Event) -> int:
    """The size the server holds an event's content to: its Struct read back as the server
    reads it (every number a double) and written as the store writes it."""
    return len(to_json(struct_to_dict(message.content)).encode("utf-8"))


def outgoing_message(
    event: StoredEvent, machine: str, *, limit: int = MAX_CONTENT_BYTES
) -> tuple[events_pb2.Event, bool]:
    """`event` as sent, and whether it carries the machine mark: an event the mark would push
    past `limit` (the server's content limit) goes without it, so the server never rejects it
    for the bytes the laptop added."""
    # `content`, not `content_json`: the team server may be an older version.
    message = event_to_pb(outgoing_event(event, machine))
    if message.content.ByteSize() * JSON_GROWTH <= limit:
        return message, True
    if server_content_bytes(message) <= limit:
        return message, True
    return event_to_pb(outgoing_event(event, None)), False


@dataclass
class DeliveryReport:
    """What one round sent (events counted as the server reports them)."""

    sent: int = 0
    accepted: int = 0
    duplicates: int = 0
    projects: dict[str, str] = field(default_factory=dict)
    """Local root → team id, for every project delivered this round."""


class TeamDelivery:
    """Sends every local project's new events to the team server, on a timer and on demand."""

    def __init__(
        self,
        stores: Callable[[], Awaitable[list[Store]]],
        link: TeamLink,
        *,
        interval: float,
        client_factory: Callable[[TeamLink], MemoryClient] = team_memory_client,
        probe: Callable[[TeamLink], Awaitable[bool]] | None = None,
        probe_every: float = PROBE_SECONDS,
        relink: Callable[[], TeamLink | None] | None = None,
        refusal_file: Path | None = None,
        laptop: str = "",
    ) -> None:
        self._stores = stores
        self._laptop = laptop
        """This home's own id (`squirrel_core.team_client.laptop_id`) in the cursor's path."""
        self._link = link
        self._interval = interval
        self._client_factory = client_factory
        self._probe = probe or serving
        self._probe_every = probe_every
        self._relink = relink
        """The link as the home says now (its token file read again): after the server refused
        the token, another one saved there (`sqrl team join`) is used at once."""
        self._refusal_file = refusal_file
        """Where a refusal of the token is noted for `sqrl status` and `doctor`
        (`squirrel_core.team_refusal`); None: not noted."""
        self._answered = False
        """Whether this round has had an answer from the server (so the token was accepted)."""
        self._client: MemoryClient | None = None
        self._team_ids: dict[str, str] = {}
        self._registered: set[str] = set()
        self._positions: dict[str, int] = {}
        """Local root → last local position the server is known to hold (dropped on failure)."""
        self._delivered: dict[str, int] = {}
        """Local root → the last position known delivered (kept across failures, for status)."""
        self._rejected: dict[str, tuple[int, str]] = {}
        """Local root → how many delivered events the server rejected since this process
        started, and the last reason it gave (for status: they reached local memory only)."""
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.last_error: str | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="team-delivery")

    def wake(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._client is not None:
            await self._client.close()
            self._client = None

    async def _run(self) -> None:
        delay = self._interval
        while not self._stop.is_set():
            ready: Callable[[], Awaitable[bool]] | None = None
            try:
                await self.deliver()
                delay = self._interval
            except Exception as exc:
                # The events stay in the local store: a later round sends them. A fault nobody
                # foresaw is logged by its type and backed off from, never the end of delivery.
                delay = min(MAX_BACKOFF_SECONDS, max(self._interval, delay * 2))
                if isinstance(exc, (UnavailableError, OSError)):
                    ready = self._server_back
                elif isinstance(exc, UnauthenticatedError) and self._relink is not None:
                    ready = self._token_replaced
                log.warning(
                    "team_delivery_failed",
                    server=self._link.server,
                    error_type=type(exc).__name__,
                    retry_in_s=delay,
                )
            await self._pause(delay, ready)
            self._wake.clear()

    async def _pause(self, delay: float, ready: Callable[[], Awaitable[bool]] | None) -> None:
        """The pause before the next round, cut short when woken, or when `ready` (asked every
        `probe_every`) says the failure is over: the server answers its health check again
        after it was unreachable, or another token was saved after it refused this one."""
        loop = asyncio.get_running_loop()
        until = loop.time() + delay
        while (left := until - loop.time()) > 0:
            with contextlib.suppress(TimeoutError):
                step = left if ready is None else min(self._probe_every, left)
                await asyncio.wait_for(self._wake.wait(), step)
                return
            if ready is not None and until - loop.time() > 0 and await self._asked(ready):
                return

    async def _asked(self, ready: Callable[[], Awaitable[bool]]) -> bool:
        """`ready()`, a fault in it taken as "not yet" (and logged), so the pause runs on."""
        try:
            return await ready()
        except Exception as exc:
            log.warning(
                "team_probe_failed", server=self._link.server, error_type=type(exc).__name__
            )
            return False

    async def _server_back(self) -> bool:
        """Whether the server that was unreachable serves again (its health check)."""
        if not await self._probe(self._link):
            return False
        log.info("team_server_back", server=self._link.server)
        return True

    async def _token_replaced(self) -> bool:
        """Whether the home holds another token than the one the server refused; it is used
        from the next round on."""
        # Off the event loop: the home may sit on a slow disk.
        link = await asyncio.to_thread(self._relink) if self._relink is not None else None
        if link is None or link.token == self._link.token:
            return False
        self._link = replace(self._link, token=link.token)
        log.info("team_token_replaced", server=self._link.server)
        return True

    def _connection(self) -> MemoryClient:
        if self._client is None:
            self._client = self._client_factory(self._link)
        return self._client

    async def deliver(self) -> DeliveryReport:
        """One round: every local project's undelivered events, in batches; raises on failure
        (after forgetting the positions, so the next round asks the server where it is)."""
        async with self._lock:
            report = DeliveryReport()
            self._answered = False
            try:
                for store in await self._stores():
                    if isinstance(store, SqliteStore):  # a laptop's embedded store
                        await self._deliver_project(store, report)
            except (SquirrelError, OSError) as exc:
                self._positions.clear()
                self.last_error = f"{type(exc).__name__}: {exc}"
                if isinstance(exc, UnauthenticatedError):
                    await self._note(note_refused)
                # A fresh channel next round: an old one may still be backing off after the
                # failure and refuse calls for a while after the server is back.
                if self._client is not None:
                    await self._client.close()
                    self._client = None
                raise
            self.last_error = None
            if self._answered:
                await self._note(note_accepted)
            if report.sent:
                log.info(
                    "team_delivered",
                    server=self._link.server,
                    sent=report.sent,
                    accepted=report.accepted,
                    duplicates=report.duplicates,
                )
            return report

    async def _note(self, note: Callable[[Path, str], None]) -> None:
        """Notes the server's refusal (or acceptance) of the token in use; a home that cannot
        be written is logged, never the end of delivery."""
        if self._refusal_file is None:
            return
        try:
            await asyncio.to_thread(note, self._refusal_file, self._link.token)
        except OSError as exc:
            log.warning("team_refusal_not_noted", error_type=type(exc).__name__)

    async def _team_id(self, root: str) -> str:
        if root not in self._team_ids:
            self._team_ids[root] = await asyncio.to_thread(
                project_identity, root, self._link.machine
            )
        return self._team_ids[root]

    async def _deliver_project(self, store: SqliteStore, report: DeliveryReport) -> None:
        root = store.project_id
        team_id = await self._team_id(root)
        report.projects[root] = team_id
        client = self._connection()
        if team_id not in self._registered:
            await client.call(client.stub.RegisterProject, pb.RegisterProjectRequest(root=team_id))
            self._registered.add(team_id)
            self._answered = True
        path = cursor_path(self._link.machine, root, self._laptop)
        position = self._positions.get(root)
        if position is None:
            position = await self._server_position(
                client, team_id, path, cursor_path(self._link.machine, root)
            )
            self._positions[root] = self._delivered[root] = position
            self._answered = True
        while not self._stop.is_set():
            batch = await store.events_after(position, BATCH_EVENTS)
            if not batch:
                break
            last, events = self._fitting(batch)
            cursor = SourceCursor(CURSOR_TOOL, path, 0, last, {"team_id": team_id})
            reply = await client.call(
                client.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=team_id, events=events, cursors=[cursor_to_pb(cursor)]
                ),
            )
            self._answered = True
            position = last
            self._positions[root] = last
            self._delivered[root] = last
            report.sent += len(events)
            report.accepted += reply.accepted
            report.duplicates += reply.duplicates
            if reply.rejected:
                # The server committed the cursor past them: they stay in local memory only.
                count, _ = self._rejected.get(root, (0, ""))
                reason = reply.rejected[-1].reason[:REASON_CHARS]
                self._rejected[root] = (count + len(reply.rejected), reason)
                log.warning(
                    "team_events_rejected",
                    server=self._link.server,
                    count=len(reply.rejected),
                    reason=reason,
                )

    def _fitting(self, batch: list[tuple[int, StoredEvent]]) -> tuple[int, list[events_pb2.Event]]:
        """The leading events of `batch` that fit in `BATCH_BYTES` (one at least), as sent, and
        the local position of the last of them."""
        events: list[events_pb2.Event] = []
        size = 0
        unmarked = 0
        last = batch[0][0]
        for at, stored in batch:
            message, marked = outgoing_message(stored, self._link.machine)
            size += message.ByteSize()
            if events and size > BATCH_BYTES:
                break
            events.append(message)
            unmarked += not marked
            last = at
        if unmarked:
            log.info("team_events_unmarked", server=self._link.server, count=unmarked)
        return last, events

    def rejected(self, store: Store) -> tuple[int, str]:
        """How many of this project's events the server rejected since this process started,
        and the last reason it gave ((0, "") when none)."""
        return self._rejected.get(store.project_id, (0, ""))

    async def waiting(self, store: Store) -> int:
        """Events of this project not yet delivered, as far as this process knows (all of
        them before its first successful round)."""
        if not isinstance(store, SqliteStore):
            return 0
        return await store.count_events_after(self._delivered.get(store.project_id, 0))

    async def _server_position(
        self, client: MemoryClient, team_id: str, path: str, before: str
    ) -> int:
        """The last local position the server committed for this laptop's project (0: none);
        until the laptop's own cursor exists, the one a version without the home's id kept
        at `before` (so an upgrade does not send the whole history again)."""
        reply = await client.call(
            client.stub.GetSourceCursors, pb.GetSourceCursorsRequest(project_ids=[team_id])
        )
        offsets = {
            msg.path: cursor_from_pb(msg).offset
            for project in reply.projects
            for msg in project.cursors
            if msg.path in (path, before)
        }
        return offsets.get(path, offsets.get(before, 0))
