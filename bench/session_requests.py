"""How long `session_requests` (a request about how work is done, asked again in one session
along other work) takes on one long session, and what it finds.

    python -m bench.session_requests [--sizes 1000,10000] [--repeat 3] [--json]

A made-up session of N user requests, in the shape of real ones: mostly tasks (fix, add,
rename, wire, look at …) on the modules of a Rust crate and a TypeScript web app, and, every
so often, a request about how the work is done (run the tests and the type checker before
pushing, reply to the review comments citing the fix commits, …) in several wordings, with the
"ok"/"yes" a user sends between. Prints per size the median and p95 seconds over `--repeat`
runs, the requests per second, the process's peak RSS, and a digest of what was found (the
keys, wordings, message counts and event ids), so two trees can be compared: the digest must
be the same.
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

from squirrel_memory.extractors.session_requests import SessionRequest, session_requests
from squirrel_memory.models import StoredEvent

START = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)

_TASKS = (
    "fix the {thing} in the {module} module",
    "add a {thing} to the {module} page",
    "rename the {thing} helper in {module} to something clearer",
    "look at why the {thing} breaks when the {module} cache is cold",
    "wire the {thing} into the {module} summary",
    "make the {thing} in {module} handle an empty list",
    "Now the {thing} complaint in the {module} module.",
    "What else is open on the {module} pull request?",
)
_THINGS = (
    "lifetime error",
    "loading state",
    "coupon field",
    "retry budget",
    "borrow checker complaint",
    "date picker",
    "token parser",
    "error banner",
    "pagination cursor",
    "slug generator",
)
_MODULES = ("lexer", "checkout", "cart", "parser", "billing", "search", "auth", "settings")
_PROCESS = (
    "run the type checker and the unit tests before you push the branch",
    "ok, run the unit tests and the type checker again before pushing",
    "reply to the review comments citing the fix commits",
    "check the open comments too, and reply to them citing the fix commits as well",
    "format the changed files and run the linter before committing",
    "run the linter and format the files again before the commit",
)
_SHORT = ("ok", "yes", "thanks", "go on")


def made_up_session(size: int, seed: int = 7) -> list[StoredEvent]:
    """`size` user requests of one session, in order, 20 seconds apart."""
    rng = random.Random(seed)
    events: list[StoredEvent] = []
    for n in range(size):
        roll = rng.random()
        if roll < 0.12:
            text = rng.choice(_PROCESS)
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


def digest(found: list[SessionRequest]) -> str:
    """What was found, as a short hash: the same on two trees when their outputs are equal."""
    shown = [[r.key, r.wording, r.messages, list(r.event_ids)] for r in found]
    return hashlib.sha256(json.dumps(shown).encode()).hexdigest()[:16]


def measure(size: int, repeat: int) -> dict[str, object]:
    events = made_up_session(size)
    times: list[float] = []
    found: list[SessionRequest] = []
    for _ in range(repeat):
        began = time.perf_counter()
        found = session_requests(events)
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
