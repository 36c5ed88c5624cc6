"""Which rules the answer key's coverage rests on, and whether they hold beyond the projects
they were written from.

The keyed fixture projects go through the real pipeline (AppendEvents, then ProcessNow with the
offline `rules` extractor) in one memory service, as `bench.answer_key` runs them. While the
service writes, every memory it writes is traced to the rule that proposed it
(`MemoryCandidate.rule`: `placements`, `facts:database`, `command_evidence:recipe`, …; the rule
of the latest write, whose content the memory holds). Each project's memories are judged by the
answer key's judge (`bench/answer_key_score.py`), and every covered gold item is credited to the
rules of the usable memories that cover it.

Prints:
1. per rule, on the tuning projects: items covered (high / all), the tuning projects it covers
   items in, their ecosystems (the key's `language`), and the wrong and junk memories it wrote;
   a rule is *narrow* when it covers items in one or two projects;
2. the share of the tuning coverage that rests on narrow rules alone (no broad rule covers the
   item), by kind;
3. the same share on the held-out and fresh projects, pooled (narrow as the tuning projects
   say), and per rule the items it covers there, pooled: counts only, never a project's name,
   an item or a memory's text (those projects are never tuned on);
4. with --narrow-items, the tuning items only narrow rules cover (project, item, rules), for
   a person looking for the class a general rule should take over.

Usage: python -m bench.coverage_sources [--fixtures DIR] [--split tuning|dev|held-out|fresh ...]
                                        [--narrow-items]
(all three splits by default; DIR defaults to ../shared/fixtures/claude, bench/data/transcripts/
is read too; without DIR the benchmark says so and exits 0.)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import fixture_pipeline
from bench.answer_key import backend_env, keyed_projects
from bench.answer_key_gold import SPLITS, AnswerKey, load_keys
from bench.answer_key_score import Memory, Verdict, percent, score
from bench.common import markdown_table
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.logs import configure_logging
from squirrel_memory.storage.memory_book import SharedMemoryBook

#: A rule covering items in at most this many projects is narrow.
NARROW_PROJECTS = 2
#: The rule credited to a memory no traced write explains (written before tracing began).
UNTRACED = "(untraced)"


@contextmanager
def traced_writes() -> Iterator[dict[str, str]]:
    """memory id -> the rule of the candidate whose write made its current content, for every
    memory the memory service writes while the context is open (this process only)."""
    rules: dict[str, str] = {}
    original = SharedMemoryBook._apply

    def apply(self: SharedMemoryBook, decision: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
        item = yield from original(self, decision, **kwargs)
        if item is not None:
            cand = decision.candidate
            rules[item.id] = cand.rule or cand.written_by or UNTRACED
        return item

    SharedMemoryBook._apply = apply  # type: ignore[method-assign]
    try:
        yield rules
    finally:
        SharedMemoryBook._apply = original  # type: ignore[method-assign]


@dataclass
class Project:
    """One project's judged memories, each with the rule that wrote it."""

    key: AnswerKey
    verdicts: list[Verdict]
    rules: list[str]

    def covering(self) -> dict[str, set[str]]:
        """gold item id -> the rules of the usable memories that cover it."""
        found: dict[str, set[str]] = {}
        for verdict, rule in zip(self.verdicts, self.rules, strict=True):
            if verdict.usable:
                for item in verdict.matched:
                    found.setdefault(item, set()).add(rule)
        return found


@dataclass
class RuleRow:
    """What one rule did on one split."""

    high: int = 0
    covered: int = 0
    projects: set[str] = field(default_factory=set)
    languages: set[str] = field(default_factory=set)
    wrong: int = 0
    junk: int = 0
    memories: int = 0


def rule_rows(projects: Sequence[Project]) -> dict[str, RuleRow]:
    """Per rule: the items it covers (high and all), where, and the noise it wrote."""
    rows: dict[str, RuleRow] = {}
    for project in projects:
        high = {i.id for i in project.key.items if i.importance == "high"}
        for item, rules in project.covering().items():
            for rule in rules:
                row = rows.setdefault(rule, RuleRow())
                row.covered += 1
                row.high += int(item in high)
                row.projects.add(project.key.project)
                row.languages.add(project.key.language)
        for verdict, rule in zip(project.verdicts, project.rules, strict=True):
            row = rows.setdefault(rule, RuleRow())
            row.memories += 1
            row.wrong += int(bool(verdict.wrong))
            row.junk += int(bool(verdict.junk) and not verdict.wrong)
    return rows


