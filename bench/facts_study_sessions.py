"""The facts study's session set: what the project-fact rules state of a project's identity
(language, package manager or build tool, what it is, commit style, where a kind of code lives)
from made-up sessions in the ecosystems the answer key covers least
(`bench/facts_study_session_cases.py`).

Each case goes alone into its own project through the real pipeline (the offline `rules`
extractor, as `bench.answer_key` runs it) and is judged as `bench.facts_study` judges a folder:
facts found, missed (`unsure` ones count apart: found is a bonus, missed is not counted), wrong
(a project fact or recipe that matches a `never` pattern) and noise (wrong or junk by the answer
key's junk rules) among the project facts and recipes.

The second set (`bench/facts_study_session_cases_b.py`, `--set b`: the licence a project is
published under) and the third (`bench/facts_study_session_cases_c.py`, `--set c`: the
language of a project whose session went on from a summary of an earlier conversation) and the
fourth (`bench/facts_study_session_cases_d.py`, `--set d`: a change the user wants, said with a
request for a plan and not made yet) were written and committed before any rule ran on them.

Usage: python -m bench.facts_study_sessions [--set a|b|c|d|all] [--case NAME ...] [--details]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Protocol

from bench import case_runs
from bench.answer_key_score import Memory, junk_reason
from bench.facts_study import Expected, Never, Result, table
from bench.facts_study_session_cases import CASES, JUDGED, Case
from bench.facts_study_session_cases_b import CASES as CASES_B
from bench.facts_study_session_cases_c import CASES as CASES_C
from bench.facts_study_session_cases_d import CASES as CASES_D
from squirrel_core.logs import configure_logging


class Judged(Protocol):
    """A made-up case as judged: the facts it must state and what it must never say."""

    @property
    def facts(self) -> tuple[Expected, ...]: ...

    @property
    def never(self) -> tuple[Never, ...]: ...


def judge(case: Judged, memories: Sequence[tuple[str, str]]) -> Result:
    """Each expected fact found or missed; each judged memory wrong, junk or neither."""
    return judge_kinds(case, [(kind, text) for kind, text in memories if kind in JUDGED], JUDGED)


def judge_kinds(case: Judged, memories: Sequence[tuple[str, str]], kinds: Sequence[str]) -> Result:
    """Each expected fact found or missed in the memories of `kinds`; each memory wrong (of any
    kind), or junk (of `kinds`), or neither."""
    result = Result()
    for kind, text in memories:
        hit = next((n for n in case.never if n.pattern.search(text)), None)
        if hit:
            result.wrong.append((text, hit.reason))
        elif kind in kinds and (reason := junk_reason(Memory(kind, "", text))):
            result.junk.append((text, reason))
    usable = [
        text
        for kind, text in memories
        if kind in kinds and not any(n.pattern.search(text) for n in case.never)
    ]
    for fact in case.facts:
        if any(all(r.search(text) for r in fact.match) for text in usable):
            (result.bonus if fact.unsure else result.found).append(fact.fact)
        elif not fact.unsure:
            result.missed.append(fact.fact)
    return result


#: The sets of cases by name (`--set`).
SETS = {
    "a": CASES,
    "b": CASES_B,
    "c": CASES_C,
    "d": CASES_D,
    "all": (*CASES, *CASES_B, *CASES_C, *CASES_D),
}


def main(argv: Sequence[str] | None = None) -> int:
    chooser = argparse.ArgumentParser(add_help=False)
    chooser.add_argument("--set", choices=tuple(SETS), default="a")
    chosen, rest = chooser.parse_known_args(argv)
    return case_study_main(
        rest,
        "python -m bench.facts_study_sessions",
        __doc__,
        SETS[chosen.set],
        judge,
        JUDGED,
        "session (made-up sessions)",
        36,
    )


def case_study_main(
    argv: Sequence[str] | None,
    prog: str,
    doc: str | None,
    all_cases: Sequence[Case],
    judged_by: Callable[[Case, Sequence[tuple[str, str]]], Result],
    kinds: Sequence[str],
    way: str,
    width: int,
) -> int:
    """A study of made-up cases from the command line: `--case` picks some, `--details` shows
    every memory and verdict; `kinds` are the memory types the table counts."""
    parser = argparse.ArgumentParser(prog=prog, description=doc)
    parser.add_argument("--case", action="append", help="only these cases")
    parser.add_argument("--details", action="store_true", help="every memory and verdict")
    args = parser.parse_args(argv)
    configure_logging("bench", level="warning")
    cases = list(all_cases)
    if args.case:
        unknown = set(args.case) - {c.name for c in cases}
        if unknown:
            print(f"error: no case named {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        cases = [c for c in cases if c.name in args.case]
    kept = case_runs.kept_memories([(c.name, c.sessions) for c in cases])
    results = {c.name: judged_by(c, kept.get(c.name, [])) for c in cases}
    judged = {c.name: sum(1 for k, _ in kept.get(c.name, []) if k in kinds) for c in cases}
    print(table(results, way, judged, "case", width))
    if args.details:
        print_details(results, kept)
    return 0


def print_details(results: dict[str, Result], kept: dict[str, list[tuple[str, str]]]) -> None:
    """Each case's misses, wrong and junk memories, then every memory it kept."""
    for name, r in results.items():
        print(f"## {name}")
        print("\n".join(f"  missed: {fact}" for fact in r.missed) or "  (nothing missed)")
        for text, why in r.wrong:
            print(f"  WRONG ({why}): {text}")
        for text, why in r.junk:
            print(f"  junk ({why}): {text}")
        for kind, text in kept.get(name, []):
            print(f"  - [{kind}] {text}")


if __name__ == "__main__":
    raise SystemExit(main())
