"""Short sessions, as a first session on an unseen project often is (one or two prompts, two to
five tool calls): which of the items a senior engineer would keep the rules keep.

Two sets go through the real pipeline (the offline `rules` extractor, as `bench.answer_key`
runs it), each case alone in its own project: the made-up sessions of
`bench/short_session_cases.py` (a dozen ecosystems, Claude Code and Codex), and real tuning and
dev sessions cut the way a short cut looks (`bench/short_session_cuts.py`: the first records,
one block near the end, the last record). Prints per case: memories that hold an item, whether
every item is kept, and wrong memories (any memory matching a `never` pattern); then the items
kept over all cases and, per case, the items missed.

Usage: python -m bench.short_sessions [--case NAME ...] [--set made-up|cuts] [--memories]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import case_runs, fixture_pipeline
from bench.answer_key import backend_env
from bench.short_session_cases import CASES, Case, Item
from bench.short_session_cuts import CUTS, Cut
from bench.study_tables import study_table
from squirrel_core.clients import MemoryClient
from squirrel_core.logs import configure_logging

_FLAGS = re.IGNORECASE | re.MULTILINE


def _holds(item: Item, kind: str, text: str) -> bool:
    return kind in item.kinds and all(re.search(p, text, _FLAGS) for p in item.patterns)


@dataclass
class Outcome:
    """The memories the pipeline kept for one case, as (kind, text)."""

    case: Case | Cut
    memories: list[tuple[str, str]] = field(default_factory=list)

    @property
    def subject(self) -> Case | Cut:
        """The case judged."""
        return self.case

    def kept(self) -> list[Item]:
        """The items some memory holds."""
        return [i for i in self.case.keep if any(_holds(i, k, t) for k, t in self.memories)]

    def missed(self) -> list[Item]:
        """The items no memory holds."""
        held = {i.id for i in self.kept()}
        return [i for i in self.case.keep if i.id not in held]

    def counted(self) -> list[str]:
        """The text of every memory that holds an item."""
        return [t for k, t in self.memories if any(_holds(i, k, t) for i in self.case.keep)]

    def stated(self) -> bool:
        """Whether every item is kept."""
        return bool(self.case.keep) and not self.missed()

    def wrong(self) -> list[str]:
        """Memories that match a `never` pattern."""
        return [
            f"[{kind}] {text} ({why})"
            for kind, text in self.memories
            for pattern, why in self.case.never
            if re.search(pattern, text, _FLAGS)
        ]

    def right(self) -> bool:
        """Whether the case came out as it should."""
        return not self.wrong() and self.stated()


#: Records a cut counts: Claude Code's prompts, replies and tool results, Codex's response items.
_COUNTED = ("user", "assistant", "response_item")


def _cut_records(cut: Cut) -> list[str]:
    """The records a cut keeps of its transcript, as contiguous stretches of the file: from
    its start through the `first`-th record it counts (`_COUNTED`), the stretch that holds
    `block` counted records ending `before_end` counted records before the last, and the last
    record; a Codex rollout's `session_meta` header besides."""
    lines = [line for line in cut.transcript().read_text().splitlines() if line.strip()]
    kinds = [json.loads(line).get("type") for line in lines]
    counted = [i for i, kind in enumerate(kinds) if kind in _COUNTED]
    end = len(counted) - 1
    start = max(cut.first, end - cut.before_end - cut.block)
    chosen = set(range(counted[min(cut.first, end) - 1] + 1)) if cut.first else set()
    if start < end - cut.before_end:
        chosen |= set(range(counted[start], counted[end - cut.before_end - 1] + 1))
    chosen.add(len(lines) - 1)
    header = [i for i, kind in enumerate(kinds) if kind == "session_meta"][:1]
    return [lines[i] + "\n" for i in sorted({*header, *chosen})]


