"""Retrieval quality on long real conversations: recall@5/@10 and MRR by search mode.

`bench/data/long_conversations.json` holds three long coding sessions (their provenance is in
the file): every user turn, assistant turn and command of a session is stored as one memory with
an explicit key, one store per conversation, and the questions were written from what later
turns refer back to; a question's gold are the turns that answer it. Each conversation is
indexed with the real MiniLM embedder when its model package is installed (the fake hashing
embedder otherwise; the output says which), then every question is ranked by lexical-only,
vector-only and hybrid retrieval with each fusion method, in one run, so the rows compare.

Run: `.venv/bin/python -m bench.retrieval_long [--embedder auto|minilm|fake]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import structlog

from bench.retrieval_quality import choose_embedder
from squirrel_memory.embedder import Embedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import RetrievalSettings, Retriever, embedding_text
from squirrel_memory.scoring import FusionMethod
from squirrel_memory.storage import SqliteStore

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE / "data" / "long_conversations.json"
CANDIDATES = 10
USER = "bench"


@dataclass(frozen=True)
class Question:
    text: str
    gold: frozenset[str]


@dataclass
class Tally:
    """Per-question recall@5, recall@10 and reciprocal rank, summed."""

    r5: float = 0.0
    r10: float = 0.0
    rr: float = 0.0
    n: int = 0

    def add(self, ranked: Sequence[str], gold: frozenset[str]) -> None:
        self.r5 += len(gold & set(ranked[:5])) / len(gold)
        self.r10 += len(gold & set(ranked[:10])) / len(gold)
        first = next((n for n, key in enumerate(ranked, 1) if key in gold), None)
        self.rr += 1 / first if first else 0.0
        self.n += 1

    def row(self) -> tuple[float, float, float]:
        n = max(1, self.n)
        return self.r5 / n, self.r10 / n, self.rr / n


def turn_key(turn: int) -> str:
    return f"turn-{turn:04d}"


def modes() -> dict[str, RetrievalSettings]:
    """The compared retrieval settings; the shipped default is marked."""
    base = RetrievalSettings()
    rows = {
        "lexical-only": replace(base, use_vector=False),
        "vector-only": replace(base, use_lexical=False),
    }
    for method in FusionMethod:
        mark = " *" if method is base.fusion_method else ""
        rows[f"hybrid {method.value}{mark}"] = replace(base, fusion_method=method)
    return rows


async def load_conversation(
    root: Path, conversation: dict[str, Any], embedder: Embedder
) -> tuple[SqliteStore, FaissIndex]:
    """One store and vector index holding every turn of one conversation."""
    store = await SqliteStore.open(str(root))
    for turn in conversation["turns"]:
        candidate = MemoryCandidate(
            type=MemoryType.PROJECT_FACT,
            key=turn_key(turn["turn"]),
            content=turn["text"],
            tags=(turn["speaker"],),
            importance=0.5,
        )
        await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER)
    items, _ = await store.list_memories(store.project_id, limit=1000)
    vectors = await embedder.embed([embedding_text(m) for m in items])
    index = FaissIndex(embedder.dim, embedder.model_id)
    index.upsert(zip([m.id for m in items], vectors, strict=True))
    return store, index


async def run(data: dict[str, Any], embedder: Embedder, tmp: Path) -> dict[str, Tally]:
    tallies = {name: Tally() for name in modes()}
    for n, conversation in enumerate(data["conversations"]):
        root = tmp / f"conversation-{n}"
        root.mkdir()
        store, index = await load_conversation(root, conversation, embedder)
        try:
            questions = [
                Question(q["question"], frozenset(turn_key(t) for t in q["gold"]))
                for q in conversation["questions"]
            ]
            for name, settings in modes().items():
                retriever = Retriever(store, embedder=embedder, index=index, settings=settings)
                for question in questions:
                    ranked, _ = await retriever.rank(
                        store.project_id, question.text, limit=CANDIDATES
                    )
                    tallies[name].add([s.item.key for s in ranked], question.gold)
        finally:
            await store.close()
    return tallies


def print_table(tallies: dict[str, Tally]) -> None:
    print(f"  {'mode':<22}{'R@5':>7}{'R@10':>7}{'MRR':>7}")
    print("  " + "-" * 43)
    for name, tally in tallies.items():
        r5, r10, mrr = tally.row()
        print(f"  {name:<22}{r5:>7.3f}{r10:>7.3f}{mrr:>7.3f}")


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--data", type=Path, default=DEFAULT_DATA)
    options.add_argument("--embedder", choices=("auto", "minilm", "fake"), default="auto")
    options.add_argument(
        "--float-queries", action="store_true", help="embed queries with the float model"
    )
    args = options.parse_args(argv)
    if not args.data.is_file():
        print(f"no data file at {args.data}", file=sys.stderr)
        return 2
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    data = json.loads(args.data.read_text(encoding="utf-8"))
    embedder, embedder_name = choose_embedder(args.embedder, float_queries=args.float_queries)
    turns = sum(len(c["turns"]) for c in data["conversations"])
    questions = sum(len(c["questions"]) for c in data["conversations"])
    print(f"embedder: {embedder_name}")
    print(
        f"conversations: {len(data['conversations'])}, {turns} turns, {questions} questions"
        " (* = shipped default)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        tallies = asyncio.run(run(data, embedder, Path(tmp).resolve()))
    print_table(tallies)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
