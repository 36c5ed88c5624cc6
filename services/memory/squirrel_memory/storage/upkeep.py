"""Upkeep of a project's rows, written once for both backends: view staleness records, dead
letters, retention and the counts `sqrl status` shows, as plans of statements (`queries`) in a
`Dialect`. What a backend says its own way is data on its class (which rows a prune keeps, how
its writers are counted) or its own method (`vacuum`: what only a file needs)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import structlog

from squirrel_core.errors import NotFoundError
from squirrel_memory.storage.checks import Clock, check_view_meta, dead_letter_error
from squirrel_memory.storage.queries import PlanRunner, changed, fetch, first
from squirrel_memory.storage.values import DeadLetter, ViewMeta

log = structlog.get_logger()


PRUNED = '{"pruned":true}'
"""The content a pruned event keeps."""
_LETTER = "id, kind, payload_ref, error, attempts, created_at, updated_at"
_VIEW_COLUMNS = ("view_name", "last_generated", "events_count_at_gen", "ttl_seconds")
COUNT_NAMES = (
    "events",
    "events_unprocessed",
    "episodes",
    "memories_live",
    "memories_deleted",
    "dead_letters",
)
"""The row counts `sqrl status` shows, in `counts`' order."""


class SharedUpkeep(PlanRunner):
    """View meta, dead letters, retention and counts; a backend names its `_dialect`, answers
    plans (`_read`, `_write`) and gives `_PRUNE` and `_WRITER_COUNTS`."""

    _clock: Clock
    _PRUNE: str
    """Processed events' content replaced by `PRUNED`, given (project, cutoff); events cited by
    a live memory keep theirs."""
    _WRITER_COUNTS: str
    """(writer, live memories), given the project's condition (`Dialect.of_project`)."""

    def _of_project(self) -> tuple[str, tuple[Any, ...]]:
        return self._dialect.of_project(self.project_id)

    async def get_view_meta(self, name: str) -> ViewMeta | None:
        """The staleness record of a view, or None if it was never built."""
        d = self._dialect
        mine, params = self._of_project()
        row = await self._read(
            first(
                f"SELECT {', '.join(_VIEW_COLUMNS)} FROM view_meta "  # noqa: S608 (constants)
                f"WHERE view_name = {d.mark}{mine}",
                name,
                *params,
            )
        )
        if row is None:
            return None
        return ViewMeta(row[0], d.load_time(row[1]), int(row[2]), int(row[3]))

    async def put_view_meta(
        self, name: str, last_generated: datetime, events_count_at_gen: int, ttl: int
    ) -> None:
        """Record that a view was built."""
        check_view_meta(name, events_count_at_gen, ttl)
        d = self._dialect
        project = ("project_id",) if d.shared else ()
        sql = d.insert_or_replace("view_meta", (*project, *_VIEW_COLUMNS), (*project, "view_name"))
        values = (name, d.store_time(last_generated), events_count_at_gen, ttl)
        await self._write(changed(sql, *([self.project_id] if d.shared else []), *values))

    # --- dead letters ---

    async def record_dead_letter(
        self, kind: str, payload_ref: str, error: str, *, count_attempt: bool = True
    ) -> DeadLetter:
        """Park failed work (`payload_ref` names it, e.g. an episode id); repeats add attempts
        (unless `count_attempt` is False: a forced retry keeps the automatic budget).

        `error` should name the failure (exception type, status), never transcript text.
        """
        text = dead_letter_error(kind, payload_ref, error)
        d, m = self._dialect, self._dialect.mark
        now = d.store_time(self._clock())
        project = ("project_id, ", f"{m}, ", [self.project_id]) if d.shared else ("", "", [])
        row = await self._write(
            first(
                f"INSERT INTO dead_letters ({project[0]}kind, payload_ref, error, attempts, "  # noqa: S608
                f"created_at, updated_at) VALUES ({project[1]}{m}, {m}, {m}, 1, {m}, {m}) "
                f"ON CONFLICT ({project[0]}kind, payload_ref) DO UPDATE SET "
                f"error = excluded.error, attempts = dead_letters.attempts + {m}, "
                f"updated_at = excluded.updated_at RETURNING {_LETTER}",
                *project[2],
                kind,
                payload_ref,
                text,
                now,
                now,
                int(count_attempt),
            )
        )
        assert row is not None
        letter = DeadLetter.of_row(row, d.load_time)
        log.warning("dead_letter_recorded", kind=kind, attempts=letter.attempts)
        return letter

    async def list_dead_letters(self, kind: str | None = None) -> list[DeadLetter]:
        """Parked work, oldest first."""
        d, m = self._dialect, self._dialect.mark
        mine, params = self._of_project()
        rows = await self._read(
            fetch(
                f"SELECT {_LETTER} FROM dead_letters "  # noqa: S608 (constants)
                f"WHERE ({d.null_text} OR kind = {m}){mine} ORDER BY id",
                kind,
                kind,
                *params,
            )
        )
        return [DeadLetter.of_row(r, d.load_time) for r in rows]

    async def resolve_dead_letter(self, dead_letter_id: int) -> None:
        """Remove a parked item (after a successful retry); `NotFoundError` if unknown."""
        mine, params = self._of_project()
        sql = f"DELETE FROM dead_letters WHERE id = {self._dialect.mark}{mine}"  # noqa: S608
        if await self._write(changed(sql, dead_letter_id, *params)) == 0:
            raise NotFoundError(f"no dead letter {dead_letter_id}")

    # --- retention ---

    async def prune_processed_events(self, older_than: datetime) -> int:
        """Drop the content of processed events older than `older_than`; return how many.

        Rows stay (id, hash, time, type, paths), so dedup still recognises the events if a
        source is read again and memories' `source_event_ids` still resolve. Events cited by a
        live memory keep their content. `vacuum()` gives the space back (on SQLite).
        """
        cutoff = self._dialect.store_time(older_than)
        count = await self._write(changed(self._PRUNE, self.project_id, cutoff))
        log.info("events_pruned", project_id=self.project_id, count=count)
        return count

    async def waiting_sessions(self, project_id: str) -> list[tuple[datetime, datetime]]:
        """(first, last) timestamp of the unprocessed events of each session of the project."""
        d = self._dialect
        rows = await self._read(
            fetch(
                "SELECT MIN(timestamp), MAX(timestamp) FROM events "  # noqa: S608 (constants)
                f"WHERE processed_at IS NULL AND project_id = {d.mark} GROUP BY session_id",
                project_id,
            )
        )
        return [(d.load_time(r[0]), d.load_time(r[1])) for r in rows]

    async def counts(self) -> dict[str, int]:
        """Row counts for `sqrl status`: events, unprocessed, episodes, memories, dead letters,
        in one statement. The deleted memories are all of them but the live: counting all reads
        the primary key alone, where `deleted = 1` scanned every row (SQLite)."""
        d = self._dialect
        mine, params = self._of_project()
        scope = mine.removeprefix(" AND ")
        counted = (
            ("events", ""),
            ("events", "processed_at IS NULL"),
            ("episodes", ""),
            ("memory_items", d.live),
            ("memory_items", ""),
            ("dead_letters", ""),
        )
        parts = []
        for table, condition in counted:
            where = " AND ".join(c for c in (condition, scope) if c)
            where = f" WHERE {where}" if where else ""
            parts.append(f"(SELECT COUNT(*) FROM {table}{where})")  # noqa: S608 (constants)
        row = await self._read(first(f"SELECT {', '.join(parts)}", *(params * len(counted))))
        assert row is not None  # an aggregate: one row
        events, unprocessed, episodes, live, memories, dead_letters = (int(n) for n in row)
        values = (events, unprocessed, episodes, live, memories - live, dead_letters)
        return dict(zip(COUNT_NAMES, values, strict=True))

    async def writer_counts(self) -> dict[str, int]:
        """Live memories per writer (`rules`, `manual`, `<backend>:<model>`)."""
        rows = await self._read(fetch(self._WRITER_COUNTS, *self._of_project()[1]))
        return {str(name or "rules"): int(count) for name, count in rows}

    async def events_per_day(self, since: datetime) -> dict[str, int]:
        """Events stored per day (`YYYY-MM-DD`, UTC, by event time) from `since` on."""
        d = self._dialect
        mine, params = self._of_project()
        rows = await self._read(
            fetch(
                f"SELECT {d.day}, COUNT(*) FROM events "  # noqa: S608 (constants)
                f"WHERE timestamp >= {d.mark}{mine} GROUP BY 1 ORDER BY 1",
                d.store_time(since),
                *params,
            )
        )
        return {str(day): int(count) for day, count in rows}
