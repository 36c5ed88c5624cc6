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

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench import case_runs
from bench.declared_task_cases import CASES, Case
from squirrel_core.logs import configure_logging

#: The kinds of memory a declared task could be said as.
_SAID_AS = ("recipe", "project_fact")


@dataclass
class Outcome:
    """The memories the pipeline kept for one case, as (kind, text)."""

    case: Case
    memories: list[tuple[str, str]] = field(default_factory=list)

    def recipes(self) -> list[str]:
        """The text of every recipe memory."""
        return [text for kind, text in self.memories if kind == "recipe"]

    def stated(self) -> bool:
        """Whether every `expect` pattern matches some recipe."""
        wanted = self.case.expect
        found = self.recipes()
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


def _yes(flag: bool) -> str:
    return "yes" if flag else "-"


def _cell(text: str, width: int = 220) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def report(outcomes: Sequence[Outcome], memories: bool = False) -> str:
    """The per-case table, a total line and, with `memories`, every memory kept."""
    lines = [
        "| case | shape | ecosystem | recipes | stated | wrong | right |",
        "|---|---|---|---:|---|---:|---|",
    ]
    for o in outcomes:
        c = o.case
        lines.append(
            f"| {c.name} | {c.shape} | {c.ecosystem} | {len(o.recipes())}"
            f" | {_yes(o.stated()) if c.fires else 'n/a'} | {len(o.wrong())} | {_yes(o.right())} |"
        )
    fires = [o for o in outcomes if o.case.fires]
    quiet = [o for o in outcomes if not o.case.fires]
    lines.append(
        f"| all | stated {sum(o.stated() for o in fires)}/{len(fires)}"
        f", quiet {sum(o.right() for o in quiet)}/{len(quiet)} | | | |"
        f" {sum(len(o.wrong()) for o in outcomes)} | {sum(o.right() for o in outcomes)}"
        f"/{len(outcomes)} |"
    )
    for o in outcomes:
        if memories or o.wrong():
            lines.append(f"\n### {o.case.name}")
            lines.extend(f"- WRONG {text}" for text in o.wrong())
            if memories:
                lines.extend(f"- [{kind}] {_cell(text)}" for kind, text in sorted(o.memories))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", default=[], help="only this case (repeatable)")
    parser.add_argument("--memories", action="store_true", help="print every memory kept")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    cases = [c for c in CASES if not args.case or c.name in args.case]
    unknown = set(args.case) - {c.name for c in cases}
    if unknown:
        print(f"no case named {sorted(unknown)}", file=sys.stderr)
        return 2
    print(report(measure(cases), args.memories))
    return 0


if __name__ == "__main__":
    sys.exit(main())
