"""What the one-long-session benches share (`bench.session_requests`, `bench.session_routines`):
a user request as a stored event, the timing of one rule over a made-up session, a digest of
what it found, and the table they print."""

from __future__ import annotations

import hashlib
import json
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol

from squirrel_memory.models import StoredEvent

START = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)


class Found(Protocol):
    """What a session rule finds: its key, wording, message count and the messages cited."""

    @property
    def key(self) -> str: ...
    @property
    def wording(self) -> str: ...
    @property
    def messages(self) -> int: ...
    @property
    def event_ids(self) -> tuple[str, ...]: ...


def user_request(n: int, text: str) -> StoredEvent:
    """The `n`th typed request of the made-up session `s0`, 20 seconds after the one before."""
    return StoredEvent(
        id=f"s0_{n:06d}",
        project_id="/work/shop",
        user_id="dev",
        source_tool="claude_code",
        session_id="s0",
        timestamp=START + timedelta(seconds=20 * n),
        event_type="user_message",
        content={"text": text},
        file_paths=(),
        hash=f"h{n}",
        origin="typed",
    )


def digest(found: Sequence[Found]) -> str:
    """What was found, as a short hash: the same on two trees when their outputs are equal."""
    shown = [[r.key, r.wording, r.messages, list(r.event_ids)] for r in found]
    return hashlib.sha256(json.dumps(shown).encode()).hexdigest()[:16]


def timed(
    events: list[StoredEvent], repeat: int, rule: Callable[[list[StoredEvent]], Sequence[Found]]
) -> dict[str, object]:
    """`rule` run `repeat` times over `events`: median and p95 seconds, requests per second,
    what it found (count and digest) and the process's peak RSS."""
    times: list[float] = []
    found: Sequence[Found] = []
    for _ in range(repeat):
        began = time.perf_counter()
        found = rule(events)
        times.append(time.perf_counter() - began)
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    median = statistics.median(times)
    return {
        "requests": len(events),
        "median_s": round(median, 4),
        "p95_s": round(p95, 4),
        "requests_per_s": round(len(events) / median) if median else 0,
        "found": len(found),
        "digest": digest(found),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main(argv: list[str], measure: Callable[[int, int], dict[str, object]]) -> int:
    """`[--sizes 1000,10000] [--repeat 3] [--json]`: one row of `measure(size, repeat)` per
    size, as a Markdown table or JSON."""
    sizes = [1000, 10000]
    repeat = 3
    for i, arg in enumerate(argv):
        if arg == "--sizes" and i + 1 < len(argv):
            sizes = [int(s) for s in argv[i + 1].split(",") if s]
        if arg == "--repeat" and i + 1 < len(argv):
            repeat = max(1, int(argv[i + 1]))
    rows = [measure(size, repeat) for size in sizes]
    if "--json" in argv:
        print(json.dumps(rows, indent=2))
        return 0
    head = list(rows[0])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in head) + " |")
    return 0