def narrow_rules(rows: Mapping[str, RuleRow]) -> set[str]:
    """The rules that cover items in at least one and at most NARROW_PROJECTS projects."""
    return {r for r, row in rows.items() if 0 < len(row.projects) <= NARROW_PROJECTS}


@dataclass
class Share:
    """High items covered, and how many of them rest on narrow rules alone."""

    covered: int = 0
    narrow: int = 0


def narrow_shares(projects: Sequence[Project], narrow: set[str]) -> dict[str, Share]:
    """Per kind of gold item (and `all`): the covered high items, and those only narrow rules
    cover (a rule the tuning projects never saw cover anything counts as narrow too)."""
    broad = _broad_of(projects, narrow)
    shares: dict[str, Share] = {"all": Share()}
    for project in projects:
        kinds = {i.id: i.kind for i in project.key.items if i.importance == "high"}
        for item, rules in project.covering().items():
            if item not in kinds:
                continue
            only_narrow = not rules & broad
            for name in ("all", kinds[item]):
                share = shares.setdefault(name, Share())
                share.covered += 1
                share.narrow += int(only_narrow)
    return shares


def _broad_of(projects: Sequence[Project], narrow: set[str]) -> set[str]:
    return {r for p in projects for rs in p.covering().values() for r in rs} - narrow - {UNTRACED}


def narrow_line(label: str, shares: Mapping[str, Share]) -> str:
    parts = [
        f"{kind} {s.narrow}/{s.covered} {percent(s.narrow, s.covered)}"
        for kind, s in sorted(shares.items(), key=lambda kv: (kv[0] != "all", kv[0]))
    ]
    return f"{label}: high items covered only by narrow rules: " + "; ".join(parts)


def tuning_table(rows: Mapping[str, RuleRow], narrow: set[str]) -> str:
    ordered = sorted(rows.items(), key=lambda kv: (-kv[1].covered, -kv[1].high, kv[0]))
    body = [
        [
            rule,
            str(row.high),
            str(row.covered),
            str(len(row.projects)),
            ", ".join(sorted(row.languages)) or "-",
            "narrow" if rule in narrow else ("-" if not row.projects else "broad"),
            str(row.memories),
            str(row.wrong),
            str(row.junk),
        ]
        for rule, row in ordered
    ]
    head = ["rule", "high", "items", "projects", "ecosystems", "breadth", "memories"]
    return markdown_table([*head, "wrong", "junk"], body)


def unseen_table(
    tuning: Mapping[str, RuleRow], unseen: Mapping[str, Mapping[str, RuleRow]], narrow: set[str]
) -> str:
    """Per rule that covers anything anywhere: its tuning items and projects beside its pooled
    items (and the number of projects) on each unseen split: counts only."""
    names = sorted(
        {r for r, row in tuning.items() if row.covered}
        | {r for rows in unseen.values() for r, row in rows.items() if row.covered}
    )

    def cells(rule: str) -> list[str]:
        row = tuning.get(rule, RuleRow())
        out = [rule, "narrow" if rule in narrow else "broad" if row.projects else "-"]
        out.append(f"{row.covered} in {len(row.projects)}")
        for rows in unseen.values():
            seen = rows.get(rule, RuleRow())
            out.append(f"{seen.covered} in {len(seen.projects)}" if seen.covered else "0")
            out.append(str(seen.wrong + seen.junk))
        return out

    body = sorted((cells(r) for r in names), key=lambda c: (c[3:] == ["0"] * (len(c) - 3), c[0]))
    head = ["rule", "tuning breadth", "tuning items in projects"]
    for split in unseen:
        head += [f"{split} items in projects", f"{split} noise"]
    return markdown_table(head, body)


def measure(fixtures: Path, splits: Sequence[str]) -> dict[str, list[Project]]:
    """Every keyed project of `splits` through the pipeline, each memory traced to its rule;
    each split in a memory service of its own, as `bench.answer_key --split` runs it (a user's
    memories of one project are seen in the others)."""
    found: dict[str, list[Project]] = {}
    with traced_writes() as written:
        for split in splits:
            found[split] = _split_projects(fixtures, split, written)
    return found


