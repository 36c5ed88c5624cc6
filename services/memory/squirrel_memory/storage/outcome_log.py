"""The storage contract of served memories and their outcomes: what the gateway says a session
was served, and what became of each served memory once its session was processed.

Both tables are append-only: a memory served twice to one session is recorded once (its first
serving), and each (session, memory) gets at most one outcome, never changed afterwards. The
memory itself is never edited by an outcome: its standing (`squirrel_memory.outcomes.book`) is
read from these events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.storage.checks import MAX_KEY_CHARS, MAX_SESSION_ID_CHARS, check_text
from squirrel_memory.storage.queries import PlanRunner, ReadPlan, fetch

CHANNELS = frozenset({"session_start", "prompt", "mcp"})
SERVED_COLUMNS = ("session_id", "memory_id", "served_at", "channel")
OUTCOME_COLUMNS = ("memory_id", "session_id", "outcome", "version", "served_at", "judged_at")
OUTCOMES = ("used", "missed", "contradicted", "unused")
MAX_SERVED_PER_CALL = 1000


@dataclass(frozen=True, slots=True)
class ServedRecord:
    """One memory a session was shown: when, and where (`session_start`, `prompt`, `mcp`)."""

    session_id: str
    memory_id: str
    served_at: datetime
    channel: str


@dataclass(frozen=True, slots=True)
class OutcomeEvent:
    """What became of a served memory in one session; `version` is the memory's version when
    it was judged (a rewrite since then makes a later version); `channel` is where the session
    was first served it (`session_start`, `prompt`, `mcp`: its served record's; "" when no
    served record is read with it)."""

    memory_id: str
    session_id: str
    outcome: str
    version: int
    served_at: datetime
    judged_at: datetime
    channel: str = ""


@dataclass(frozen=True, slots=True)
class OutcomeCounts:
    """Served memories of a project's last `sessions` served sessions, by outcome."""

    sessions: int = 0
    served: int = 0
    used: int = 0
    missed: int = 0
    contradicted: int = 0
    unused: int = 0

    @property
    def pending(self) -> int:
        return self.served - self.used - self.missed - self.contradicted - self.unused


def check_served(records: Sequence[ServedRecord]) -> None:
    """Raises `InvalidArgumentError` for a batch no backend may store."""
    if len(records) > MAX_SERVED_PER_CALL:
        raise InvalidArgumentError(f"at most {MAX_SERVED_PER_CALL} served memories per call")
    for record in records:
        check_text("session_id", record.session_id, MAX_SESSION_ID_CHARS)
        check_text("memory_id", record.memory_id, MAX_KEY_CHARS)
        if not record.session_id or not record.memory_id:
            raise InvalidArgumentError("a served memory needs a session id and a memory id")
        if record.channel not in CHANNELS:
            raise InvalidArgumentError(f"channel must be one of {sorted(CHANNELS)}")
        if record.served_at.tzinfo is None:
            raise InvalidArgumentError("served_at must carry a time zone")


def check_outcomes(events: Sequence[OutcomeEvent]) -> None:
    """Raises `InvalidArgumentError` for an outcome no backend may store."""
    for event in events:
        if event.outcome not in OUTCOMES:
            raise InvalidArgumentError(f"outcome must be one of {list(OUTCOMES)}")
        if event.version < 1:
            raise InvalidArgumentError("version must be at least 1")


def summarise(rows: Sequence[tuple[str, str | None]], sessions: int) -> OutcomeCounts:
    """Counts from (session id, outcome or None) rows of `sessions` sessions."""
    tally = dict.fromkeys(OUTCOMES, 0)
    for _, outcome in rows:
        if outcome in tally:
            tally[outcome] += 1
    return OutcomeCounts(sessions=sessions, served=len(rows), **tally)


class OutcomeLog(Protocol):
    """Served memories and their outcomes, of one project."""

    async def record_served(self, records: Sequence[ServedRecord]) -> int:
        """Store what sessions were served; a (session, memory) already stored is kept as it
        was. Returns how many were new."""
        ...

    async def pending_served(self, session_ids: Sequence[str]) -> list[ServedRecord]:
        """The memories these sessions were served that have no outcome yet."""
        ...

    async def append_outcomes(self, events: Sequence[OutcomeEvent]) -> int:
        """Append outcomes; one already stored for its (session, memory) is left as it was.
        Returns how many were new."""
        ...

    async def outcome_events(
        self, memory_ids: Sequence[str] | None = None, limit: int = 0
    ) -> list[OutcomeEvent]:
        """Outcomes of these memories (None: all of the project), oldest first; with `limit`,
        the newest `limit` of them."""
        ...

    async def outcome_counts(self, sessions: int) -> OutcomeCounts:
        """Served memories of the last `sessions` sessions served any, by outcome."""
        ...


