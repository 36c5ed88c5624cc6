"""The event log of a project, written once for both backends: appending (checked, logged and
counted here; stored by the backend, whose ways of skipping a duplicate differ), cursors, the
event reads, episodes and processing marks, as plans of statements (`queries`) in a `Dialect`.

What stays a backend's own is how a batch of events is stored: SQLite looks the hashes up before
it inserts, among the sender's events on a team server and among all on a laptop; Postgres, a
team server's, lets `UNIQUE (project_id, user_id, hash)` skip them, its appends taking turns: a
duplicate is one of the same author's events.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

import structlog

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.events import Event, SourceCursor, SourceTool
from squirrel_memory.models import Episode, StoredEvent
from squirrel_memory.storage.checks import (
    MAX_KEY_CHARS,
    check_cursor,
    check_limit,
    check_project,
    check_text,
    chunks,
)
from squirrel_memory.storage.dialect import Dialect
from squirrel_memory.storage.event_sql import (
    SELECT_EPISODE,
    SELECT_EVENT,
    cursor_row,
    episode_from_row,
    event_from_row,
    event_row,
    mark_events,
    write_episodes,
)
from squirrel_memory.storage.formats import new_id
from squirrel_memory.storage.intake import EventIntake
from squirrel_memory.storage.queries import PlanRunner, ReadPlan, fetch, first, number
from squirrel_memory.storage.values import AppendResult

log = structlog.get_logger()


_EVENT_COLUMNS = SELECT_EVENT.removeprefix("SELECT ").removesuffix(" FROM events ")


@dataclass(frozen=True, slots=True)
class EventBatch:
    """The events one `append_events` call stores (checked and hashed where the backend stores
    them, `EventIntake._prepare_events`), with the cursors read with them (checked)."""

    project_id: str
    user_id: str
    events: Sequence[Event]
    cursors: Sequence[SourceCursor]
    read_at: datetime
    """When the call came: the cursors' `updated_at`."""

    def event_rows(
        self, d: Dialect, prepared: Iterable[tuple[Event, str, str]]
    ) -> list[tuple[Any, ...]]:
        """The values of `insert_event_sql` for these checked events, each with a new id."""
        return [event_row(d, new_id("evt"), self.project_id, self.user_id, p) for p in prepared]

    def cursor_rows(self, d: Dialect) -> list[tuple[Any, ...]]:
        """The values of `upsert_cursor_sql` for the batch's cursors."""
        read_at = d.store_time(self.read_at)
        return [cursor_row(d, self.project_id, c, read_at) for c in self.cursors]


class StoredBatch(NamedTuple):
    """What a backend stored of an `EventBatch`: the ids of the new events, in order; the
    duplicates it skipped; the (index, reason) of the events it rejected."""

    ids: list[str]
    duplicates: int
    rejected: list[tuple[int, str]]


