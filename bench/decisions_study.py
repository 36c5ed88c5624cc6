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

from bench.answer_key_score import Memory, junk_reason
from bench.decisions_cases import CASES, FOUND_IN, Case
from bench.facts_study import Result
from bench.facts_study_sessions import case_study_main


def judge(case: Case, memories: Sequence[tuple[str, str]]) -> Result:
    """Each decision found or missed; each memory wrong, junk or neither."""
    result = Result()
    for kind, text in memories:
        hit = next((n for n in case.never if n.pattern.search(text)), None)
        if hit:
            result.wrong.append((text, hit.reason))
        elif kind in FOUND_IN and (reason := junk_reason(Memory(kind, "", text))):
            result.junk.append((text, reason))
    usable = [
        text
        for kind, text in memories
        if kind in FOUND_IN and not any(n.pattern.search(text) for n in case.never)
    ]
    for fact in case.facts:
        if any(all(r.search(text) for r in fact.match) for text in usable):
            (result.bonus if fact.unsure else result.found).append(fact.fact)
        elif not fact.unsure:
            result.missed.append(fact.fact)
    return result


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
