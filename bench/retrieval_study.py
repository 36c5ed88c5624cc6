"""Does search find the memory that answers a question put in other words, and abstain when
none does? A blind study on made-up projects (`bench/data/retrieval_study.toml`).

Each project's memories (the shapes the extractors write: what the project is, its language and
stack, recipes, pitfalls, the user's style, where things are) are stored in their own SQLite
project and embedded with MiniLM (the fake hashing embedder when its package is missing; the
output says which). Every question is asked with `Retriever.search` (top 5), as SearchMemory asks
it. Per group of questions: how many found their memory in the top 5, how many got nothing at
all; the off-topic questions (asked of every project) must get nothing. Beside them, the queries
of `bench/data/retrieval_queries.json` that must abstain, searched over its hand-written memories.

Run: `.venv/bin/python -m bench.retrieval_study [--embedder auto|minilm|fake] [--misses]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import tomllib
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import structlog

from bench.retrieval_quality import DEFAULT_DATA, choose_embedder
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import Retriever, embedding_text
from squirrel_memory.retrieval.intents import question_intents
from squirrel_memory.storage import SqliteBackend, Store

USER = "dain"
TOP_K = 5
CASES = Path(__file__).resolve().parent / "data" / "retrieval_study.toml"


async def _filled(
    backend: SqliteBackend, root: Path, name: str, memories: Sequence[Sequence[str]]
) -> Store:
    folder = root / name
    folder.mkdir()
    store = await backend.open_store(str(folder), None)
    for kind, key, content in memories:
        candidate = MemoryCandidate(
            type=MemoryType(kind), key=key, content=content, tags=(), importance=0.6
        )
        await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER)
    return store


async def indexed_retriever(store: Store, embedder: Embedder) -> Retriever:
    """A retriever over every memory of `store`, its vector index filled by `embedder`."""
    items, _ = await store.list_memories(store.project_id, limit=1000)
    vectors = await embedder.embed([embedding_text(m) for m in items])
    index, _ = await asyncio.to_thread(store.open_vector_index, embedder.dim, embedder.model_id)
    await asyncio.to_thread(index.upsert, zip([m.id for m in items], vectors, strict=True))
    return Retriever(store, embedder=embedder, index=index)


async def _keys(retriever: Retriever, question: str) -> list[str]:
    page = await retriever.search(retriever.project_id, question, TOP_K)
    return [r.key for r in page.results]


async def run(args: argparse.Namespace, root: Path) -> int:
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    embedder, embedder_name = choose_embedder(args.embedder)
    backend = SqliteBackend()
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # found, nothing, asked
    off = [0, 0]  # answered, asked
    misses: list[str] = []
    cases = tomllib.loads(CASES.read_text(encoding="utf-8"))
    projects = cases["project"]
    for project in projects:
        store = await _filled(backend, root, project["name"], project["memories"])
        retriever = await indexed_retriever(store, embedder)
        for group, question, key in project["questions"]:
            keys = await _keys(retriever, question)
            row = found[group]
            row[0] += key in keys
            row[1] += not keys
            row[2] += 1
            if key not in keys:
                misses.append(f"[{project['name']}] {question} -> want {key}, got {keys}")
        for question in cases["off_topic"]:
            keys = await _keys(retriever, question)
            off[0] += bool(keys)
            off[1] += 1
            if keys:
                misses.append(f"[{project['name']}] OFF-TOPIC {question} -> got {keys}")
    data = json.loads(DEFAULT_DATA.read_text(encoding="utf-8"))
    hand = [(m["type"], m["key"], m["content"]) for m in data["memories"]]
    store = await _filled(backend, root, "labelled", hand)
    retriever = await indexed_retriever(store, embedder)
    abstain = [q["query"] for q in data["queries"] if not q["relevant"]]
    labelled = [bool(await _keys(retriever, q)) for q in abstain]
    print(f"embedder: {embedder_name}; {len(projects)} made-up projects, top {TOP_K}\n")
    print("| questions | asked | answer in top 5 | got nothing |")
    print("|---|---|---|---|")
    total = [0, 0, 0]
    for group in sorted(found):
        hit, nothing, asked = found[group]
        total = [total[0] + hit, total[1] + nothing, total[2] + asked]
        print(f"| {group} | {asked} | {hit} | {nothing} |")
    print(f"| all | {total[2]} | {total[0]} | {total[1]} |")
    with_intent = sum(1 for q in cases["off_topic"] if question_intents(q))
    print(
        f"\noff-topic questions answered: {off[0]}/{off[1]} (by a word they share with a memory);"
        f" off-topic questions with an intent (must be 0): {with_intent}/{len(cases['off_topic'])}"
    )
    print(
        "retrieval_queries.json abstain queries answered by search (hand-written memories):"
        f" {sum(labelled)}/{len(labelled)}"
    )
    if args.misses:
        print("\n" + "\n".join(misses))
    return 0


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--embedder", choices=("auto", "minilm", "fake"), default="auto")
    options.add_argument("--misses", action="store_true", help="list the questions missed")
    args = options.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(args, Path(tmp)))


if __name__ == "__main__":
    sys.exit(main())
