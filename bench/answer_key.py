"""Memories scored against our own answer key (gold notes per fixture project; docs/answer-key.md).

For every project with a key in bench/data/answer_key/, its fixture transcripts go through the real
pipeline (AppendEvents, then ProcessNow with the chosen extractor, `rules` by default: no API key)
in one memory service, via bench/fixture_pipeline.py. Then each project's memories are judged, and
each question of the key is asked with the real SearchMemory (top 5, after the embedder is loaded
and the vector index rebuilt). Prints one table for the tuning projects, one for the held-out
projects (never tuned on) and one for the fresh projects (collected after the rules they judge;
never tuned on), each row a project and each table with its pooled totals and targets;
with --details, what was missed, what was judged wrong or junk, the duplicates and every memory no
gold item matched (for a human to check the noise judgement); with --views, the brief, style and
pitfalls views of each project; with --hook-text, the text the session-start hook injects and
whether it states the key's `session_start` items (and no wrong fact).

Usage: python -m bench.answer_key [--fixtures DIR] [--extractor rules] [--details] [--views]
                                  [--hook-text [--hook-host claude|codex|gemini]]
                                  [--split tuning|dev|held-out|fresh] [--project=NAME ...]
(DIR defaults to ../shared/fixtures/claude; bench/data/transcripts/ is read too when it exists;
without DIR the benchmark says so and exits 0.)
With --backend NAME [--record DIR] or --replay DIR: the rules alone beside the rules plus a
model (bench/answer_key_model.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench import fixture_pipeline
from bench.answer_key_gold import AnswerKey, AnswerKeyError, load_keys
from bench.answer_key_hook import score_hook
from bench.answer_key_score import Memory, Score, add_question, score
from bench.answer_key_table import TARGETS, by_split, details, tables
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.logs import configure_logging
from squirrel_memory.llm.base import BACKENDS

EMBEDDER_WAIT_SECONDS = 180.0


@dataclass
class Measured:
    """One run of the benchmark: a Score per project and what else was asked for."""

    scores: list[Score]
    events: dict[str, int]
    views: dict[str, str] = field(default_factory=dict)
    hook_text: dict[str, str] = field(default_factory=dict)
    search: str = ""
    # Memories per writer (`rules`, `openai_compatible:replay`, …) per project.
    writers: dict[str, dict[str, int]] = field(default_factory=dict)


class Run:
    """Collects one Score per project while the service runs."""

    def __init__(
        self,
        keys: dict[str, AnswerKey],
        views: bool,
        hook_text: bool,
        hook_hosts: Mapping[str, str] | None = None,
    ) -> None:
        self.keys = keys
        self.views = views
        self.hook_text = hook_text
        self.hook_hosts = hook_hosts or {}
        self.result = Measured([], {})

    async def inspect(self, client: MemoryClient, name: str, project_id: str, events: int) -> None:
        key = self.keys[name]
        listed = await client.call(
            client.stub.ListMemories,
            pb.ListMemoriesRequest(project_id=project_id, page_size=500),
        )
        memories = [_memory(m.type, m.key, m.content) for m in listed.memories]
        writers = self.result.writers.setdefault(name, {})
        for m in listed.memories:
            writers[m.written_by] = writers.get(m.written_by, 0) + 1
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
        self.result.scores.append(result)
        self.result.events[name] = events
        if self.views:
            self.result.views[name] = await fixture_pipeline.views_markdown(client, project_id)
        if self.hook_text:
            host = self.hook_hosts.get(name, "claude")
            text = await fixture_pipeline.session_start_text(client, project_id, host)
            self.result.hook_text[name] = text
            result.hook = score_hook(key, text, host)

    async def _wait_for_embedder(self, client: MemoryClient) -> None:
        if self.result.search:
            return
        deadline = time.monotonic() + EMBEDDER_WAIT_SECONDS
        while time.monotonic() < deadline:
            status = await client.call(
                client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest()
            )
            if not status.embedder_loading:
                self.result.search = "hybrid search (embedder loaded)"
                return
            await asyncio.sleep(0.5)
        self.result.search = "lexical search only: the embedder did not load in time"


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


def keyed_projects(
    keys: Sequence[AnswerKey], roots: Sequence[Path]
) -> tuple[list[tuple[str, list[Path]]], list[str]]:
    """The fixture projects (name, transcripts) of the keys, read from every folder of `roots`
    that exists, and the keys' projects that none of them holds."""
    wanted = {k.project for k in keys}
    projects: dict[str, list[Path]] = {}
    for root in roots:
        if root.is_dir():
            for name, paths in fixture_pipeline.fixture_projects(root):
                if name in wanted and name not in projects:
                    projects[name] = paths
    ordered = [(k.project, projects[k.project]) for k in keys if k.project in projects]
    return ordered, sorted(wanted - set(projects))


