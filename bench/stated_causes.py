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

import sys

from bench import pitfall_shapes
from bench.stated_cause_cases import CASES


def main(argv: list[str] | None = None) -> int:
    return pitfall_shapes.main(argv, cases=CASES, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
