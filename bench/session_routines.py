"""How long `session_routines` (a delivery step asked again in one session, each time after
other work) takes on one long session, and what it finds.

    python -m bench.session_routines [--sizes 1000,10000] [--repeat 3] [--json]

A made-up session of N user requests: mostly tasks on the modules of a Rust crate and a
TypeScript web app, and, every so often, a delivery step in the wordings users type ("commit
and push", "commit this", "okay, let's commit", "commit, then let's look at the lexer"),
and now and then a long stretch of them with only the "ok"/"continue" a user sends between (a
session where the user lets the assistant carry on and asks it to commit now and then: a
routine asked again there is one task asked twice, and every message of the stretch lies
between two of its requests). Prints per size the median and p95 seconds
over `--repeat` runs, the requests per second, the process's peak RSS, and a digest of what was
found (the keys, wordings, message counts and event ids), so two trees can be compared: the
digest must be the same.
"""

from __future__ import annotations

import hashlib
import json
import random
import resource
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta

from squirrel_memory.extractors.session_routines import SessionRoutine, session_routines
from squirrel_memory.models import StoredEvent

START = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)

_TASKS = (
    "fix the {thing} in the {module} module",
    "add a {thing} to the {module} page",
    "rename the {thing} helper in {module} to something clearer",
    "look at why the {thing} breaks when the {module} cache is cold",
    "wire the {thing} into the {module} summary",
    "What else is open on the {module} pull request?",
)
_THINGS = ("lifetime error", "loading state", "coupon field", "retry budget", "token parser")
_MODULES = ("lexer", "checkout", "cart", "parser", "billing", "search", "auth", "settings")
_ROUTINES = (
    "commit and push",
    "Commit and push.",
    "commit this",
    "push it",
    "okay, let's commit",
    "commit, then let's look at the {module} tests",
    "git add, commit and push",
)
#: What a stretch holds: the steps on their own (a message with more words is other work).
_IN_STRETCH = ("commit and push", "Commit and push.", "commit this", "push it", "commit")
_SHORT = ("ok", "yes", "continue", "go on")


def made_up_session(size: int, seed: int = 7) -> list[StoredEvent]:
    """`size` user requests of one session, in order, 20 seconds apart."""
    rng = random.Random(seed)
    events: list[StoredEvent] = []
    burst = 0
    for n in range(size):
        roll = rng.random()
        if burst:
            burst -= 1
            text = rng.choice(_IN_STRETCH + _SHORT)
        elif roll < 0.002:  # a stretch of delivery steps and acknowledgements, no other work
            burst = rng.randint(size // 20, size // 5)
            text = rng.choice(_ROUTINES).format(module=rng.choice(_MODULES))
        elif roll < 0.12:
            text = rng.choice(_ROUTINES).format(module=rng.choice(_MODULES))
        elif roll < 0.2:
            text = rng.choice(_SHORT)
        else:
            text = rng.choice(_TASKS).format(thing=rng.choice(_THINGS), module=rng.choice(_MODULES))
        events.append(
            StoredEvent(
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
        )
    return events


def digest(found: list[SessionRoutine]) -> str:
    """What was found, as a short hash: the same on two trees when their outputs are equal."""
    shown = [[r.key, r.wording, r.messages, list(r.event_ids)] for r in found]
    return hashlib.sha256(json.dumps(shown).encode()).hexdigest()[:16]


def measure(size: int, repeat: int) -> dict[str, object]:
    events = made_up_session(size)
    times: list[float] = []
    found: list[SessionRoutine] = []
    for _ in range(repeat):
        began = time.perf_counter()
        found = session_routines(events)
        times.append(time.perf_counter() - began)
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    median = statistics.median(times)
    return {
        "requests": size,
        "median_s": round(median, 4),
        "p95_s": round(p95, 4),
        "requests_per_s": round(size / median) if median else 0,
        "found": len(found),
        "digest": digest(found),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main(argv: list[str]) -> int:
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