def measure(
    fixtures: Path,
    extractor: str,
    views: bool = False,
    only: Sequence[str] = (),
    *,
    hook_text: bool = False,
    hook_host: str = "auto",
    split: str | None = None,
    settings_env: Mapping[str, str] | None = None,
) -> Measured:
    """Runs the pipeline on every keyed fixture project (or those named in `only`, or those of
    one `split`), read from `fixtures` and bench/data/transcripts/; returns the scores, events per
    project, the views and session-start texts (when asked) and how search ran. `settings_env`
    adds SQRL_* settings over the backend's (e.g. a replay server's address)."""
    keys = {
        k.project: k
        for k in load_keys()
        if (not only or k.project in only) and (split is None or k.split == split)
    }
    if split is not None and not keys:
        raise AnswerKeyError(f"no project's key is in the `{split}` split yet")
    if only and len(keys) != len(set(only)):
        raise AnswerKeyError(f"no answer key for {sorted(set(only) - set(keys))}")
    projects, missing = keyed_projects(
        list(keys.values()), [fixtures, fixture_pipeline.PROJECT_TRANSCRIPTS]
    )
    if missing:
        raise SystemExit(f"answer keys without fixture transcripts under {fixtures}: {missing}")
    hosts = {
        name: fixture_pipeline.transcript_host(paths) if hook_host == "auto" else hook_host
        for name, paths in projects
    }
    run = Run(keys, views, hook_text, hosts)
    asyncio.run(
        fixture_pipeline.run_once(
            projects,
            False,
            settings_env={**backend_env(extractor), **(settings_env or {})},
            inspect=run.inspect,
        )
    )
    return run.result


def main(argv: list[str] | None = None) -> int:
    args_given = sys.argv[1:] if argv is None else argv
    if any(a.split("=")[0] in ("--backend", "--record", "--replay") for a in args_given):
        from bench import answer_key_model  # noqa: PLC0415 - rules vs rules + a model

        return answer_key_model.main(args_given)
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
        "--hook-text", action="store_true", help="the text the session-start hook injects"
    )
    parser.add_argument(
        "--hook-host",
        choices=("auto", "claude", "codex", "gemini"),
        default="auto",
        help="the host whose session-start hook --hook-text asks; by default each project's "
        "own (the host that wrote most of its transcripts). A host is not given what it loads "
        "itself (Codex: AGENTS.md)",
    )
    parser.add_argument(
        "--split", choices=tuple(TARGETS), default=None, help="only the projects of this split"
    )
    parser.add_argument(
        "--project", action="append", default=[], help="only this fixture project (repeatable)"
    )
    args = parser.parse_args(argv)
    if not args.fixtures.is_dir():
        print(f"skipped: no fixture transcripts at {args.fixtures}", file=sys.stderr)
        return 0
    started = time.perf_counter()
    try:
        result = measure(
            args.fixtures,
            args.extractor,
            args.views,
            args.project,
            hook_text=args.hook_text,
            hook_host=args.hook_host,
            split=args.split,
        )
    except (AnswerKeyError, fixture_pipeline.UnknownTranscriptError) as exc:
        print(f"answer key: {exc}", file=sys.stderr)
        return 2
    print(f"answer key, extractor {args.extractor}, {result.search}:\n")
    print(tables(result.scores, result.events))
    ordered = [s for chosen in by_split(result.scores).values() for s in chosen]
    if args.details:
        for score_ in ordered:
            print(details(score_))
    if args.views:
        for score_ in ordered:
            print(f"\n### views: {score_.project}\n{result.views[score_.project]}")
    if args.hook_text:
        for score_ in ordered:
            shown = result.hook_text[score_.project] or "(nothing: the hook abstains)"
            print(f"\n### session-start hook text: {score_.project}\n{shown}")
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
