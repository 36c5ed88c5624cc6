"""`bench.mem0_side`'s figures of one run and the tables it prints of them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bench.mem0_cached import Cached
from bench.mem0_child import BATCH, FILL_BATCH, conversations
from bench.mem0_exact import IndexFigures, agreement
from squirrel_memory.index import APPROXIMATE_ABOVE


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
    distinct_hits: list[list[int]] | None = None
    """`hits` named by their text's first position (`by_text`; what `exact` reads if set)."""

    def p(self, q: float) -> float:
        return float(np.percentile(self.ms, q))

    def recall(self, queries: Sequence[Query], k: int) -> float:
        """Mean share of each query's gold turns in its top `k`."""
        return float(
            np.mean([recall(q.gold, h, k) for q, h in zip(queries, self.hits, strict=True)])
        )

    def exact(self, truth: Sequence[Sequence[int]], k: int) -> float:
        """Mean share of each query's exact float top `k` (`bench.mem0_exact`) in its top `k`."""
        return agreement(truth, self.hits if self.distinct_hits is None else self.distinct_hits, k)


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
    vectors: Cached
    """Every text's float vector (the truth's, and the searched stores' when `seeded`)."""
    seeded: bool
    """Both searched stores were filled with `vectors` (`--cached`)."""
    truth: list[list[int]]
    """Each query's exact float top 10."""
    index: list[IndexFigures]


#: What each add row's side does for every text, as the row says it.
MEM0_ITEM = "embeds and lemmatizes it, inserts it into FAISS (files rewritten) and a history row"
SQUIRREL_ITEM = "look-alike check, SQLite row and lexical terms; its vector embedded behind"


def adds_lines(figures: Figures) -> list[str]:
    """The add rows, then the ratios to mem0's `add`: the same end state first."""
    r = figures.adds_per_s
    n, size = figures.sample, figures.size

    def row(what: str, texts: int, key: str) -> str:
        return f"| {what} | {texts} | {r[key][0]:.1f} | {r[key][1]:.1f} |"

    lines = [
        "| adds (what each side does per text) | texts | acknowledged /s | vector-searchable /s |",
        "|---|---|---|---|",
        row(f"mem0 `add`, one text per call ({MEM0_ITEM}, in the call)", n, "mem0_one"),
        row(
            f"mem0 `add`, a list of {BATCH} (`infer=False`: per message, one after another,"
            f" {MEM0_ITEM})",
            n,
            "mem0_list",
        ),
        row(
            f"Squirrel `RememberMany`, {BATCH} per call ({SQUIRREL_ITEM}; one transaction"
            " per call)",
            n,
            "squirrel_many",
        ),
        row(
            f"Squirrel `Remember`, one per call ({SQUIRREL_ITEM}; one transaction per text)",
            n,
            "squirrel_one",
        ),
    ]
    if not figures.seeded:
        lines += [
            row(
                f"Squirrel `RememberMany`, {BATCH} per call: the searched store",
                size,
                "squirrel_fill",
            ),
            row(
                f"mem0's searched store, {FILL_BATCH} per vector-store insert (bench shortcut,"
                " not an add path)",
                size,
                "mem0_fill",
            ),
        ]
    one = r["mem0_one"][0]
    lines += [
        "",
        "| against mem0 `add` one per call, same texts | Squirrel `RememberMany`"
        " | Squirrel `Remember` |",
        "|---|---|---|",
        f"| same end state: every text vector-searchable (headline) |"
        f" {r['squirrel_many'][1] / one:.2f}x | {r['squirrel_one'][1] / one:.2f}x |",
        f"| acknowledged: in SQLite, searchable lexically only (not the same state) |"
        f" {r['squirrel_many'][0] / one:.2f}x | {r['squirrel_one'][0] / one:.2f}x |",
    ]
    return lines