def measure_cuts(cuts: Sequence[Cut]) -> list[Outcome]:
    """Runs every cut alone in its own project; one Outcome per cut."""
    kept: dict[str, list[tuple[str, str]]] = {}

    async def inspect(client: MemoryClient, name: str, project_id: str, events: int) -> None:
        kept[name] = await fixture_pipeline.typed_memories(client, project_id)

    with tempfile.TemporaryDirectory() as tmp:
        projects: list[tuple[str, list[Path]]] = []
        for cut in cuts:
            path = Path(tmp) / cut.name / cut.transcript().name
            path.parent.mkdir(parents=True)
            path.write_text("".join(_cut_records(cut)))
            projects.append((cut.name, [path]))
        asyncio.run(
            fixture_pipeline.run_once(
                projects,
                False,
                settings_env=backend_env("rules"),
                inspect=inspect,
                folder=lambda name: next(c.folder for c in cuts if c.name == name),
            )
        )
    return [Outcome(c, kept.get(c.name, [])) for c in cuts]


def measure(cases: Sequence[Case]) -> list[Outcome]:
    """Runs every made-up case alone in its own project; one Outcome per case."""
    kept = case_runs.kept_memories([(c.name, c.sessions) for c in cases])
    return [Outcome(c, kept.get(c.name, [])) for c in cases]


def report(outcomes: Sequence[Outcome], memories: bool) -> str:
    """The study's table, the items kept over all cases and each case's missed items."""
    lines = [study_table(outcomes, noun="case", counted="holding", memories=memories)]
    items = sum(len(o.case.keep) for o in outcomes)
    lines.append(
        f"\nitems kept {sum(len(o.kept()) for o in outcomes)}/{items}, cases with no memory"
        f" {sum(not o.memories for o in outcomes)}/{len(outcomes)},"
        f" wrong {sum(len(o.wrong()) for o in outcomes)}"
    )
    for o in outcomes:
        if o.missed():
            lines.append(f"- {o.case.name}: missed {', '.join(i.id for i in o.missed())}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", default=[], help="only this case")
    parser.add_argument("--set", choices=("made-up", "cuts"), help="only this set")
    parser.add_argument("--memories", action="store_true", help="print every memory kept")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    made = [c for c in CASES if not args.case or c.name in args.case]
    cuts = [c for c in CUTS if not args.case or c.name in args.case]
    unknown = set(args.case) - {c.name for c in made} - {c.name for c in cuts}
    if unknown:
        print(f"no case named {sorted(unknown)}", file=sys.stderr)
        return 2
    if args.set != "cuts" and made:
        print("## made-up short sessions\n")
        print(report(measure(made), args.memories))
    if args.set != "made-up" and cuts:
        print("\n## real sessions cut short\n")
        print(report(measure_cuts(cuts), args.memories))
    return 0


def _gist(record: dict[str, Any]) -> str:
    """One record in a line: who, and its text, command or output (for keying a cut)."""
    kind = record.get("type")
    body: dict[str, Any] = (
        record.get("payload") or {} if kind in ("response_item", "session_meta") else record
    )
    parts: list[str] = []
    content = body.get("message", {}).get("content") if kind != "response_item" else None
    if kind == "response_item":
        for key in ("content", "arguments", "output", "input"):
            value = body.get(key)
            if value:
                parts.append(f"{body.get('type')}/{body.get('role', '')} {key}: {value}")
    elif kind == "session_meta":
        parts.append(f"cwd {body.get('cwd')}")
    elif isinstance(content, str):
        parts.append(content)
    else:
        for block in content or []:
            value = block.get("text") or block.get("input") or block.get("content")
            parts.append(f"{block.get('type')}: {value}")
    return f"{kind}: " + " | ".join(str(p) for p in parts)


def show_cut(name: str, width: int = 3000) -> str:
    """A cut's records as text, one line a record (for keying a cut by reading it)."""
    cut = next(c for c in CUTS if c.name == name)
    return "".join(
        _gist(json.loads(line))[:width].replace("\n", " / ") + "\n" for line in _cut_records(cut)
    )


if __name__ == "__main__":
    sys.exit(main())
