"""Layout and design statements in words: what the rules keep as project facts.

Each probe of `bench/layout_probe_cases.py` (the assistant summing up where things live after
reading files, the user stating where things go or a design decision, and must-not-fire probes:
a plan, a hedge, another repository's layout, a statement taken back, the assistant's own
change, a question, a suggestion, a stack named in passing) goes alone into its own project
through the real pipeline (the offline `rules` extractor, as `bench.answer_key` runs it).
Prints per probe: project facts kept, whether one states every `expect` pattern, and wrong
memories (any memory matching a `never` pattern).

Usage: python -m bench.layout_probe [--case NAME ...] [--memories]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench import case_runs
from bench.layout_probe_cases import CASES, Probe
from squirrel_core.logs import configure_logging


@dataclass
class Outcome:
    """The memories the pipeline kept for one probe, as (kind, text)."""

    probe: Probe
    memories: list[tuple[str, str]] = field(default_factory=list)

    def facts(self) -> list[str]:
        """The text of every project_fact memory."""
        return [text for kind, text in self.memories if kind == "project_fact"]

    def stated(self) -> bool:
        """Whether one project fact matches every `expect` pattern."""
        wanted = self.probe.expect
        return bool(wanted) and any(all(re.search(p, t) for p in wanted) for t in self.facts())

    def wrong(self) -> list[str]:
        """Memories of any type that match a `never` pattern."""
        return [
            f"[{kind}] {text}"
            for kind, text in self.memories
            if any(re.search(p, text, re.IGNORECASE) for p, _ in self.probe.never)
        ]

    def right(self) -> bool:
        """Whether the probe came out as it should."""
        return not self.wrong() and (self.stated() if self.probe.fires else True)


def measure(probes: Sequence[Probe]) -> list[Outcome]:
    """Runs every probe's sessions through one memory service; one Outcome per probe."""
    kept = case_runs.kept_memories([(p.name, p.sessions) for p in probes])
    return [Outcome(p, kept.get(p.name, [])) for p in probes]


def _yes(flag: bool) -> str:
    return "yes" if flag else "-"


def _cell(text: str, width: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def report(outcomes: Sequence[Outcome], memories: bool = False) -> str:
    """The per-probe table, a total line and, with `memories`, every memory kept."""
    lines = [
        "| probe | shape | ecosystem | facts | stated | wrong | right |",
        "|---|---|---|---:|---|---:|---|",
    ]
    for o in outcomes:
        p = o.probe
        lines.append(
            f"| {p.name} | {p.shape} | {p.ecosystem} | {len(o.facts())}"
            f" | {_yes(o.stated()) if p.fires else 'n/a'} | {len(o.wrong())} | {_yes(o.right())} |"
        )
    fires = [o for o in outcomes if o.probe.fires]
    quiet = [o for o in outcomes if not o.probe.fires]
    lines.append(
        f"| all | stated {sum(o.stated() for o in fires)}/{len(fires)}"
        f", quiet {sum(o.right() for o in quiet)}/{len(quiet)} | | | |"
        f" {sum(len(o.wrong()) for o in outcomes)} | {sum(o.right() for o in outcomes)}"
        f"/{len(outcomes)} |"
    )
    for o in outcomes:
        if memories or o.wrong():
            lines.append(f"\n### {o.probe.name}")
            lines.extend(f"- WRONG {text}" for text in o.wrong())
            if memories:
                lines.extend(f"- [{kind}] {_cell(text)}" for kind, text in sorted(o.memories))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", default=[], help="only this probe (repeatable)")
    parser.add_argument("--memories", action="store_true", help="print every memory kept")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    probes = [p for p in CASES if not args.case or p.name in args.case]
    unknown = set(args.case) - {p.name for p in probes}
    if unknown:
        print(f"no probe named {sorted(unknown)}", file=sys.stderr)
        return 2
    print(report(measure(probes), args.memories))
    return 0


if __name__ == "__main__":
    sys.exit(main())
