"""What the model path is given: the extraction prompts of the answer key's projects, measured.

No model runs. Each keyed fixture project's events are segmented into episodes as the memory
service does (`segment_episodes`) and rendered as the model extractor renders them
(`render_events`, the extractor's default bound). Prints, per split, how long the prompts are and
how much of what the work found reaches the model: the assistant's replies given, a long reply's
last sentence (its conclusion) given, subagent reports given, and episodes cut at the end.

Usage: python -m bench.model_prompts [--fixtures DIR] [--split tuning|held-out|all]
                                     [--max-chars 24000]
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bench import answer_key, fixture_pipeline
from bench.answer_key_gold import SPLITS, load_keys
from bench.stored_events import stored
from squirrel_core.events import EventType
from squirrel_core.logs import configure_logging
from squirrel_core.subagent_tools import SUBAGENT_TOOLS
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.prompts import render_events
from squirrel_memory.models import StoredEvent

#: A reply longer than this is "long": its conclusion is what a cut would lose.
LONG_REPLY = 300
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass
class Tally:
    episodes: int = 0
    cut: int = 0
    replies: int = 0
    replies_given: int = 0
    long_replies: int = 0
    conclusions_given: int = 0
    reports: int = 0
    reports_given: int = 0


def _flat(text: str) -> str:
    return " ".join(text.split())


def _conclusion(text: str) -> str:
    """The last sentence of a reply (at most its last 80 characters)."""
    parts = [p for p in _SENTENCE_END.split(_flat(text)) if p]
    return parts[-1][-80:] if parts else ""


def _reply(event: StoredEvent) -> str | None:
    text = event.content.get("text")
    if event.event_type == EventType.ASSISTANT_RESPONSE and isinstance(text, str) and text.strip():
        return text
    return None


def _report(event: StoredEvent) -> str | None:
    output = event.content.get("output")
    if (
        event.event_type == EventType.TOOL_RESULT
        and event.content.get("tool") in SUBAGENT_TOOLS
        and event.content.get("is_error") is not True
        and isinstance(output, str)
        and output.strip()
    ):
        return output
    return None


def measure(events: list[StoredEvent], max_chars: int, tally: Tally) -> list[int]:
    """Renders every episode of `events` into `tally`; returns the prompt lengths."""
    lengths: list[int] = []
    by_id = {e.id: e for e in events}
    for episode in segment_episodes(events, now=datetime.now(UTC)):
        mine = [by_id[i] for i in episode.event_ids if i in by_id]
        text, refs = render_events(mine, max_chars)
        lengths.append(len(text))
        tally.episodes += 1
        tally.cut += text.endswith("[… later events omitted]")
        ref_of = {event_id: ref for ref, event_id in refs.items()}
        for event in mine:
            ref = ref_of.get(event.id)
            given = ref is not None and f"[{ref}] " in text
            if (reply := _reply(event)) is not None:
                tally.replies += 1
                tally.replies_given += given
                if len(_flat(reply)) > LONG_REPLY:
                    tally.long_replies += 1
                    tally.conclusions_given += given and _conclusion(reply) in text
            elif _report(event) is not None:
                tally.reports += 1
                tally.reports_given += given
    return lengths


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f} %)" if whole else "0/0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=fixture_pipeline.DEFAULT_FIXTURES)
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument("--max-chars", type=int, default=24_000)
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    if args.max_chars <= 0:
        parser.error("--max-chars must be positive")
    keys = [k for k in load_keys() if args.split in ("all", k.split)]
    print(
        "| split | projects | episodes | prompt p50 / p95 / max chars | cut at the end | replies"
        " given | long replies' conclusion given | subagent reports given |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for split in SPLITS:
        mine = [k for k in keys if k.split == split]
        if not mine:
            continue
        projects, _ = answer_key.keyed_projects(
            mine, [args.fixtures, fixture_pipeline.PROJECT_TRANSCRIPTS]
        )
        tally, lengths = Tally(), []
        for name, paths in projects:
            root = f"/fixtures/{name}"
            events = stored(fixture_pipeline.parse(paths, root), root, name)
            lengths += measure(events, args.max_chars, tally)
        if not lengths:
            continue
        p95 = sorted(lengths)[math.ceil(0.95 * len(lengths)) - 1]
        print(
            f"| {split} | {len(projects)} | {tally.episodes} | {statistics.median(lengths):,.0f} /"
            f" {p95:,.0f} / {max(lengths):,} | {_share(tally.cut, tally.episodes)} |"
            f" {_share(tally.replies_given, tally.replies)} |"
            f" {_share(tally.conclusions_given, tally.long_replies)} |"
            f" {_share(tally.reports_given, tally.reports)} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
