"""What the project's own manifest or task file declares for its checks, read in a session:
which recipes the rules keep.

Each case of `bench/declared_task_cases.py` (a package.json's scripts under npm, pnpm, Yarn or
Bun, composer.json scripts, deno.json tasks, a Makefile, a justfile, pyproject.toml task
tables, mise.toml, a Taskfile, Cargo aliases, mix.exs aliases, read whole or cut short; and
must-stay-quiet cases: a dependency's manifest, an example's or the docs' package, a
placeholder script, another repository's manifest, a script the session ran, a manifest broken
before its tasks) goes alone into its own project through the real pipeline (the offline
`rules` extractor, as `bench.answer_key` runs it). Prints per case: recipes kept, whether they
state every `expect` pattern, and wrong memories (a recipe or fact matching a `never` pattern,
or a second memory matching a `once` pattern).

Usage: python -m bench.declared_tasks [--case NAME ...] [--memories]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench import case_runs
from bench.declared_task_cases import CASES, Case
from bench.study_tables import study_main

#: The kinds of memory a declared task could be said as.
_SAID_AS = ("recipe", "project_fact")


@dataclass
class Outcome:
    """The memories the pipeline kept for one case, as (kind, text)."""

    case: Case
    memories: list[tuple[str, str]] = field(default_factory=list)

    @property
    def subject(self) -> Case:
        """The case judged."""
        return self.case

    def counted(self) -> list[str]:
        """The text of every recipe memory."""
        return [text for kind, text in self.memories if kind == "recipe"]

    def stated(self) -> bool:
        """Whether every `expect` pattern matches some recipe."""
        wanted = self.case.expect
        found = self.counted()
        return bool(wanted) and all(any(re.search(p, t) for t in found) for p in wanted)

    def wrong(self) -> list[str]:
        """Recipes and facts that match a `never` pattern, and memories past the first that
        match a `once` pattern."""
        bad = [
            f"[{kind}] {text}"
            for kind, text in self.memories
            if kind in _SAID_AS and any(re.search(p, text) for p, _ in self.case.never)
        ]
        for pattern in self.case.once:
            matching = [f"[{k}] {t}" for k, t in self.memories if re.search(pattern, t)]
            bad.extend(f"(again) {m}" for m in matching[1:])
        return bad

    def right(self) -> bool:
        """Whether the case came out as it should."""
        return not self.wrong() and (self.stated() if self.case.fires else True)


def measure(cases: Sequence[Case]) -> list[Outcome]:
    """Runs every case's sessions through one memory service; one Outcome per case."""
    kept = case_runs.kept_memories([(c.name, c.sessions) for c in cases])
    return [Outcome(c, kept.get(c.name, [])) for c in cases]


def main(argv: list[str] | None = None) -> int:
    return study_main(argv, __doc__, CASES, measure, noun="case", counted="recipes")


if __name__ == "__main__":
    sys.exit(main())