class SharedEventLog(EventIntake, PlanRunner):
    """Events, cursors and episodes of one project; a backend names its `_dialect`, answers
    plans (`_read`, `_write`) and stores a batch of events (`_store_events`)."""

    if TYPE_CHECKING:  # the backend's

        async def _store_events(self, batch: EventBatch) -> StoredBatch:
            """Store the valid, new events of `batch` and its cursors in one transaction."""
            ...

    async def _events(self, sql: str, *params: Any) -> list[StoredEvent]:
        d = self._dialect
        rows = await self._read(fetch(SELECT_EVENT + sql, *params))
        return [event_from_row(d, r) for r in rows]

    async def append_events(
        self,
        project_id: str,
        user_id: str,
        events: Sequence[Event],
        cursors: Sequence[SourceCursor],
    ) -> AppendResult:
        """Store new events and the cursors read with them in one transaction.

        Invalid events are rejected with a reason (never failing the batch); events whose dedup
        hash is already stored, or appears earlier in the batch, are counted as duplicates.
        An invalid cursor or user id raises `InvalidArgumentError` and nothing is written.
        """
        check_project(self.project_id, project_id)
        check_text("user_id", user_id, MAX_KEY_CHARS)
        checked_cursors = [check_cursor(c) for c in cursors]
        ids, duplicates, rejected = await self._store_events(
            EventBatch(project_id, user_id, events, checked_cursors, self._clock())
        )
        log.info(
            "events_appended",
            project_id=project_id,
            accepted=len(ids),
            duplicates=duplicates,
            rejected=len(rejected),
            cursors=len(checked_cursors),
        )
        return AppendResult(len(ids), duplicates, rejected, tuple(ids))

    async def get_cursors(self, project_id: str) -> list[SourceCursor]:
        """Every stored cursor of this project."""
        check_project(self.project_id, project_id)
        rows = await self._read(
            fetch(
                'SELECT source_tool, path, inode, "offset", extra FROM source_cursors '  # noqa: S608
                f"WHERE project_id = {self._dialect.mark} ORDER BY source_tool, path",
                project_id,
            )
        )
        return [
            SourceCursor(SourceTool(r[0]), r[1], int(r[2]), int(r[3]), json.loads(r[4]))
            for r in rows
        ]

    async def fetch_unprocessed(self, project_id: str, limit: int = 200) -> list[StoredEvent]:
        """The oldest `limit` events not yet processed, by timestamp."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        d = self._dialect
        return await self._events(
            f"{d.indexed('idx_events_unprocessed')}WHERE project_id = {d.mark} "
            f"AND processed_at IS NULL ORDER BY timestamp, id LIMIT {d.mark}",
            project_id,
            limit,
        )

    async def fetch_unprocessed_of_sessions(
        self, project_id: str, session_ids: Sequence[str | None], limit: int
    ) -> list[StoredEvent]:
        """Every unprocessed event of these sessions (None: events without a session), oldest
        first, at most `limit`; lets the processor see a whole session at once."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        named = [s for s in dict.fromkeys(session_ids) if s is not None]
        unnamed = any(s is None for s in session_ids)
        d = self._dialect
        m = d.mark
        return await self._events(
            f"{d.indexed('idx_events_unprocessed')}WHERE project_id = {m} "
            f"AND processed_at IS NULL AND (session_id {d.in_list} OR "
            f"({m} AND session_id IS NULL)) ORDER BY timestamp, id LIMIT {m}",
            project_id,
            d.store_list(named),
            d.store_flag(unnamed),
            limit,
        )

    async def fetch_recent_of_types(
        self,
        project_id: str,
        event_types: Sequence[str],
        limit: int,
        origin: str | None = None,
        *,
        user_id: str | None = None,
    ) -> list[StoredEvent]:
        """The newest `limit` events of these types (and of this origin, and delivered by this
        user, when given), processed or not, oldest first: the project-wide evidence (every
        session's commands) that recipes and pitfalls weigh, or one user's messages."""
        check_project(self.project_id, project_id)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 100_000:
            raise InvalidArgumentError("limit must be an integer from 1 to 100000")
        d = self._dialect
        m = d.mark
        found = await self._events(
            f"{d.indexed('idx_events_project_time')}WHERE project_id = {m} "
            f"AND event_type {d.in_list} AND ({d.null_text} OR origin = {m}) "
            f"AND ({d.null_text} OR user_id = {m}) "
            f"ORDER BY timestamp DESC, id DESC LIMIT {m}",
            project_id,
            d.store_list(list(dict.fromkeys(event_types))),
            origin,
            origin,
            user_id,
            user_id,
            limit,
        )
        return list(reversed(found))

    async def get_events(self, event_ids: Sequence[str]) -> list[StoredEvent]:
        """The stored events with these ids (unknown ids are skipped), by timestamp."""
        ids = list(dict.fromkeys(event_ids))
        d = self._dialect

        def read() -> ReadPlan[list[StoredEvent]]:
            found: list[StoredEvent] = []
            for chunk in chunks(ids):
                rows = yield from fetch(f"{SELECT_EVENT}WHERE id {d.in_list}", d.store_list(chunk))
                found.extend(event_from_row(d, r) for r in rows)
            return sorted(found, key=lambda e: (e.timestamp, e.id))

        return await self._read(read())

    async def events_after(self, position: int, limit: int) -> list[tuple[int, StoredEvent]]:
        """Events of this project stored after `position` (SQLite's rowid; on Postgres a
        sequence whose appends of one project take turns), oldest first, with their positions:
        what a laptop has not yet delivered to its team server."""
        d = self._dialect
        mine, params = d.of_project(self.project_id)
        rows = await self._read(
            fetch(
                f"SELECT {d.position}, {_EVENT_COLUMNS} FROM events "  # noqa: S608 (constants)
                f"WHERE {d.position} > {d.mark}{mine} ORDER BY {d.position} LIMIT {d.mark}",
                position,
                *params,
                limit,
            )
        )
        return [(int(r[0]), event_from_row(d, r[1:])) for r in rows]

    async def count_events_after(self, position: int) -> int:
        """How many events were stored after `position` (see `events_after`)."""
        d = self._dialect
        mine, params = d.of_project(self.project_id)
        return await self._read(
            number(
                f"SELECT COUNT(*) FROM events WHERE {d.position} > {d.mark}{mine}",  # noqa: S608
                position,
                *params,
            )
        )

    async def count_unprocessed(self, project_id: str) -> int:
        """How many events wait for processing."""
        check_project(self.project_id, project_id)
        return await self._read(
            number(
                "SELECT COUNT(*) FROM events "  # noqa: S608 (constants)
                f"WHERE project_id = {self._dialect.mark} AND processed_at IS NULL",
                project_id,
            )
        )

    async def count_events(self, project_id: str) -> int:
        """How many events are stored."""
        check_project(self.project_id, project_id)
        return await self._read(
            number(
                f"SELECT COUNT(*) FROM events WHERE project_id = {self._dialect.mark}",  # noqa: S608
                project_id,
            )
        )

    async def save_episodes(self, episodes: Sequence[Episode]) -> list[str]:
        """Insert (or replace, by id) episodes and their event lists; return their ids."""
        self._check_episodes(episodes)
        await self._write(write_episodes(self._dialect, episodes))
        return [ep.id for ep in episodes]

    async def mark_processed(self, event_ids: Sequence[str], at: datetime | None = None) -> int:
        """Set `processed_at` on events not yet processed; return how many changed."""
        return await self._write(mark_events(self._dialect, event_ids, at or self._clock()))

    async def get_episode(self, episode_id: str) -> Episode:
        """One stored episode with its event ids in order; `NotFoundError` if unknown."""
        d = self._dialect
        mine, params = d.of_project(self.project_id)

        def read() -> ReadPlan[Episode | None]:
            row = yield from first(
                f"{SELECT_EPISODE}WHERE id = {d.mark}{mine}", episode_id, *params
            )
            if row is None:
                return None
            ids = yield from fetch(
                "SELECT event_id FROM episode_events "  # noqa: S608 (constants)
                f"WHERE episode_id = {d.mark} ORDER BY position",
                episode_id,
            )
            return episode_from_row(d, row, ids)

        episode = await self._read(read())
        if episode is None:
            raise NotFoundError(f"no episode {episode_id}")
        return episode
