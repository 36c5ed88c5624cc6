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

import random
import sys

from bench import session_timing
from bench.session_timing import digest, user_request
from squirrel_memory.extractors.session_requests import session_requests
from squirrel_memory.models import StoredEvent

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
        events.append(user_request(n, text))
    return events


def measure(size: int, repeat: int) -> dict[str, object]:
    """`session_requests` timed on a made-up session of `size` requests (`session_timing.timed`)."""
    return session_timing.timed(made_up_session(size), repeat, session_requests)


def main(argv: list[str]) -> int:
    return session_timing.main(argv, measure)


__all__ = ["digest", "made_up_session", "main", "measure"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
