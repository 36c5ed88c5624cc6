"""The decisions study: what the rules keep of the choices the user makes in free dialogue,
between options the assistant laid out in its reply (`bench/decisions_cases.py`).

Each case goes alone into its own project through the real pipeline (the offline `rules`
extractor, as `bench.answer_key` runs it) and is judged as `bench.facts_study_sessions` judges
its cases: a decision is found when one project fact or user-style memory states every one of
its patterns (`unsure` ones count apart: found is a bonus, missed is not counted); a memory of
any type that matches a `never` pattern is wrong; noise is wrong or junk (the answer key's junk
rules) among the project facts and user-style memories.

Usage: python -m bench.decisions_study [--case NAME ...] [--details]
"""

from __future__ import annotations

from collections.abc import Sequence

from bench.decisions_cases import CASES, FOUND_IN, Case
from bench.facts_study import Result
from bench.facts_study_sessions import case_study_main, judge_kinds


def judge(case: Case, memories: Sequence[tuple[str, str]]) -> Result:
    """Each decision found or missed; each memory wrong (of any type), junk or neither."""
    return judge_kinds(case, memories, FOUND_IN)


def main(argv: Sequence[str] | None = None) -> int:
    return case_study_main(
        argv,
        "python -m bench.decisions_study",
        __doc__,
        CASES,
        judge,
        FOUND_IN,
        "decisions (made-up sessions)",
        28,
    )


if __name__ == "__main__":
    raise SystemExit(main())
