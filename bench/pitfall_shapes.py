"""Pitfall shapes in ecosystems the answer keys barely hold: what the rules keep.

Each case of `bench/pitfall_shape_cases.py` (a command failing then passing with a changed flag
or argument, a failure explained in the next reply, a failure fixed by a config line in another
file, one cause behind a commit gate's checks, progress lines around an error, and must-not-fire
cases: a failure left alone, a TDD red step, a transient network error) goes alone into its own
project through the real pipeline (the offline `rules` extractor, as `bench.answer_key` runs it).
A second set, `bench/pitfall_shape_cases_b.py`, holds more ecosystems and hosts, and a third,
`bench/pitfall_shape_cases_c.py`, fixes claimed in a reply with no edit seen, an edit the error
shares no words with, and reruns whose result was lost, and a fourth,
`bench/pitfall_shape_cases_d.py`, more tools, a hedge taken back, one cause seen in two sessions
(one memory at most: a case's `most`), an interrupted run and a refused fix, and a fifth,
`bench/pitfall_shape_cases_e.py`, a failed script of several steps and its re-run with one step
changed, and a sixth, `bench/pitfall_shape_cases_f.py`, failures told afterwards (a continued
session's summary, a closing report's list of what was fixed) whose records the session no
longer shows; every set runs by default, each with its own table and total line (`--set a` to
`f` runs one alone).
Prints per case: pitfalls kept, whether one names the trigger, the cause and the fix, and junk
(a pitfall built on a progress line, or any pitfall where none is due); with --memories, every
memory kept, in full.

Usage: python -m bench.pitfall_shapes [--set a|b|c|d|e|f] [--case NAME ...] [--memories]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench import (
    case_runs,
    pitfall_shape_cases_b,
    pitfall_shape_cases_c,
    pitfall_shape_cases_d,
    pitfall_shape_cases_e,
    pitfall_shape_cases_f,
)
from bench.pitfall_shape_cases import CASES, Shape
from squirrel_core.logs import configure_logging

_FLAGS = re.IGNORECASE


@dataclass
class Outcome:
    """The memories the pipeline kept for one case, as (kind, text)."""

    shape: Shape
    memories: list[tuple[str, str]] = field(default_factory=list)

    def pitfalls(self) -> list[str]:
        """The text of every pitfall memory."""
        return [text for kind, text in self.memories if kind == "pitfall"]

    def states(self, pattern: str) -> bool:
        """Whether some pitfall matches `pattern` (False when the case has none)."""
        return bool(pattern) and any(re.search(pattern, t, _FLAGS) for t in self.pitfalls())

    def junk(self) -> list[str]:
        """Pitfalls that should not be: any where none is due, else those on a progress line."""
        if not self.shape.fires:
            return self.pitfalls()
        return [t for t in self.pitfalls() if any(re.search(p, t) for p in self.shape.junk)]

    def right(self) -> bool:
        """Whether the case came out as it should."""
        if not self.shape.fires:
            return not self.pitfalls()
        s = self.shape
        if s.most and len(self.pitfalls()) > s.most:
            return False
        return self.states(s.trigger) and self.states(s.cause) and self.states(s.fix)


def measure(shapes: Sequence[Shape]) -> list[Outcome]:
    """Runs every case's sessions through one memory service; one Outcome per case."""
    kept = case_runs.kept_memories([(s.name, s.sessions) for s in shapes])
    return [Outcome(s, kept.get(s.name, [])) for s in shapes]


def _yes(flag: bool) -> str:
    return "yes" if flag else "-"


def report(outcomes: Sequence[Outcome], memories: bool = False) -> str:
    """The per-case table, a total line and, with `memories`, the memory each case expects (when
    it says) and every memory kept, in full."""
    lines = [
        "| case | shape | ecosystem | pitfalls | trigger | cause | fix | junk | right |",
        "|---|---|---|---:|---|---|---|---:|---|",
    ]
    for o in outcomes:
        s = o.shape
        due = s.fires
        lines.append(
            f"| {s.name} | {s.shape} | {s.ecosystem} | {len(o.pitfalls())}"
            f" | {_yes(o.states(s.trigger)) if due else 'n/a'}"
            f" | {_yes(o.states(s.cause)) if due else 'n/a'}"
            f" | {_yes(o.states(s.fix)) if due else 'n/a'}"
            f" | {len(o.junk())} | {_yes(o.right())} |"
        )
    fires = [o for o in outcomes if o.shape.fires]
    quiet = [o for o in outcomes if not o.shape.fires]
    lines.append(
        f"| all | kept {sum(bool(o.pitfalls()) for o in fires)}/{len(fires)}"
        f", cause {sum(o.states(o.shape.cause) for o in fires)}/{len(fires)}"
        f", fix {sum(o.states(o.shape.fix) for o in fires)}/{len(fires)}"
        f", right {sum(o.right() for o in fires)}/{len(fires)}"
        f", quiet {sum(not o.pitfalls() for o in quiet)}/{len(quiet)} | | | | | |"
        f" {sum(len(o.junk()) for o in outcomes)} | |"
    )
    if memories:
        for o in outcomes:
            lines.append(f"\n### {o.shape.name}")
            if o.shape.expect:
                lines.append(f"expected: {o.shape.expect}")
            lines.extend(f"- [{kind}] {text}" for kind, text in sorted(o.memories))
    return "\n".join(lines)


#: This bench's sets of cases, by the name `--set` takes.
SETS: dict[str, Sequence[Shape]] = {
    "a": CASES,
    "b": pitfall_shape_cases_b.CASES,
    "c": pitfall_shape_cases_c.CASES,
    "d": pitfall_shape_cases_d.CASES,
    "e": pitfall_shape_cases_e.CASES,
    "f": pitfall_shape_cases_f.CASES,
}


def main(
    argv: list[str] | None = None,
    cases: Sequence[Shape] | None = None,
    doc: str = __doc__,
) -> int:
    """Runs `cases` (else this bench's sets, or the one --set names; only the cases --case
    names, else all) and prints a report per set; `doc` is the calling bench's docstring, whose
    first line describes the command."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--case", action="append", default=[], help="only this case (repeatable)")
    parser.add_argument("--memories", action="store_true", help="print every memory kept")
    if cases is None:
        parser.add_argument("--set", choices=sorted(SETS), help="only this set of cases")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    if cases is not None:
        sets: dict[str, Sequence[Shape]] = {"": cases}
    else:
        sets = {k: v for k, v in SETS.items() if args.set in (None, k)}
    chosen = {k: [s for s in v if not args.case or s.name in args.case] for k, v in sets.items()}
    unknown = set(args.case) - {s.name for v in chosen.values() for s in v}
    if unknown:
        print(f"no case named {sorted(unknown)}", file=sys.stderr)
        return 2
    chosen = {k: v for k, v in chosen.items() if v}
    outcomes = measure([s for v in chosen.values() for s in v])
    by_name = {o.shape.name: o for o in outcomes}
    parts = []
    for key, shapes in chosen.items():
        title = f"set {key}\n" if key and len(chosen) > 1 else ""
        parts.append(title + report([by_name[s.name] for s in shapes], args.memories))
    print("\n\n".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
