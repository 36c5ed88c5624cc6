"""The table and the command line of a study whose made-up cases each either state what they
expect or stay quiet, and state nothing wrong (`bench.declared_tasks`, `bench.layout_probe`).

A study's outcome gives the memories it counts (recipes, project facts), whether one states
every expected pattern, and its wrong memories; this module prints one row per case, a total
line and, on request, every memory kept, and parses `--case` and `--memories`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from squirrel_core.logs import configure_logging


class StudyCase(Protocol):
    """What a study's case says of itself in the table."""

    @property
    def name(self) -> str: ...

    @property
    def shape(self) -> str: ...

    @property
    def ecosystem(self) -> str: ...

    @property
    def fires(self) -> bool: ...


class StudyOutcome(Protocol):
    """What the pipeline kept for one case, judged."""

    @property
    def subject(self) -> StudyCase: ...

    @property
    def memories(self) -> list[tuple[str, str]]: ...

    def counted(self) -> list[str]: ...

    def stated(self) -> bool: ...

    def wrong(self) -> list[str]: ...

    def right(self) -> bool: ...


def _yes(flag: bool) -> str:
    return "yes" if flag else "-"


def _cell(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def study_table(
    outcomes: Sequence[StudyOutcome],
    *,
    noun: str,
    counted: str,
    memories: bool = False,
    width: int = 220,
) -> str:
    """The per-case table (`noun` heads the first column, `counted` the count of the memories
    the study counts), a total line and, with `memories`, every memory kept."""
    lines = [
        f"| {noun} | shape | ecosystem | {counted} | stated | wrong | right |",
        "|---|---|---|---:|---|---:|---|",
    ]
    for o in outcomes:
        c = o.subject
        lines.append(
            f"| {c.name} | {c.shape} | {c.ecosystem} | {len(o.counted())}"
            f" | {_yes(o.stated()) if c.fires else 'n/a'} | {len(o.wrong())} | {_yes(o.right())} |"
        )
    fires = [o for o in outcomes if o.subject.fires]
    quiet = [o for o in outcomes if not o.subject.fires]
    lines.append(
        f"| all | stated {sum(o.stated() for o in fires)}/{len(fires)}"
        f", quiet {sum(o.right() for o in quiet)}/{len(quiet)} | | | |"
        f" {sum(len(o.wrong()) for o in outcomes)} | {sum(o.right() for o in outcomes)}"
        f"/{len(outcomes)} |"
    )
    for o in outcomes:
        if memories or o.wrong():
            lines.append(f"\n### {o.subject.name}")
            lines.extend(f"- WRONG {text}" for text in o.wrong())
            if memories:
                lines.extend(
                    f"- [{kind}] {_cell(text, width)}" for kind, text in sorted(o.memories)
                )
    return "\n".join(lines)


C = TypeVar("C", bound=StudyCase)


def study_main(
    argv: list[str] | None,
    doc: str,
    cases: Sequence[C],
    measure: Callable[[Sequence[C]], Sequence[StudyOutcome]],
    *,
    noun: str,
    counted: str,
    width: int = 220,
) -> int:
    """A study's command line: `--case NAME` (repeatable) and `--memories`; 2 for an unknown
    case."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--case", action="append", default=[], help=f"only this {noun}")
    parser.add_argument("--memories", action="store_true", help="print every memory kept")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    chosen = [c for c in cases if not args.case or c.name in args.case]
    unknown = set(args.case) - {c.name for c in chosen}
    if unknown:
        print(f"no {noun} named {sorted(unknown)}", file=sys.stderr)
        return 2
    table = study_table(
        measure(chosen), noun=noun, counted=counted, memories=args.memories, width=width
    )
    print(table)
    return 0
