"""When a session is processed, each memory it was served gets its outcome, stored as an event.

The gateway records what each session was served (`RecordServedMemories`); the processor calls
`judge_sessions` with the events of the sessions it just processed. A memory shown at session
start is judged on the whole session; one shown for a prompt, on what happened from that
prompt on (`verdict.outcome_of`). What the session's Squirrel MCP answers showed is read from its
transcript first (`mcp_served`). Served memories of a session processed before they were recorded
wait for the session's next processing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

import structlog

from squirrel_memory.anchors import recheck_after_processing
from squirrel_memory.models import StoredEvent
from squirrel_memory.outcomes.book import OutcomeBooks
from squirrel_memory.outcomes.mcp_served import served_through_mcp
from squirrel_memory.outcomes.verdict import ServedMemory, outcome_of, session_activity
from squirrel_memory.storage import Store
from squirrel_memory.storage.outcome_log import OutcomeCounts, OutcomeEvent, ServedRecord

log = structlog.get_logger()

PROMPT_SLACK: Final = timedelta(seconds=2)
"""A prompt's answer is timed by the gateway, its events by the transcript: what happened this
close before the answer still counts as after it."""


async def judge_sessions(
    books: OutcomeBooks,
    store: Store,
    events: Sequence[StoredEvent],
    *,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> list[OutcomeEvent]:
    """Judge the served memories of the sessions of `events` that have no outcome yet; store
    and return the outcomes."""
    by_session: dict[str, list[StoredEvent]] = {}
    for event in events:
        if event.session_id:
            by_session.setdefault(event.session_id, []).append(event)
    if not by_session:
        return []
    through_mcp = await served_through_mcp(store, events)
    if through_mcp:
        await record_served(store, through_mcp)
    pending = await store.pending_served(list(by_session))
    if not pending:
        return []
    items = {m.id: m for m in await store.get_memories([r.memory_id for r in pending])}
    grouped: dict[str, list[ServedRecord]] = {}
    for record in pending:
        grouped.setdefault(record.session_id, []).append(record)
    now = clock()
    judged: list[OutcomeEvent] = []
    for session_id, records in grouped.items():
        activity = session_activity(session_id, by_session[session_id], store.project_id)
        for record in records:
            item = items.get(record.memory_id)
            if item is None:
                continue
            served_at = (
                None if record.channel == "session_start" else record.served_at - PROMPT_SLACK
            )
            outcome = outcome_of(
                ServedMemory(str(item.type), item.key, item.content, served_at, item.file_paths),
                activity,
                store.project_id,
            )
            judged.append(
                OutcomeEvent(
                    item.id,
                    session_id,
                    outcome.value,
                    item.version,
                    record.served_at,
                    now,
                    record.channel,
                )
            )
    await store.append_outcomes(judged)
    await (await books.of(store)).apply(judged)
    log.info("served_memories_judged", sessions=len(grouped), outcomes=len(judged))
    return judged


async def after_processing(
    books: OutcomeBooks, store: Store, events: Sequence[StoredEvent]
) -> None:
    """What runs after a processing pass: the served memories of its sessions are judged, and
    the `path:line` anchors in the files its events changed are re-checked
    (`squirrel_memory.anchors`)."""
    await judge_sessions(books, store, events)
    await recheck_after_processing(books, store, events)


async def record_served(store: Store, records: Sequence[ServedRecord]) -> int:
    """Store what a session was served; ids that name no memory of the project are left out
    (a memory of another project, or a line with no memory behind it). Returns how many
    (session, memory) pairs were new."""
    ids = list(dict.fromkeys(r.memory_id for r in records))
    known = {m.id for m in await store.get_memories(ids)} if ids else set()
    kept = [r for r in records if r.memory_id in known]
    recorded = await store.record_served(kept)
    log.info("served_memories_recorded", served=len(records), recorded=recorded)
    return recorded


@dataclass(frozen=True, slots=True)
class OutcomeReport:
    """A project's served memories over its last sessions, and its memories stale now."""

    counts: OutcomeCounts
    stale: int


async def outcome_report(books: OutcomeBooks, store: Store, sessions: int) -> OutcomeReport:
    """Served / used / missed / contradicted / unused over the last `sessions` served sessions,
    and how many live memories are stale now."""
    counts = await store.outcome_counts(sessions)
    book = await books.of(store)
    flagged = book.contradicted_ids()
    items = await store.get_memories(flagged) if flagged else []
    stale = sum(1 for m in items if not m.deleted and book.is_stale(m, store.confirmations))
    return OutcomeReport(counts, stale)
