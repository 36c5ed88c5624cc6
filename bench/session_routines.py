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

import random
import sys

from bench import session_timing
from bench.session_timing import digest, user_request
from squirrel_memory.extractors.session_routines import session_routines
from squirrel_memory.models import StoredEvent

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
        events.append(user_request(n, text))
    return events


def measure(size: int, repeat: int) -> dict[str, object]:
    """`session_routines` timed on a made-up session of `size` requests (`session_timing.timed`)."""
    return session_timing.timed(made_up_session(size), repeat, session_routines)


def main(argv: list[str]) -> int:
    return session_timing.main(argv, measure)


__all__ = ["digest", "made_up_session", "main", "measure"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
