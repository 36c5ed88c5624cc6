"""The rules extractor over sessions that hold one huge hostile text, at two sizes.

`python -m bench.hostile_texts [--sizes 8000,32000] [--slots user,say,out,cmd,read,write]
[--units ...] [--all]` builds, for each place a text can sit in a session (a user's message,
an assistant's reply, a failed command's output, a command line, a README read, a file
written) and each hostile text (a run of one character or short unit: braces, blanks, blank
lines, dots, slashes, underscores, `$(`, list items …), one session, and times the whole rules
extractor over it at each size. A rule that reads the text in one pass takes about four times
as long on a text four times as long; a pattern that reads it again from each position takes
sixteen times as long or more. The table prints the time at each size, their ratio, and the
time beside the same session holding plain prose of the larger size; without `--all`, only
rows whose ratio is above 6 or that take more than 5 times the prose are printed.
"""

from __future__ import annotations

import argparse
import logging
import time
from datetime import UTC, datetime

import structlog

from tests.unit.memory.session_builder import Session

SLOTS = ("user", "say", "out", "cmd", "read", "write")
#: Units repeated to the text's size (`\n` and `\t` as typed).
UNITS = [
    "{",
    "a",
    "[",
    "[a](",
    "/",
    ".",
    "`",
    "a.",
    "-",
    "_",
    "\\n",
    "a/",
    "a=",
    "'",
    '"',
    "(",
    "<",
    "#",
    "*",
    "a\\n",
    "\\s\\n",
    "-\\sa\\n",
    "1.\\s",
    ">\\s",
    "$\\s",
    ":",
    "a:",
    "always\\s",
    "don't\\s",
    "the\\s",
    "a,\\s",
    "a-",
    "|",
    "\\t",
    "--a\\s",
    "```",
    "**",
    "~/",
    "../",
    "@",
    "!",
    "?",
    "1",
    "é",
    "日",
    "а",
    "\\",
    "%",
    "$(",
    "&&",
    ";",
    "Error:\\s",
    "at\\s",
    "FAIL\\s",
    "✓",
    "…",
]
#: A ratio of times above this between the two sizes reads the text more than once.
RATIO_FLAG = 6.0
#: Times the plain prose of the same size above this is flagged too.
PLAIN_FLAG = 5.0


def _unit(spelled: str) -> str:
    return spelled.replace("\\s", " ").replace("\\n", "\n").replace("\\t", "\t")


def session(slot: str, text: str) -> Session:
    """A session of a request, then `text` in `slot`, then a closing reply."""
    built = Session("/home/dev/app", "s1", datetime(2026, 1, 1, tzinfo=UTC))
    built.user("fix the build please")
    if slot == "user":
        built.user("hello " + text)
    elif slot == "say":
        built.say("The cause: " + text)
    elif slot == "out":
        built.run("npm test", 1, "Error: " + text)
        built.edit("/home/dev/app/a.ts", "x")
        built.run("npm test", 0, "ok")
    elif slot == "cmd":
        built.run("npm test " + text, 1, "boom")
        built.run("npm test", 0, "ok")
    elif slot == "read":
        built.read("README.md", "# App\n\nApp is " + text)
    elif slot == "write":
        built.write("notes.md", "# Notes\n" + text)
    else:
        raise SystemExit(f"unknown slot {slot!r}; known: {', '.join(SLOTS)}")
    built.say("Done.")
    return built


def timed(slot: str, unit: str, size: int) -> float:
    """Seconds the rules extractor takes over the session holding `unit` repeated to `size`."""
    text = (unit * (size // len(unit) + 1))[:size]
    built = session(slot, text)
    start = time.perf_counter()
    built.extracted()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8000,32000", help="two text sizes, in characters")
    parser.add_argument("--slots", default=",".join(SLOTS))
    parser.add_argument("--units", default="", help="units to try, space-separated (\\n, \\s)")
    parser.add_argument("--all", action="store_true", help="print every row, not only flagged")
    args = parser.parse_args()
    small, large = (int(s) for s in args.sizes.split(","))
    units = [_unit(u) for u in (args.units.split() or UNITS)]
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    print(f"| slot | text | {small} chars s | {large} chars s | ratio | × prose |")
    print("|---|---|---|---|---|---|")
    flagged = 0
    for slot in args.slots.split(","):
        plain = timed(slot, "a b ", large)
        for unit in units:
            first, second = timed(slot, unit, small), timed(slot, unit, large)
            ratio, prose = second / max(first, 1e-4), second / max(plain, 1e-4)
            slow = ratio > RATIO_FLAG or prose > PLAIN_FLAG
            flagged += slow
            if slow or args.all:
                mark = " **slow**" if slow else ""
                print(
                    f"| {slot} | {unit!r} | {first:.3f} | {second:.3f} | {ratio:.1f}{mark} "
                    f"| {prose:.1f} |",
                    flush=True,
                )
    print(f"\n{flagged} of {len(units) * len(args.slots.split(','))} texts flagged")


if __name__ == "__main__":
    main()
