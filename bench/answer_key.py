"""Memories scored against our own answer key (gold notes per fixture project; docs/answer-key.md).

For every project with a key in bench/data/answer_key/, its fixture transcripts go through the real
pipeline (AppendEvents, then ProcessNow with the chosen extractor, `rules` by default: no API key)
in one memory service, via bench/fixture_pipeline.py. Then each project's memories are judged, and
each question of the key is asked with the real SearchMemory (top 5, after the embedder is loaded
and the vector index rebuilt). Prints one table row per project and the pooled totals; with
--details, what was missed, what was judged wrong or junk, the duplicates and every memory no gold
item matched (for a human to check the noise judgement); with --views, the brief, style and
pitfalls views of each project.

Usage: python -m bench.answer_key [--fixtures DIR] [--extractor rules] [--details] [--views]
                                  [--project NAME ...]
(DIR defaults to ../shared/fixtures/claude; without it the benchmark says so and exits 0.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bench import fixture_pipeline
from bench.answer_key_score import (
    AnswerKey,
    AnswerKeyError,
    Memory,
    Score,
    add_question,
    load_keys,
    percent,
    score,
)
from bench.common import Figure
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.logs import configure_logging
from squirrel_memory.llm.base import BACKENDS

EMBEDDER_WAIT_SECONDS = 180.0
HIGH_TARGET = 0.60
NOISE_TARGET = 0.20


class Run:
    """Collects one Score per project while the service runs."""

    def __init__(self, keys: dict[str, AnswerKey], views: bool) -> None:
        self.keys = keys
        self.views = views
        self.scores: list[Score] = []
        self.events: dict[str, int] = {}
        self.view_text: dict[str, str] = {}
        self.embedder_note = ""

    async def inspect(self, client: MemoryClient, name: str, project_id: str, events: int) -> None:
        key = self.keys[name]
        listed = await client.call(
            client.stub.ListMemories,
            pb.ListMemoriesRequest(project_id=project_id, page_size=500),
        )
        memories = [_memory(m.type, m.key, m.content) for m in listed.memories]
        result = score(key, memories)
        await self._wait_for_embedder(client)
        await client.call(client.stub.Reindex, pb.ReindexRequest(project_id=project_id))
        for question in key.questions:
            found = await client.call(
                client.stub.SearchMemory,
                pb.SearchMemoryRequest(project_id=project_id, query=question.text, top_k=5),
            )
            top = [_memory(r.type, r.key, r.content) for r in found.results]
            add_question(result, key, question, top)
        self.scores.append(result)
        self.events[name] = events
        if self.views:
            self.view_text[name] = await fixture_pipeline.views_markdown(client, project_id)

    async def _wait_for_embedder(self, client: MemoryClient) -> None:
        if self.embedder_note:
            return
        deadline = time.monotonic() + EMBEDDER_WAIT_SECONDS
        while time.monotonic() < deadline:
            status = await client.call(
                client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest()
            )
            if not status.embedder_loading:
                self.embedder_note = "hybrid search (embedder loaded)"
                return
            await asyncio.sleep(0.5)
        self.embedder_note = "lexical search only: the embedder did not load in time"


def _memory(kind: int, key: str, content: str) -> Memory:
    names = {int(k): v for k, v in fixture_pipeline.TYPE_NAMES.items()}
    return Memory(names.get(kind, "unknown"), key, content)


def backend_env(extractor: str) -> dict[str, str]:
    """The extractor backend for the run, plus the caller's own SQRL_* settings for it (the
    model, a CLI's command, a server's base URL): any backend can be measured against the key."""
    passed = {
        k: v
        for k, v in os.environ.items()
        if k.startswith(("SQRL_ANTHROPIC_", "SQRL_CLAUDE_CLI_", "SQRL_CODEX_CLI_"))
        or k.startswith(("SQRL_GEMINI_CLI_", "SQRL_OPENAI_COMPATIBLE_", "SQRL_EXTRACTOR_"))
    }
    return {**passed, "SQRL_EXTRACTOR_BACKEND": extractor}


def measure(
    fixtures: Path, extractor: str, views: bool = False, only: Sequence[str] = ()
) -> tuple[list[Score], dict[str, int], dict[str, str], str]:
    """Runs the pipeline on every keyed fixture project (or those named in `only`); returns the
    scores, events per project, the views (when asked) and how search ran."""
    keys = {k.project: k for k in load_keys() if not only or k.project in only}
    if only and len(keys) != len(set(only)):
        raise AnswerKeyError(f"no answer key for {sorted(set(only) - set(keys))}")
    projects = [(n, p) for n, p in fixture_pipeline.fixture_projects(fixtures) if n in keys]
    missing = sorted(set(keys) - {n for n, _ in projects})
    if missing:
        raise SystemExit(f"answer keys without fixture transcripts under {fixtures}: {missing}")
    run = Run(keys, views)
    asyncio.run(
        fixture_pipeline.run_once(
            projects,
            False,
            settings_env=backend_env(extractor),
            inspect=run.inspect,
        )
    )
    return run.scores, run.events, run.view_text, run.embedder_note


# -- output ------------------------------------------------------------------------------------


def table(scores: list[Score], events: dict[str, int]) -> str:
    head = (
        "project",
        "language",
        "events",
        "memories",
        "high covered",
        "all covered",
        "noise (wrong+junk)",
        "duplicates",
        "recall@5",
    )
    rows = [
        (
            s.project,
            s.language,
            str(events.get(s.project, 0)),
            str(s.memories),
            f"{s.high_covered}/{s.high_total} {percent(s.high_covered, s.high_total)}",
            f"{s.all_covered}/{s.all_total} {percent(s.all_covered, s.all_total)}",
            f"{s.wrong}+{s.junk}/{s.memories} {percent(s.noise, s.memories)}",
            str(s.duplicates),
            f"{s.hits}/{s.questions} {percent(s.hits, s.questions)}",
        )
        for s in scores
    ]

    def total(attr: str) -> int:
        return sum(int(getattr(s, attr)) for s in scores)

    hc, ht, ac, at = (total(a) for a in ("high_covered", "high_total", "all_covered", "all_total"))
    mem, wrong, junk, hits, qs = (
        total(a) for a in ("memories", "wrong", "junk", "hits", "questions")
    )
    rows.append(
        (
            "all (pooled)",
            "",
            str(sum(events.values())),
            str(mem),
            f"{hc}/{ht} {percent(hc, ht)}",
            f"{ac}/{at} {percent(ac, at)}",
            f"{wrong}+{junk}/{mem} {percent(wrong + junk, mem)}",
            str(total("duplicates")),
            f"{hits}/{qs} {percent(hits, qs)}",
        )
    )
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(head, widths, strict=True)) + " |"]
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    lines += [
        "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in rows
    ]
    return "\n".join(lines)


def targets(scores: list[Score]) -> str:
    ht = sum(s.high_total for s in scores)
    hc = sum(s.high_covered for s in scores)
    mem = sum(s.memories for s in scores)
    noise = sum(s.noise for s in scores)
    high_ok = ht > 0 and hc / ht >= HIGH_TARGET
    noise_ok = mem > 0 and noise / mem <= NOISE_TARGET
    return (
        f"targets: high-importance coverage >= {HIGH_TARGET:.0%}: "
        f"{'met' if high_ok else 'NOT met'} ({percent(hc, ht)}); "
        f"noise <= {NOISE_TARGET:.0%}: {'met' if noise_ok else 'NOT met'} ({percent(noise, mem)})"
    )


def details(result: Score) -> str:
    out = [f"\n### {result.project}"]
    out.append("missed gold items:")
    out += [f"  - [{i.importance}/{i.kind}] {i.id}: {i.note}" for i in result.missed] or ["  none"]
    bad = [v for v in result.verdicts if not v.usable]
    out.append("judged wrong or junk:")
    out += [
        f"  - {'WRONG ' + v.wrong if v.wrong else 'JUNK ' + v.junk}: [{v.memory.kind}] "
        f"{v.memory.content}"
        for v in bad
    ] or ["  none"]
    out.append("duplicates (earlier <- duplicate):")
    out += [
        f"  - [{a.kind}] {a.content[:90]}  <-  {b.content[:90]}" for a, b in result.duplicate_pairs
    ] or ["  none"]
    unmatched = [v for v in result.verdicts if v.usable and not v.matched]
    out.append("matched no gold item (neither counted as noise nor as coverage; check by hand):")
    out += [f"  - [{v.memory.kind}] {v.memory.content}" for v in unmatched] or ["  none"]
    out.append("questions:")
    out += [f"  - {'hit ' if hit else 'MISS'} {q.text}" for q, hit in result.question_hits]
    return "\n".join(out)


def figures(scores: list[Score]) -> list[Figure]:
    """The pooled figures for `python -m bench` (section `answer-key`)."""
    ht = sum(s.high_total for s in scores)
    at = sum(s.all_total for s in scores)
    mem = sum(s.memories for s in scores)
    qs = sum(s.questions for s in scores)
    note = f"{len(scores)} projects, rules extractor"
    return [
        Figure(
            "answer-key",
            "high-importance gold covered",
            sum(s.high_covered for s in scores) / ht,
            "ratio",
            note,
        ),
        Figure("answer-key", "all gold covered", sum(s.all_covered for s in scores) / at, "ratio"),
        Figure("answer-key", "noise (wrong + junk)", sum(s.noise for s in scores) / mem, "ratio"),
        Figure("answer-key", "duplicates", sum(s.duplicates for s in scores), "memories"),
        Figure("answer-key", "recall@5 of questions", sum(s.hits for s in scores) / qs, "ratio"),
    ]


def main(argv: list[str] | None = None) -> int:
    configure_logging("bench", "error", json=True)
    parser = argparse.ArgumentParser(prog="python -m bench.answer_key", description=__doc__)
    parser.add_argument("--fixtures", type=Path, default=fixture_pipeline.DEFAULT_FIXTURES)
    parser.add_argument(
        "--extractor",
        default="rules",
        choices=BACKENDS,
        help="extractor backend for the run (default rules: no API key); its settings come "
        "from SQRL_* variables, e.g. SQRL_OPENAI_COMPATIBLE_MODEL",
    )
    parser.add_argument("--details", action="store_true", help="misses, noise, unmatched memories")
    parser.add_argument("--views", action="store_true", help="brief, style and pitfalls views")
    parser.add_argument(
        "--project", action="append", default=[], help="only this fixture project (repeatable)"
    )
    args = parser.parse_args(argv)
    if not args.fixtures.is_dir():
        print(f"skipped: no fixture transcripts at {args.fixtures}", file=sys.stderr)
        return 0
    started = time.perf_counter()
    try:
        scores, events, views, search = measure(
            args.fixtures, args.extractor, args.views, args.project
        )
    except AnswerKeyError as exc:
        print(f"answer key: {exc}", file=sys.stderr)
        return 2
    print(f"answer key, extractor {args.extractor}, {search}:\n")
    print(table(scores, events))
    print("\n" + targets(scores))
    if args.details:
        for result in scores:
            print(details(result))
    if args.views:
        for name, text in views.items():
            print(f"\n### views: {name}\n{text}")
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
