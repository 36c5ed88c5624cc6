"""Retrieval quality on long real conversations: recall@5/@10 and MRR by search mode.

`bench/data/long_conversations.json` (three sessions, the tuning split) and
`bench/data/long_conversations_holdout.json` (six more sessions of other projects and of Claude
Code and Codex, the held-out split: retrieval settings are never tuned on it) hold long real
coding sessions with their provenance: every user turn, assistant turn, tool call, tool result
and command of a session is stored as one memory with an explicit key, one store per
conversation, and the questions were written from what later turns refer back to; a question's
gold are the turns that answer it. Each conversation is indexed with the real MiniLM embedder
when its model package is installed (the fake hashing embedder otherwise; the output says
which), then every question is ranked by lexical-only, vector-only and hybrid retrieval with
each fusion method, in one run, so the rows compare.

Per split it prints recall@5 with a 95 % bootstrap interval (questions resampled), recall@10,
MRR and, for each mode, the questions whose recall@5 it wins and loses against the shipped
default (paired); then recall@5 per conversation, and the recall of the union of the lexical and
the vector top 5 / top 10 (what a perfect fusion of the two lists could reach).

`--view chat` keeps only the user's and the assistant's turns (short conversational text, no
tool calls or output: closer to a chat-memory store) and the questions that one of them answers.

Run: `.venv/bin/python -m bench.retrieval_long [--embedder auto|minilm|fake] [--view all|chat]
[--data PATH ...]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import structlog

from bench.retrieval_quality import choose_embedder
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import RetrievalSettings, Retriever, embedding_text
from squirrel_memory.scoring import FusionMethod
from squirrel_memory.storage import SqliteStore

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = (
    HERE / "data" / "long_conversations.json",
    HERE / "data" / "long_conversations_holdout.json",
)
DEFAULT_SPLIT = "tuning"
CANDIDATES = 10
USER = "bench"
LEXICAL = "lexical-only"
VECTOR = "vector-only"
BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = 13
CHAT_SPEAKERS = frozenset({"user", "assistant"})


@dataclass(frozen=True)
class Question:
    text: str
    gold: frozenset[str]


@dataclass(frozen=True)
class Conversation:
    name: str
    split: str
    turns: int
    questions: tuple[Question, ...]


@dataclass(frozen=True)
class Outcome:
    """One question ranked by one mode: recall@5, recall@10, reciprocal rank, top 10 keys."""

    conversation: str
    split: str
    r5: float
    r10: float
    rr: float
    top: tuple[str, ...]


@dataclass
class Results:
    """Every mode's outcome for every question, in the same question order."""

    outcomes: dict[str, list[Outcome]] = field(default_factory=dict)
    gold: list[frozenset[str]] = field(default_factory=list)


def turn_key(turn: int) -> str:
    return f"turn-{turn:04d}"


def outcome(conversation: Conversation, ranked: Sequence[str], gold: frozenset[str]) -> Outcome:
    first = next((n for n, key in enumerate(ranked, 1) if key in gold), None)
    return Outcome(
        conversation.name,
        conversation.split,
        len(gold & set(ranked[:5])) / len(gold),
        len(gold & set(ranked[:10])) / len(gold),
        1 / first if first else 0.0,
        tuple(ranked[:10]),
    )


def shipped_name() -> str:
    return f"hybrid {RetrievalSettings().fusion_method.value} *"


def modes() -> dict[str, RetrievalSettings]:
    """The compared retrieval settings; the shipped default is marked."""
    base = RetrievalSettings()
    rows = {
        LEXICAL: replace(base, use_vector=False),
        VECTOR: replace(base, use_lexical=False),
    }
    for method in FusionMethod:
        mark = " *" if method is base.fusion_method else ""
        rows[f"hybrid {method.value}{mark}"] = replace(base, fusion_method=method)
    return rows


def chat_view(raw: dict[str, Any]) -> dict[str, Any]:
    """A conversation with only its user and assistant turns, and the questions they answer
    (their gold cut to those turns)."""
    turns = [t for t in raw["turns"] if t["speaker"] in CHAT_SPEAKERS]
    kept = {t["turn"] for t in turns}
    questions = []
    for question in raw["questions"]:
        gold = [t for t in question["gold"] if t in kept]
        if gold:
            questions.append({**question, "gold": gold})
    return {**raw, "turns": turns, "questions": questions}


def read_conversations(
    paths: Sequence[Path], *, chat: bool = False
) -> list[tuple[Conversation, dict[str, Any]]]:
    """Every conversation of the data files, with its split (a file's `split`, else tuning);
    with `chat`, their chat view."""
    found: list[tuple[Conversation, dict[str, Any]]] = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        split = str(data.get("split", DEFAULT_SPLIT))
        for stored in data["conversations"]:
            raw = chat_view(stored) if chat else stored
            questions = tuple(
                Question(q["question"], frozenset(turn_key(t) for t in q["gold"]))
                for q in raw["questions"]
            )
            found.append((Conversation(raw["name"], split, len(raw["turns"]), questions), raw))
    return found


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


async def run(
    conversations: Sequence[tuple[Conversation, dict[str, Any]]], embedder: Embedder, tmp: Path
) -> Results:
    results = Results({name: [] for name in modes()})
    for n, (conversation, raw) in enumerate(conversations):
        root = tmp / f"conversation-{n}"
        root.mkdir()
        store, index = await load_conversation(root, raw, embedder)
        try:
            results.gold.extend(q.gold for q in conversation.questions)
            for name, settings in modes().items():
                retriever = Retriever(store, embedder=embedder, index=index, settings=settings)
                for question in conversation.questions:
                    ranked, _ = await retriever.rank(
                        store.project_id, question.text, limit=CANDIDATES
                    )
                    keys = [s.item.key for s in ranked]
                    results.outcomes[name].append(outcome(conversation, keys, question.gold))
        finally:
            await store.close()
    return results


