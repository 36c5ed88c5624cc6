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

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench import case_runs
from bench.layout_probe_cases import CASES, Probe
from bench.study_tables import study_main


@dataclass
class Outcome:
    """The memories the pipeline kept for one probe, as (kind, text)."""

    probe: Probe
    memories: list[tuple[str, str]] = field(default_factory=list)

    @property
    def subject(self) -> Probe:
        """The probe judged."""
        return self.probe

    def counted(self) -> list[str]:
        """The text of every project_fact memory."""
        return [text for kind, text in self.memories if kind == "project_fact"]

    def stated(self) -> bool:
        """Whether one project fact matches every `expect` pattern."""
        wanted = self.probe.expect
        return bool(wanted) and any(all(re.search(p, t) for p in wanted) for t in self.counted())

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


def main(argv: list[str] | None = None) -> int:
    return study_main(argv, __doc__, CASES, measure, noun="probe", counted="facts", width=200)


if __name__ == "__main__":
    sys.exit(main())
