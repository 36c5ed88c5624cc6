"""Every ranking of a fixed query set on seeded stores, printed whole: what "rankings unchanged"
is checked against when a change to the search path should only make it faster.

For each size a project is filled as `bench.search_floor` fills it (`seed_project` of
`bench.seeded_project`: the same seed gives the same memories and vectors; up to `--base-texts`
embedded through the on-disk embedding cache, the rest derived), opened in this process (no
gRPC), and each of the bench's developer questions is asked two ways:

- `lexical`: BM25 alone (`search_fts_memories`, the candidate pool of a search, 50), the
  in-memory lexical index once built, as the service answers;
- `search`: the whole of `Retriever.search` (top 10): vector, lexical and fusion.

Each hit is printed as a short hash of its memory's key and content (memory ids are random, the
texts are the seed's) and its score in full (`repr`), one line per question and way. The output
holds no timings, so the same tree prints the same bytes: run it before and after a change and
`diff` the two outputs; an empty diff is "rankings unchanged".

Usage: python -m bench.search_rankings [--sizes 400,10000] [--base-texts 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import logging
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import structlog

from bench.common import git_repo
from bench.memory_text import DEVELOPER_QUESTIONS
from bench.seeded_project import base_texts_arg, loaded_embedder, seed_project
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.retrieval import RetrievalSettings, Retriever
from squirrel_memory.storage import SqliteStore

TOP = 10
LEXICAL_BUILD_SECONDS = 600.0
"""Longest wait for the in-memory lexical index (seconds at 100k memories)."""


def memory_mark(key: str, content: str) -> str:
    """A memory named by its text, the same in every run of the same seed."""
    text = f"{key}\x00{content}".encode()
    return hashlib.sha1(text, usedforsecurity=False).hexdigest()[:12]


def ranking_line(size: int, way: str, n: int, hits: Sequence[tuple[str, float]]) -> str:
    """One ranking: the size, the way it was asked, the question's number and each hit."""
    listed = " ".join(f"{mark}:{score!r}" for mark, score in hits)
    return f"{size} {way} q{n}: {listed}"


async def rankings(root: Path, size: int, embedder: MiniLmEmbedder) -> list[str]:
    """Every question's lexical and whole-search ranking on the seeded project at `root`."""
    store = await SqliteStore.open(str(root))
    try:
        await asyncio.to_thread(store.wait_lexical_index, LEXICAL_BUILD_SECONDS)
        index = FaissIndex.load(index_path(str(root)), embedder.dim, embedder.model_id)
        retriever = Retriever(store, embedder=embedder, index=index)
        pool = RetrievalSettings().candidate_pool
        lines: list[str] = []
        for n, question in enumerate(DEVELOPER_QUESTIONS):
            found = await store.search_fts_memories(store.project_id, question, None, pool)
            lexical = [(memory_mark(m.key, m.content), score) for m, score in found]
            lines.append(ranking_line(size, "lexical", n, lexical))
            page = await retriever.search(store.project_id, question, TOP)
            hits = [(memory_mark(r.key, r.content), r.score) for r in page.results]
            lines.append(ranking_line(size, "search", n, hits))
        return lines
    finally:
        await store.close()


async def run(sizes: Sequence[int], base_texts: int) -> list[str]:
    embedder = loaded_embedder()
    lines: list[str] = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "project"
            git_repo(root)
            await seed_project(root, size, embedder, base_texts)
            lines += await rankings(root, size, embedder)
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="400,10000")
    parser.add_argument("--base-texts", type=base_texts_arg, default=1000, help="a count or all")
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    sizes = [int(size) for size in args.sizes.split(",")]
    for line in asyncio.run(run(sizes, args.base_texts)):
        sys.stdout.write(line + "\n")


if __name__ == "__main__":
    main()
