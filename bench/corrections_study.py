"""The user's preferences said once or twice as a correction or with emphasis: found, in the
session-start text, and wrong.

Each made-up project of `bench/corrections_study_cases.py` goes alone into its own project
through the real pipeline (the offline `rules` extractor, as `bench.answer_key` runs it). A
preference is **found** when one user_style memory matches all of its patterns, **in start**
when one line of the text the session-start hook injects does (counted only for preferences
that must reach it), and **wrong** when a user_style memory states one wrong (matches one of
its `wrong` patterns) or states what the case lists as not the user's style (a correction
about this task only, a fact of the code, frustration, a pasted review, a correction taken
back). The table gives each case's row, then totals per kind; with --details, every
user_style memory kept, with its importance.

Usage: python -m bench.corrections_study [--case NAME ...] [--details]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.corrections_study_cases import CASES, KINDS, Case, Want
from bench.habits_recurring import best_weight, in_start_text, states, styles_and_start
from squirrel_core.logs import configure_logging

_FLAGS = re.IGNORECASE


@dataclass
class Outcome:
    """What the pipeline kept for one case: user_style memories (importance, text), start text."""

    case: Case
    styles: list[tuple[float, str]] = field(default_factory=list)
    start_text: str = ""

    def found(self, want: Want) -> float | None:
        """The importance of the best memory that states `want`, or None."""
        return best_weight(self.styles, want.states)

    def in_start(self, want: Want) -> bool:
        """Whether one line of the session-start text states `want`."""
        return in_start_text(self.start_text, want.states)

    def wrong(self) -> list[str]:
        """User_style memories that state a preference wrong or state what is not a style."""
        out = []
        for _, text in self.styles:
            stated = any(states(w.states, text) for w in self.case.wants)
            bad = any(any(re.search(p, text, _FLAGS) for p in w.wrong) for w in self.case.wants)
            kept = not stated and any(re.search(p, text, _FLAGS) for p in self.case.must_not)
            if bad or kept:
                out.append(text)
        return out


def measure(cases: Sequence[Case]) -> list[Outcome]:
    """Runs every case's sessions through one memory service; one Outcome per case."""
    kept = styles_and_start([(c.name, c.sessions) for c in cases])
    return [Outcome(c, *kept[c.name][:2]) for c in cases]


def report(outcomes: Sequence[Outcome], details: bool = False) -> str:
    """The per-case table, totals per kind and, with `details`, every user_style memory."""
    lines = [
        "| case | kind | ecosystem | host | wants | found | in start | top weight | wrong |",
        "|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    totals = {kind: [0, 0, 0, 0, 0, 0] for kind in KINDS}
    notes: list[str] = []
    for o in outcomes:
        c = o.case
        weights = [o.found(w) for w in c.wants]
        found = sum(w is not None for w in weights)
        to_start = sum(w.start for w in c.wants)
        started = sum(o.in_start(w) for w in c.wants if w.start)
        wrong = len(o.wrong())
        top = max((w for w in weights if w is not None), default=None)
        shown = f"{top:.2f}" if top is not None else "-"
        lines.append(
            f"| {c.name} | {c.kind} | {c.ecosystem} | {c.sessions[0].host} | {len(c.wants)} "
            f"| {found} | {started}/{to_start} | {shown} | {wrong} |"
        )
        row = totals[c.kind]
        for i, n in enumerate((1, len(c.wants), found, to_start, started, wrong)):
            row[i] += n
        if details:
            notes.append(f"\n## {c.name} ({c.kind})")
            for want, weight in zip(c.wants, weights, strict=True):
                mark = "found" if weight is not None else "MISSED"
                start = ", in start" if o.in_start(want) else ""
                notes.append(f"- [{mark}{start}] {want.note}")
            bad = set(o.wrong())
            notes.extend(
                f"- [{'WRONG' if text in bad else 'style'}] ({w:.2f}) {text}"
                for w, text in o.styles
            )
    lines.append("")
    for kind, (cases, wants, found, to_start, started, wrong) in totals.items():
        if cases:
            want_part = (
                f"wants {wants}: found {found}, in start {started}/{to_start}; " if wants else ""
            )
            lines.append(f"{kind}: cases {cases}; {want_part}wrong {wrong}")
    t = [sum(row[i] for row in totals.values()) for i in range(6)]
    lines.append(
        f"total: cases {t[0]}; wants {t[1]}: found {t[2]}, in start {t[4]}/{t[3]}; wrong {t[5]}"
    )
    return "\n".join(lines + notes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--case", action="append", default=[], help="run only this case")
    parser.add_argument("--details", action="store_true", help="every user_style memory kept")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    cases = [c for c in CASES if not args.case or c.name in args.case]
    if not cases:
        print(f"no case named {', '.join(args.case)}", file=sys.stderr)
        return 2
    print(report(measure(cases), details=args.details))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
