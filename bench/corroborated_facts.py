"""Does the corroboration rule (an assistant sentence is a fact only when the session's own tool
output shows every specific term it names) pick the assistant sentences gold states as facts,
and no wrong one?

The sentences are `bench/stated_facts.py`'s: the assistant's prose sentences of the learned
study's sessions and of the answer key's tuning projects (a held-out project's key and
transcripts are never read), each labelled `fact` when a gold project_fact or pitfall item of
its source states it, `wrong` when a `wrong` entry does and no item does, else unlabelled; and
`rules` when a project_fact or pitfall candidate of the offline rules cites its reply and says
most of it. `corroborated` is the rule (`bench.corroborated_rule`) run over
each episode of the source, as the rules extractor runs its finders: a sentence is picked when
a statement the rule keeps and the sentence each say most of the other's words. `union` is
either; `added` is picked by the rule and not by the rules.

Columns: picked sentences, fact hits, wrong hits, unlabelled picks, and gold items found (an
item is found when a picked sentence states it) of all the sources' items.

The fourth set (`learned4.toml`) was collected after the rule was committed and is read only
when asked for (`--group fourth`): it is the rule's figure on sessions it was not written from.

Usage: python -m bench.corroborated_facts [--group first|second|third|tuning|fourth ...]
       [--sample N] [--details]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bench import fixture_pipeline
from bench.corroborated_rule import Corroborated, corroborated
from bench.standing_sentences import STANDING, TASK, UNLABELLED, Sentence, Source
from bench.stated_facts import GROUPS, LATER_SETS, read, sources
from bench.stored_events import stored
from squirrel_core.logs import configure_logging
from squirrel_memory.episodes import segment_episodes

SIDES = ("rules", "corroborated", "union", "added")
#: The fewest words a statement and a sentence share to be taken as the same.
MIN_SAME_WORDS = 4
_WORDS = re.compile(r"\w+")


@dataclass(frozen=True)
class Row:
    """One sentence with both decisions."""

    sentence: Sentence
    rules: bool
    picked: bool
    #: The rule's statement that picked it ("" when not picked).
    by: str = ""
    pitfall: bool = False


def statements(source: Source) -> list[Corroborated]:
    """What the rule keeps of the source, episode by episode, as the rules extractor runs it."""
    root = f"/nonexistent/facts/{source.name}"
    events = stored(fixture_pipeline.parse(list(source.paths), root), root, source.name)
    found: list[Corroborated] = []
    for episode in segment_episodes(events, now=datetime.now(UTC)):
        wanted = set(episode.event_ids)
        ordered = sorted(
            (e for e in events if not wanted or e.id in wanted), key=lambda e: (e.timestamp, e.id)
        )
        found.extend(corroborated(ordered))
    return found


def same(said: str, body: str) -> bool:
    """Whether a statement the rule keeps is the sentence `body`: the same words in order, or
    one the start of the other (the two readers cut sentences at slightly different marks)."""
    a, b = _WORDS.findall(said.lower()), _WORDS.findall(body.lower())
    if not a or not b:
        return False
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= MIN_SAME_WORDS and longer[: len(shorter)] == shorter


def rows_of(source: Source) -> list[Row]:
    """The source's sentences with the rules' and the corroboration rule's decisions."""
    kept = statements(source)
    rows: list[Row] = []
    for s in read(source):
        by = next((k for k in kept if same(k.said, s.text)), None)
        rows.append(
            Row(s, s.kept, by is not None, by.said if by else "", by.pitfall if by else False)
        )
    return rows


def _chosen(side: str) -> Callable[[Row], bool]:
    return {
        "rules": lambda r: r.rules,
        "corroborated": lambda r: r.picked,
        "union": lambda r: r.rules or r.picked,
        "added": lambda r: r.picked and not r.rules,
    }[side]


def table(rows: Sequence[Row], items: int, title: str) -> list[str]:
    """The markdown table of each side's picks over `rows`, with `items` gold items in all."""
    stated = len(
        {(r.sentence.group, r.sentence.session, i) for r in rows for i in r.sentence.items}
    )
    lines = [
        f"{title}: {stated} of the {items} gold items are stated by some assistant sentence",
        "",
        "| side | picked | fact hits | wrong hits | unlabelled | items found |",
        "|---|---|---|---|---|---|",
    ]
    for side in SIDES:
        chosen = [r.sentence for r in rows if _chosen(side)(r)]
        found = {(s.group, s.session, i) for s in chosen for i in s.items}
        lines.append(
            f"| {side} | {len(chosen)} | {sum(s.label == STANDING for s in chosen)} |"
            f" {sum(s.label == TASK for s in chosen)} |"
            f" {sum(s.label == UNLABELLED for s in chosen)} | {len(found)}/{stated} |"
        )
    return lines


def sample(rows: Sequence[Row], count: int) -> list[str]:
    """Every k-th unlabelled pick of the rule (k chosen to give `count`), in source order: the
    sample read by hand."""
    unlabelled = [r for r in rows if r.picked and r.sentence.label == UNLABELLED]
    if not unlabelled or count <= 0:
        return []
    step = max(1, len(unlabelled) // count)
    chosen = unlabelled[::step][:count]
    lines = [f"\nSample of {len(chosen)} of {len(unlabelled)} unlabelled picks (every {step}):"]
    for n, r in enumerate(chosen, 1):
        kind = "pitfall" if r.pitfall else "fact"
        lines.append(f"{n:2}. [{r.sentence.group}:{r.sentence.session}] ({kind}) {r.by}")
    return lines


def details(rows: Sequence[Row]) -> list[str]:
    """Every pick of the rule with its label, and every wrong hit of any side."""
    lines = ["\nThe rule's picks:"]
    for r in rows:
        if r.picked:
            s = r.sentence
            mark = "rules too" if r.rules else "added"
            lines.append(f"- [{s.group}:{s.session}] {s.label} ({mark}) {r.by}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--group", action="append", choices=(*GROUPS, *LATER_SETS), help="only these groups"
    )
    parser.add_argument("--sample", type=int, default=0, help="unlabelled picks to print")
    parser.add_argument("--details", action="store_true", help="every pick of the rule")
    args = parser.parse_args(argv)
    configure_logging("bench", "warning")
    started = time.perf_counter()
    chosen = sources(tuple(args.group) if args.group else GROUPS)
    rows: list[Row] = []
    by_group: dict[str, tuple[list[Row], int]] = {}
    for source in chosen:
        found = rows_of(source)
        rows.extend(found)
        group_rows, items = by_group.get(source.group, ([], 0))
        by_group[source.group] = ([*group_rows, *found], items + len(source.standing))
    total_items = sum(len(s.standing) for s in chosen)
    print(
        f"{len(rows)} assistant sentences of {len(chosen)} sources read and decided in"
        f" {time.perf_counter() - started:.0f}s (1-minute load {os.getloadavg()[0]:.1f})\n"
    )
    print("\n".join(table(rows, total_items, "All sources")))
    for group, (group_rows, items) in by_group.items():
        print()
        print("\n".join(table(group_rows, items, f"Group {group}")))
    wrong = [r for r in rows if r.picked and r.sentence.label == TASK]
    for r in wrong:
        print(f"\nWRONG [{r.sentence.group}:{r.sentence.session}] {r.by}")
    print("\n".join(sample(rows, args.sample)))
    if args.details:
        print("\n".join(details(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