def _split_projects(fixtures: Path, split: str, written: Mapping[str, str]) -> list[Project]:
    keys = {k.project: k for k in load_keys() if k.split == split}
    projects, missing = keyed_projects(
        list(keys.values()), [fixtures, fixture_pipeline.PROJECT_TRANSCRIPTS]
    )
    if missing:
        raise SystemExit(f"{split}: {len(missing)} answer keys without fixture transcripts")
    found: list[Project] = []

    async def inspect(client: MemoryClient, name: str, project_id: str, _events: int) -> None:
        listed = await client.call(
            client.stub.ListMemories,
            pb.ListMemoriesRequest(project_id=project_id, page_size=500),
        )
        names = fixture_pipeline.TYPE_NAMES
        memories = [Memory(names.get(m.type, "unknown"), m.key, m.content) for m in listed.memories]
        rules = [written.get(m.memory_id, UNTRACED) for m in listed.memories]
        found.append(Project(keys[name], score(keys[name], memories).verdicts, rules))

    asyncio.run(
        fixture_pipeline.run_once(
            projects, False, settings_env=backend_env("rules"), inspect=inspect
        )
    )
    return found


def report(found: Mapping[str, Sequence[Project]]) -> str:
    """The tables and lines the benchmark prints."""
    tuning = list(found.get("tuning", []))
    rows = rule_rows(tuning)
    narrow = narrow_rules(rows)
    covered = {r for r, row in rows.items() if row.covered}
    out = [
        f"## Rules behind the tuning coverage ({len(tuning)} projects; narrow: items in "
        f"{NARROW_PROJECTS} projects or fewer; {len(narrow)} narrow of {len(covered)} "
        "covering rules)\n",
        tuning_table({r: row for r, row in rows.items() if row.covered or row.memories}, narrow),
        "",
        narrow_line("tuning", narrow_shares(tuning, narrow)),
    ]
    unseen = {s: rule_rows(found[s]) for s in ("dev", "held-out", "fresh") if found.get(s)}
    for split in unseen:
        line = narrow_line(f"{split} (pooled)", narrow_shares(found[split], narrow))
        out.append(line.replace("only by narrow rules", "only by rules narrow on tuning"))
    if unseen:
        out += [
            "\n## Which rules cover items on projects no rule was written from (pooled counts)\n",
            unseen_table(rows, unseen, narrow),
        ]
    return "\n".join(out)


def narrow_items(projects: Sequence[Project], narrow: set[str]) -> str:
    """The tuning items (high first) that only narrow rules cover, each with its rules."""
    broad = _broad_of(projects, narrow)
    rows = []
    for project in projects:
        items = {i.id: i for i in project.key.items}
        for item_id, rules in sorted(project.covering().items()):
            if not rules & broad:
                item = items[item_id]
                rule_names = ", ".join(sorted(rules))
                rows.append([item.importance, item.kind, project.key.project, item_id, rule_names])
    rows.sort(key=lambda r: (r[0] != "high", r[1], r[4], r[2]))
    return markdown_table(["importance", "kind", "project", "item", "rules"], rows)


def main(argv: list[str] | None = None) -> int:
    configure_logging("bench", "error", json=True)
    parser = argparse.ArgumentParser(prog="python -m bench.coverage_sources", description=__doc__)
    parser.add_argument("--fixtures", type=Path, default=fixture_pipeline.DEFAULT_FIXTURES)
    parser.add_argument("--split", action="append", choices=SPLITS, default=[])
    parser.add_argument(
        "--narrow-items", action="store_true", help="the tuning items only narrow rules cover"
    )
    args = parser.parse_args(argv)
    if not args.fixtures.is_dir():
        print(f"skipped: no fixture transcripts at {args.fixtures}", file=sys.stderr)
        return 0
    started = time.perf_counter()
    found = measure(args.fixtures, args.split or SPLITS)
    print(report(found))
    if args.narrow_items and found.get("tuning"):
        tuning = found["tuning"]
        print("\n## Tuning items only narrow rules cover\n")
        print(narrow_items(tuning, narrow_rules(rule_rows(tuning))))
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