class SharedOutcomeLog(PlanRunner):
    """`OutcomeLog` written once for both backends; each inserts rows its own way
    (`_insert_new`: Postgres in one statement over arrays, SQLite row by row on its writer)."""

    if TYPE_CHECKING:  # the backend's

        async def _insert_new(
            self, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]
        ) -> int:
            """Insert the rows of this project (none: nothing to do); a row whose key is
            stored already is left as it was. Returns how many were new."""
            ...

    async def record_served(self, records: Sequence[ServedRecord]) -> int:
        check_served(records)
        when = self._dialect.store_time
        rows = [(r.session_id, r.memory_id, when(r.served_at), r.channel) for r in records]
        return await self._insert_new("served_memories", SERVED_COLUMNS, rows) if rows else 0

    async def append_outcomes(self, events: Sequence[OutcomeEvent]) -> int:
        check_outcomes(events)
        when = self._dialect.store_time
        rows = [
            (e.memory_id, e.session_id, e.outcome, e.version, when(e.served_at), when(e.judged_at))
            for e in events
        ]
        return await self._insert_new("memory_outcomes", OUTCOME_COLUMNS, rows) if rows else 0

    def _mine(self, alias: str) -> tuple[list[str], tuple[Any, ...]]:
        """The condition that keeps a read in this project, with its parameter: none on a
        database of one project."""
        if not self._dialect.shared:
            return [], ()
        return [f"{alias}project_id = {self._dialect.mark}"], (self.project_id,)

    def _served_with_outcomes(self) -> str:
        """Served memories `s` beside their outcomes `o` (none yet: NULL)."""
        same = " AND o.project_id = s.project_id" if self._dialect.shared else ""
        return (
            "FROM served_memories s LEFT JOIN memory_outcomes o ON o.session_id = s.session_id "
            f"AND o.memory_id = s.memory_id{same}"
        )

    async def pending_served(self, session_ids: Sequence[str]) -> list[ServedRecord]:
        ids = list(dict.fromkeys(session_ids))
        if not ids:
            return []
        d = self._dialect
        mine, params = self._mine("s.")
        where = " AND ".join([*mine, "o.seq IS NULL", f"s.session_id {d.in_list}"])
        rows = await self._read(
            fetch(
                f"SELECT s.session_id, s.memory_id, s.served_at, s.channel "
                f"{self._served_with_outcomes()} WHERE {where} ORDER BY s.served_at, s.memory_id",
                *params,
                d.store_list(ids),
            )
        )
        return [ServedRecord(str(r[0]), str(r[1]), d.load_time(r[2]), str(r[3])) for r in rows]

    async def outcome_events(
        self, memory_ids: Sequence[str] | None = None, limit: int = 0
    ) -> list[OutcomeEvent]:
        d = self._dialect
        listed = None if memory_ids is None else d.store_list(list(dict.fromkeys(memory_ids)))
        mine, params = self._mine("o.")
        where = " AND ".join([*mine, f"({d.null_list} OR o.memory_id {d.in_list})"])
        newest = (f" LIMIT {d.mark}", (limit,)) if limit > 0 else ("", ())
        # Each outcome beside its served record, for where it was served (one per session and
        # memory, as the outcome: both tables are keyed so).
        same = " AND s.project_id = o.project_id" if d.shared else ""
        rows = await self._read(
            fetch(
                "SELECT o.memory_id, o.session_id, o.outcome, o.version, o.served_at, "  # noqa: S608 (constants)
                "o.judged_at, s.channel FROM memory_outcomes o LEFT JOIN served_memories s "
                f"ON s.session_id = o.session_id AND s.memory_id = o.memory_id{same} "
                f"WHERE {where} ORDER BY o.seq DESC{newest[0]}",
                *params,
                listed,
                listed,
                *newest[1],
            )
        )
        return [
            OutcomeEvent(
                str(r[0]),
                str(r[1]),
                str(r[2]),
                int(r[3]),
                d.load_time(r[4]),
                d.load_time(r[5]),
                str(r[6] or ""),
            )
            for r in reversed(rows)
        ]

    async def outcome_counts(self, sessions: int) -> OutcomeCounts:
        d = self._dialect
        mine, params = self._mine("")
        mine_s, _ = self._mine("s.")
        where = f"WHERE {mine[0]} " if mine else ""

        def counts() -> ReadPlan[OutcomeCounts]:
            recent = yield from fetch(
                f"SELECT session_id FROM served_memories {where}GROUP BY session_id "  # noqa: S608
                f"ORDER BY MIN(served_at) DESC, session_id LIMIT {d.mark}",
                *params,
                max(0, sessions),
            )
            if not recent:
                return OutcomeCounts()
            of_recent = " AND ".join([*mine_s, f"s.session_id {d.in_list}"])
            rows = yield from fetch(
                f"SELECT s.session_id, o.outcome {self._served_with_outcomes()} WHERE {of_recent}",
                *params,
                d.store_list([r[0] for r in recent]),
            )
            return summarise([(r[0], r[1]) for r in rows], len(recent))

        return await self._read(counts())
