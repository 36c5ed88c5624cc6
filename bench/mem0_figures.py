"""`bench.mem0_side`'s figures of one run and the tables it prints of them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bench.mem0_cached import Cached
from bench.mem0_child import BATCH, FILL_BATCH, conversations
from bench.search_floor import VectorFigures


@dataclass(frozen=True)
class Query:
    text: str
    gold: frozenset[int]


def recall(gold: frozenset[int], hits: Sequence[int], k: int) -> float:
    return len(gold & set(hits[:k])) / len(gold)


@dataclass
class Side:
    """One side's counted searches in one round."""

    ms: list[float]
    hits: list[list[int]]
    cpu_ms: float

    def p(self, q: float) -> float:
        return float(np.percentile(self.ms, q))

    def recall(self, queries: Sequence[Query], k: int) -> float:
        return float(
            np.mean([recall(q.gold, h, k) for q, h in zip(queries, self.hits, strict=True)])
        )


@dataclass
class Round:
    """Both sides' searches with one of Squirrel's query encoders."""

    encoder: str
    mem0: Side
    squirrel: Side
    load_start: float
    load_end: float


@dataclass
class Figures:
    """Everything one run measured."""

    size: int
    sample: int
    threads_p50: dict[int, float]
    adds_per_s: dict[str, tuple[float, float]]
    rounds: list[Round]
    cached: Cached | None = None
    index: list[VectorFigures] | None = None


def report(figures: Figures, queries: Sequence[Query], load: float) -> str:
    r = figures.adds_per_s
    turns = min(len(conversations()[0]), figures.size)
    threads = ", ".join(f"{n}: {p50:.1f} ms" for n, p50 in figures.threads_p50.items())
    chosen = min(figures.threads_p50, key=lambda n: figures.threads_p50[n])

    def row(what: str, texts: int, key: str) -> str:
        return f"| {what} | {texts} | {r[key][0]:.1f} | {r[key][1]:.1f} |"

    n, size = figures.sample, figures.size
    lines = [
        f"store: {size} texts ({turns} conversation turns, the rest generated memories);"
        f" {len(queries)} searches (top 10) per round; load {load:.1f} at the start"
        f" ({os.cpu_count()} cores)",
        f"mem0 search p50 by torch threads ({threads}): {chosen} used",
        "",
        "| adds | texts | acknowledged /s | vector-searchable /s |",
        "|---|---|---|---|",
        row("mem0 `add`, one text per call (embeds in the call)", n, "mem0_one"),
        row(f"mem0 `add`, a list of {BATCH} (`infer=False`: one by one)", n, "mem0_list"),
        row(f"Squirrel `RememberMany`, {BATCH} per call", n, "squirrel_many"),
        row("Squirrel `Remember`, one per call", n, "squirrel_one"),
    ]
    if figures.cached is None:
        lines += [
            row(
                f"Squirrel `RememberMany`, {BATCH} per call: the searched store",
                size,
                "squirrel_fill",
            ),
            row(
                f"mem0's searched store, {FILL_BATCH} per vector-store insert (bench shortcut)",
                size,
                "mem0_fill",
            ),
        ]
    lines += [
        "",
        f"same texts, same end state (vector-searchable), against mem0 `add` one per call:"
        f" Squirrel `RememberMany` {r['squirrel_many'][1] / r['mem0_one'][0]:.2f}x,"
        f" `Remember` {r['squirrel_one'][1] / r['mem0_one'][0]:.2f}x;"
        f" acknowledged only (not the same state): {r['squirrel_many'][0] / r['mem0_one'][0]:.2f}x"
        f" and {r['squirrel_one'][0] / r['mem0_one'][0]:.2f}x",
        "",
        "| search | load | p50 ms | p95 ms | p99 ms | CPU ms per search | recall@5 | recall@10 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    if figures.cached is not None:
        c = figures.cached
        lines[1:1] = [
            f"searched stores: the same {len(c.vectors)} vectors on both sides ({c.model_id},"
            f" float, of each text alone), {c.from_cache} distinct texts read from the embedding"
            f" cache, {c.embedded} embedded in this run; no fill rates"
        ]
    for round_ in figures.rounds:
        m, s = round_.mem0, round_.squirrel
        where = f"{round_.load_start:.1f}-{round_.load_end:.1f}"
        mem0_name = f"mem0 ({chosen} thread{'s' if chosen > 1 else ''})"
        sides = ((mem0_name, m), (f"Squirrel, {round_.encoder} queries", s))
        for name, side in sides:
            lines.append(
                f"| {name} | {where} | {side.p(50):.1f} | {side.p(95):.1f} | {side.p(99):.1f}"
                f" | {side.cpu_ms:.1f} | {side.recall(queries, 5):.3f}"
                f" | {side.recall(queries, 10):.3f} |"
            )
        lines.append(
            f"| mem0 / Squirrel ({round_.encoder}) | | {m.p(50) / s.p(50):.2f}x"
            f" | {m.p(95) / s.p(95):.2f}x | {m.p(99) / s.p(99):.2f}x"
            f" | {m.cpu_ms / s.cpu_ms:.2f}x | | |"
        )
    if figures.index is not None:
        lines += [
            "",
            f"Squirrel's vector index at {size} vectors, in process on the same vectors (int8"
            " query vectors, top 10; recall@10 against the exact top 10 by NumPy):",
        ]
        for name, v in zip(("the service's kind", "a flat index"), figures.index, strict=True):
            lines.append(
                f"- {name} ({v.kind}): p50 {v.p50:.2f} ms, p95 {v.p95:.2f} ms,"
                f" recall@10 {v.recall:.3f}"
            )
    return "\n".join(lines)
