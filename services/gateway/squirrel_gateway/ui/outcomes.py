"""The memory page's outcome history: what became of the memory in each session served it."""

from __future__ import annotations

from collections import Counter
from typing import Final

from squirrel.v1 import memory_service_pb2
from squirrel_gateway.ui.html import esc, table, when

MEANINGS: Final = {
    "used": "its command ran, its file was touched, or its pitfall's trigger ran without the error",
    "missed": "its error happened anyway, or its rule had to be said again",
    "contradicted": "its command failed every time, or the user said the opposite",
    "unused": "the session did nothing it speaks of",
}


def stale_note(reply: memory_service_pb2.GetMemoryHistoryResponse) -> str:
    """A warning when a session contradicted the memory (and it is kept out of hooks)."""
    if not reply.stale:
        return ""
    return (
        " <span class='flag' title='a session contradicted it; confirm or correct it to use it "
        "again'>⚠ stale: left out of hooks until confirmed or corrected</span>"
    )


#: Where a session was shown a memory (`MemoryOutcome.channel`), as the table says it.
_CHANNELS = {"session_start": "session start", "prompt": "a prompt", "mcp": "an MCP answer"}


def outcome_section(reply: memory_service_pb2.GetMemoryHistoryResponse) -> str:
    """Each session the memory was served in, oldest first, and what became of it there."""
    outcomes = list(reply.outcomes)
    if not outcomes:
        return "<h2>Outcomes</h2><p>No processed session has been served this memory yet.</p>"
    tally = Counter(o.outcome for o in outcomes)
    summary = ", ".join(f"{tally[k]} {k}" for k in MEANINGS if tally[k])
    rows = [
        [
            esc(when(o.served_at)),
            esc(o.session_id),
            esc(_CHANNELS.get(o.channel, o.channel)),
            f"<span title='{esc(MEANINGS.get(o.outcome, ''))}'>{esc(o.outcome)}</span>",
            str(o.version),
            esc(when(o.judged_at)),
        ]
        for o in outcomes
    ]
    return f"<h2>Outcomes</h2><p>{esc(summary)}.</p>" + table(
        "Each session it was served in, oldest first",
        ["Served", "Session", "Where", "Outcome", "Version", "Judged"],
        rows,
    )
