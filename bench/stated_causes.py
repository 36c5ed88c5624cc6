"""A failure the assistant explains in its next reply: what the rules keep, in a dozen ecosystems.

Each case of `bench/stated_cause_cases.py` (a command fails, the next reply says why and what it
changed in its own words, the command passes; and cases that must keep no pitfall: a guess taken
back, a hedged cause, a plan, a network blip, a typo, a test-first red step, a flaky rerun) goes
alone into its own project through the real pipeline (the offline `rules` extractor, as
`bench.answer_key` runs it). Prints the table of `bench.pitfall_shapes` (pitfalls kept, whether
one names the trigger, the cause and the fix, junk: a pitfall where none is due, on a progress
line, or stating a hedged or taken-back cause) and, with --memories, the memory each case
expects and every memory kept, in full.

Usage: python -m bench.stated_causes [--case NAME ...] [--memories]
"""

from __future__ import annotations

import argparse
import sys

from bench.pitfall_shapes import measure, report
from bench.stated_cause_cases import CASES
from squirrel_core.logs import configure_logging


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", default=[], help="only this case (repeatable)")
    parser.add_argument("--memories", action="store_true", help="print every memory kept")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    shapes = [s for s in CASES if not args.case or s.name in args.case]
    unknown = set(args.case) - {s.name for s in shapes}
    if unknown:
        print(f"no case named {sorted(unknown)}", file=sys.stderr)
        return 2
    outcomes = measure(shapes)
    print(report(outcomes))
    if args.memories:
        for o in outcomes:
            print(f"\n### {o.shape.name}\nexpected: {o.shape.expect}")
            print("\n".join(f"- [{kind}] {text}" for kind, text in sorted(o.memories)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
