"""The "what is this project" study: what the pipeline states of what a project is (its name,
what it does, its stack) from made-up sessions where the README's opening, a manifest's
description, the user's words, the assistant's summary or an instruction file's overview says it,
and the traps where it must say less (`bench/whatis_study_cases.py`).

Each case goes alone into its own project through the real pipeline (the offline `rules`
extractor, as `bench.answer_key` runs it) and is judged as `bench.facts_study_sessions` judges
its cases: facts found or missed (`unsure` ones count apart), wrong (a project fact or recipe
that matches a `never` pattern) and noise. Prints one row per case, then found and wrong per
group of evidence.

The second set (`bench/whatis_study_cases_b.py`, `--set b`) was written after the first had
led to rules, before any rule ran on it; so was the third (`bench/whatis_study_cases_c.py`,
`--set c`: a project document's labelled name and description).

Usage: python -m bench.whatis_study [--set a|b|c|all] [--case NAME ...] [--details]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import PurePosixPath

from bench import case_runs, whatis_study_cases, whatis_study_cases_b, whatis_study_cases_c
from bench.facts_study import Result, table
from bench.facts_study_sessions import judge, print_details
from bench.whatis_study_cases import GROUPS, JUDGED, Case
from squirrel_core.logs import configure_logging


def folder(case: Case) -> str:
    """The name of the case's project folder (its first session's)."""
    return PurePosixPath(case.sessions[0].cwd).name


def by_group(cases: Sequence[Case], results: dict[str, Result]) -> list[str]:
    """One line per group of evidence: facts found of those stated, and wrong memories."""
    lines = []
    for group in GROUPS:
        mine = [results[c.name] for c in cases if c.group == group and c.name in results]
        if not mine:
            continue
        found = sum(len(r.found) for r in mine)
        stated = found + sum(len(r.missed) for r in mine)
        wrong = sum(len(r.wrong) for r in mine)
        lines.append(f"{group:<13} cases {len(mine):>2}  found {found}/{stated}  wrong {wrong}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.whatis_study", description=__doc__)
    parser.add_argument("--set", choices=("a", "b", "c", "all"), default="all", help="which set")
    parser.add_argument("--case", action="append", help="only these cases")
    parser.add_argument("--details", action="store_true", help="every memory and verdict")
    args = parser.parse_args(argv)
    configure_logging("bench", level="warning")
    cases = [
        *(whatis_study_cases.CASES if args.set in ("a", "all") else ()),
        *(whatis_study_cases_b.CASES if args.set in ("b", "all") else ()),
        *(whatis_study_cases_c.CASES if args.set in ("c", "all") else ()),
    ]
    if args.case:
        unknown = set(args.case) - {c.name for c in cases}
        if unknown:
            print(f"error: no case named {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        cases = [c for c in cases if c.name in args.case]
    # Each case runs in a project named as its folder: the project's name is evidence.
    ran = case_runs.kept_memories([(folder(c), c.sessions) for c in cases])
    kept = {c.name: ran.get(folder(c), []) for c in cases}
    results = {c.name: judge(c, kept[c.name]) for c in cases}
    judged = {name: sum(1 for kind, _ in kept.get(name, []) if kind in JUDGED) for name in results}
    print(table(results, "what the project is (made-up sessions)", judged, "case", 30))
    print("\n".join(by_group(cases, results)))
    if args.details:
        print_details(results, kept)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
