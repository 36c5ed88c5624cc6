"""What the hand-written studies share in running and printing: the command line, the sessions
whose transcripts are in place, one memory service run over them, a project's memories, and the
table of counts per session with its totals.

Each study (`bench/{habits,lessons,learned}_study.py`) keeps its own reading of its files, its
verdicts and its `--details` notes; this module only runs them and lays out what they count.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from bench.study_files import StudyError
from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.logs import configure_logging

LIST_PAGE = 500
"""Memories listed per session's project (more than any study session keeps)."""

Cell = int | tuple[int, int]
"""A count, or a (found, of) pair printed `found/of`."""


class StudySession(Protocol):
    """What running a study needs of its sessions: a name and the transcripts it reads."""

    @property
    def name(self) -> str: ...

    @property
    def paths(self) -> tuple[Path, ...]: ...


S = TypeVar("S", bound=StudySession)
R = TypeVar("R")


async def memories_of(client: MemoryClient, project_id: str) -> list[memory_pb2.MemoryItem]:
    """Every memory the rules kept in the session's project."""
    listed = await client.call(
        client.stub.ListMemories, pb.ListMemoriesRequest(project_id=project_id, page_size=LIST_PAGE)
    )
    return list(listed.memories)


@dataclass
class StudyTable:
    """One row per session (a name, then right-aligned cells), a totals row, and a legend."""

    name_width: int
    columns: Sequence[tuple[str, int]]
    rows: list[tuple[str, tuple[Cell, ...]]] = field(default_factory=list)

    def add(self, name: str, *cells: Cell) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"{len(cells)} cells for {len(self.columns)} columns")
        self.rows.append((name, cells))

    def _line(self, name: str, cells: Sequence[Cell | str]) -> str:
        texts = [f"{cell[0]}/{cell[1]}" if isinstance(cell, tuple) else str(cell) for cell in cells]
        return " ".join(
            [f"{name:{self.name_width}}"]
            + [f"{text:>{width}}" for text, (_, width) in zip(texts, self.columns, strict=True)]
        )

    def _totals(self) -> list[Cell]:
        totals: list[Cell] = []
        for index, _ in enumerate(self.columns):
            column = [cells[index] for _, cells in self.rows]
            if column and isinstance(column[0], tuple):
                pairs = [c for c in column if isinstance(c, tuple)]
                totals.append((sum(p[0] for p in pairs), sum(p[1] for p in pairs)))
            else:
                totals.append(sum(c for c in column if isinstance(c, int)))
        return totals

    def render(self, legend: str) -> list[str]:
        """The table's lines: head, rule, rows, rule, totals, then a blank line and `legend`."""
        head = self._line("session", [label for label, _ in self.columns])
        rule = "-" * len(head)
        lines = [head, rule]
        lines += [self._line(name, cells) for name, cells in self.rows]
        lines += [rule, self._line("total", self._totals()), f"\n{legend}"]
        return lines


def present(sessions: list[S], wanted: Sequence[str]) -> list[S]:
    """The sessions named in `wanted` (all when empty) whose transcripts are all in place; the
    others are said on one line."""
    chosen = [s for s in sessions if not wanted or s.name in wanted]
    missing = [s.name for s in chosen if not s.paths or not all(p.exists() for p in s.paths)]
    if missing:
        print(f"skipped (transcripts not found): {', '.join(missing)}")
    return [s for s in chosen if s.name not in missing]


def study_main(
    argv: list[str] | None,
    *,
    title: str,
    doc: str | None,
    details: str,
    studies: Mapping[str, Path],
    load: Callable[[Path], list[S]],
    run: Callable[[list[S]], Coroutine[Any, Any, dict[str, R]]],
    report: Callable[[list[S], dict[str, R], bool], str],
) -> int:
    """A study's command: `--details` (help: `details`), `--session NAME ...` and, when it has
    more than one set of sessions, `--study NAME|all`; every chosen set's sessions run in one
    memory service, then each set's table is printed (under a heading when there are several).
    Exit 2 with one line when a study file is malformed."""
    configure_logging("bench", "warning", json=True)
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--details", action="store_true", help=details)
    parser.add_argument("--session", action="append", default=[], help="only these sessions")
    several = len(studies) > 1
    if several:
        parser.add_argument(
            "--study", choices=[*studies, "all"], default="all", help="which set of sessions"
        )
    args = parser.parse_args(argv)
    chosen = list(studies) if not several or args.study == "all" else [args.study]
    loaded: dict[str, list[S]] = {}
    try:
        for name in chosen:
            loaded[name] = load(studies[name])
    except StudyError as exc:
        print(f"{title}: {exc}", file=sys.stderr)
        return 2
    for name, listed in loaded.items():
        loaded[name] = present(listed, args.session)
    everything = [s for sessions in loaded.values() for s in sessions]
    if not everything:
        return 0
    outcomes = asyncio.run(run(everything))
    for name, sessions in loaded.items():
        if not sessions:
            continue
        if several:
            print(f"\n# the {name} set ({studies[name].name})\n")
        print(report(sessions, outcomes, args.details))
    return 0