def mean(values: Sequence[float]) -> float:
    return sum(values) / max(1, len(values))


def bootstrap_interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval of the mean (questions resampled, fixed seed)."""
    if not values:
        return 0.0, 0.0
    draw = random.Random(BOOTSTRAP_SEED)
    n = len(values)
    means = sorted(
        sum(values[draw.randrange(n)] for _ in range(n)) / n for _ in range(BOOTSTRAP_SAMPLES)
    )
    return means[int(0.025 * BOOTSTRAP_SAMPLES)], means[int(0.975 * BOOTSTRAP_SAMPLES) - 1]


def wins_losses(mine: Sequence[Outcome], shipped: Sequence[Outcome]) -> tuple[int, int]:
    """Questions whose recall@5 this mode raises and lowers against the shipped default."""
    wins = sum(1 for a, b in zip(mine, shipped, strict=True) if a.r5 > b.r5)
    losses = sum(1 for a, b in zip(mine, shipped, strict=True) if a.r5 < b.r5)
    return wins, losses


def splits_of(results: Results) -> list[str]:
    first = next(iter(results.outcomes.values()))
    return list(dict.fromkeys(o.split for o in first))


def print_tables(results: Results) -> None:
    shipped = shipped_name()
    for split in splits_of(results):
        picks = [i for i, o in enumerate(results.outcomes[shipped]) if o.split == split]
        print(f"\n{split} ({len(picks)} questions)")
        print(f"  {'mode':<22}{'R@5':>7}{'95% interval':>15}{'R@10':>7}{'MRR':>7}{'vs *':>9}")
        print("  " + "-" * 67)
        for name, every in results.outcomes.items():
            rows = [every[i] for i in picks]
            r5 = [o.r5 for o in rows]
            low, high = bootstrap_interval(r5)
            wins, losses = wins_losses(rows, [results.outcomes[shipped][i] for i in picks])
            paired = "" if name == shipped else f"+{wins}/-{losses}"
            print(
                f"  {name:<22}{mean(r5):>7.3f}{f'{low:.3f}-{high:.3f}':>15}"
                f"{mean([o.r10 for o in rows]):>7.3f}{mean([o.rr for o in rows]):>7.3f}"
                f"{paired:>9}"
            )
        union5, union10 = union_recall(results, picks)
        print(f"  union of the lexical and vector lists: top 5 {union5:.3f}, top 10 {union10:.3f}")
    print_conversations(results)


def union_recall(results: Results, picks: Sequence[int]) -> tuple[float, float]:
    """Recall of the union of the lexical-only and vector-only top 5 and top 10."""
    lexical, vector = results.outcomes[LEXICAL], results.outcomes[VECTOR]
    at5: list[float] = []
    at10: list[float] = []
    for i in picks:
        gold = results.gold[i]
        at5.append(len(gold & (set(lexical[i].top[:5]) | set(vector[i].top[:5]))) / len(gold))
        at10.append(len(gold & (set(lexical[i].top) | set(vector[i].top))) / len(gold))
    return mean(at5), mean(at10)


def print_conversations(results: Results) -> None:
    shipped = shipped_name()
    names = [LEXICAL, VECTOR, shipped]
    print("\nrecall@5 per conversation")
    columns = f"{'Qs':>4}{'lexical':>9}{'vector':>8}{'hybrid *':>10}"
    print(f"  {'conversation':<28}{'split':<10}{columns}")
    print("  " + "-" * 67)
    order = list(dict.fromkeys((o.conversation, o.split) for o in results.outcomes[shipped]))
    for conversation, split in order:
        picks = [
            i
            for i, o in enumerate(results.outcomes[shipped])
            if (o.conversation, o.split) == (conversation, split)
        ]
        r5 = [mean([results.outcomes[name][i].r5 for i in picks]) for name in names]
        print(
            f"  {conversation:<28}{split:<10}{len(picks):>4}"
            f"{r5[0]:>9.3f}{r5[1]:>8.3f}{r5[2]:>10.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--data", type=Path, nargs="+", default=list(DEFAULT_DATA))
    options.add_argument("--embedder", choices=("auto", "minilm", "fake"), default="auto")
    options.add_argument(
        "--view", choices=("all", "chat"), default="all", help="chat: user and assistant turns"
    )
    options.add_argument(
        "--float-queries", action="store_true", help="embed queries with the float model"
    )
    args = options.parse_args(argv)
    missing = [str(p) for p in args.data if not p.is_file()]
    if missing:
        print(f"no data file at {', '.join(missing)}", file=sys.stderr)
        return 2
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    conversations = read_conversations(args.data, chat=args.view == "chat")
    embedder, embedder_name = choose_embedder(args.embedder, float_queries=args.float_queries)
    turns = sum(c.turns for c, _ in conversations)
    questions = sum(len(c.questions) for c, _ in conversations)
    print(f"embedder: {embedder_name}; view: {args.view}")
    print(
        f"conversations: {len(conversations)}, {turns} turns, {questions} questions"
        " (* = shipped default; vs * = questions whose recall@5 rises / falls against it)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        results = asyncio.run(run(conversations, embedder, Path(tmp).resolve()))
    print_tables(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