def search_lines(figures: Figures, queries: Sequence[Query], chosen: int) -> list[str]:
    """One row per side and round: latency, CPU, recall against exact float search and the
    gold turns; then the ratio row."""
    kind = "flat" if figures.size <= APPROXIMATE_ABOVE else "IVF"
    lines = [
        "| search | load | p50 ms | p95 ms | p99 ms | CPU ms per search"
        " | recall@5 exact | recall@10 exact | gold@5 | gold@10 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    truth = figures.truth
    for round_ in figures.rounds:
        m, s = round_.mem0, round_.squirrel
        where = f"{round_.load_start:.1f}-{round_.load_end:.1f}"
        mem0_name = f"mem0 ({chosen} thread{'s' if chosen > 1 else ''}), flat"
        sides = ((mem0_name, m), (f"Squirrel, {round_.encoder} queries, {kind}", s))
        for name, side in sides:
            lines.append(
                f"| {name} | {where} | {side.p(50):.1f} | {side.p(95):.1f} | {side.p(99):.1f}"
                f" | {side.cpu_ms:.1f} | {side.exact(truth, 5):.3f} | {side.exact(truth, 10):.3f}"
                f" | {side.recall(queries, 5):.3f} | {side.recall(queries, 10):.3f} |"
            )
        lines.append(
            f"| mem0 / Squirrel ({round_.encoder}) | | {m.p(50) / s.p(50):.2f}x"
            f" | {m.p(95) / s.p(95):.2f}x | {m.p(99) / s.p(99):.2f}x"
            f" | {m.cpu_ms / s.cpu_ms:.2f}x | | | | |"
        )
    lines += [
        "",
        "recall@k exact: the share of each query's exact top k (NumPy: the float MiniLM vector"
        " of the query against the float vector of every text alone) in the side's top k;"
        " gold@k: the share of the question's gold turns in it.",
    ]
    return lines


def index_lines(figures: Figures) -> list[str]:
    lines = [
        f"Squirrel's vector index alone at {figures.size} vectors, in this process on the"
        " float vectors of the texts (top 10, one query at a time; recall against the exact"
        " float top k as above):",
        "",
        "| index | query vectors | p50 ms | p95 ms | recall@5 exact | recall@10 exact |",
        "|---|---|---|---|---|---|",
    ]
    for n, v in enumerate(figures.index):
        name = f"{v.kind} (the service's kind)" if n < len(figures.index) // 2 else v.kind
        lines.append(
            f"| {name} | {v.encoder} | {v.p50:.2f} | {v.p95:.2f} | {v.recall_5:.3f}"
            f" | {v.recall_10:.3f} |"
        )
    return lines


def report(figures: Figures, queries: Sequence[Query], load: float) -> str:
    turns = min(len(conversations()[0]), figures.size)
    threads = ", ".join(f"{n}: {p50:.1f} ms" for n, p50 in figures.threads_p50.items())
    chosen = min(figures.threads_p50, key=lambda n: figures.threads_p50[n])
    c = figures.vectors
    stores = (
        "both searched stores hold these vectors (of each text alone); no fill rates"
        if figures.seeded
        else "each side embeds its own searched store (Squirrel's vectors are of `key: text`)"
    )
    embed_rate = f", {c.embedded / c.seconds:.1f} texts/s" if c.embedded and c.seconds else ""
    lines = [
        f"store: {figures.size} texts ({turns} conversation turns, the rest generated memories);"
        f" {len(queries)} searches (top 10) per round; load {load:.1f} at the start"
        f" ({os.cpu_count()} cores)",
        f"float vectors of the {len(c.vectors)} texts ({c.model_id}): {c.from_cache} distinct"
        f" texts read from the embedding cache, {c.embedded} embedded in this run"
        f" ({c.seconds:.0f} s{embed_rate}, load {load:.1f} at its end); {stores}",
        f"mem0 search p50 by torch threads tried ({threads}): {chosen} used",
        "",
        *adds_lines(figures),
        "",
        *search_lines(figures, queries, chosen),
        "",
        *index_lines(figures),
    ]
    return "\n".join(lines)
