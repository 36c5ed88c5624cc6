"""A search page as rows (`Retriever.search_rows`): the memory, its rounded score and a reason
made straight from the ranking, the same as the frozen `SearchResult` path gave, and the
results a caller leaves out dropped before any reason is written."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

import pytest

from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import INDEX_FILE_NAME, FaissIndex
from squirrel_memory.llm.read_prompts import Note, WrittenBy
from squirrel_memory.llm.read_writer import LlmWriter
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.retrieval import RetrievalSettings, Retriever, ranking, results
from squirrel_memory.retrieval.results import explain, search_result
from squirrel_memory.storage import SqliteStore
from tests.unit.memory.test_retrieval import BROAD, MEMORIES, add_memory, index_items

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
QUERIES = (
    BROAD,
    "JWT login expiry",
    "docker postgres port",
    "how are migrations created",
    "auth handler tokens refresh",
    "add the new one then update",
)
"""Queries whose pages name terms, touch scope paths and (with the fake embedder's cosines)
fall back to closeness in meaning."""


class _Writer:
    """Claude's reasons stood in for: records the notes it was asked about."""

    def __init__(self) -> None:
        self.asked: list[list[str]] = []

    async def search_reasons(self, query: str, results: Sequence[Note]) -> dict[str, str] | None:
        self.asked.append([n.id for n in results])
        return {n.id: f"written for {n.key}" for n in results}


class _Project:
    def __init__(self, root: Path, store: SqliteStore, index: FaissIndex, embedder: FakeEmbedder):
        self.root, self.store, self.index, self.embedder = root, store, index, embedder
        self.items: dict[str, MemoryItem] = {}

    def items_by_id(self) -> dict[str, MemoryItem]:
        return {m.id: m for m in self.items.values()}

    def retriever(self, writer: _Writer | None = None, min_similarity: float = 0.0) -> Retriever:
        return Retriever(
            self.store,
            embedder=self.embedder,
            index=self.index,
            settings=RetrievalSettings(vector_floor=0.1, min_similarity=min_similarity),
            clock=lambda: NOW,
            writer=cast(LlmWriter, writer),
        )


@pytest.fixture
async def project(tmp_path: Path) -> AsyncIterator[_Project]:
    store = await SqliteStore.open(str(tmp_path))
    embedder = FakeEmbedder(dim=128)
    index = FaissIndex(
        embedder.dim, embedder.model_id, tmp_path / ".ctx" / "index" / INDEX_FILE_NAME
    )
    made = _Project(tmp_path, store, index, embedder)
    for kind, key, content, tags, importance, paths in MEMORIES:
        made.items[key] = await add_memory(store, kind, key, content, tags, importance, paths)
    # Only generic words in common with its queries: explained by closeness in meaning.
    made.items["adding"] = await add_memory(
        store, MemoryType.RECIPE, "adding", "Add the new one, then update the existing one."
    )
    await index_items(embedder, index, list(made.items.values()))
    yield made
    await store.close()


@pytest.mark.parametrize("scopes", [(), ("src/auth.py", "migrations")])
async def test_rows_hold_the_reasons_and_scores_the_scored_memories_explain(
    project: _Project, scopes: tuple[str, ...]
) -> None:
    retriever = project.retriever()
    root = str(project.root)
    texts: set[str] = set()
    for query in QUERIES:
        ranked, _ = await retriever.rank(root, query, scope_paths=scopes, limit=50)
        page = await retriever.search_rows(root, query, top_k=10, scope_paths=scopes)
        expected = [(s.item.id, round(s.score.total, 4), explain(s)) for s in ranked[:10]]
        assert [(m.id, score, reason) for m, score, reason in page.rows] == expected
        frozen = await retriever.search(root, query, top_k=10, scope_paths=scopes)
        assert list(frozen.results) == [search_result(row, NOW) for row in page.rows]
        texts.update(reason for _, _, reason in page.rows)
    # The pages name terms, fall back to closeness in meaning, and (with scopes) touch paths.
    assert any(t.startswith("Matches ") for t in texts)
    close = {t for t in texts if t.startswith("Close in meaning")}
    assert len(close) >= 2  # each with its own similarity: the reasons' cache keys on it
    assert any("ouches " in t for t in texts) == bool(scopes)


async def test_an_empty_page_asks_nothing_of_the_caller_or_the_writer(project: _Project) -> None:
    writer = _Writer()
    asked: list[list[str]] = []

    async def leave_out(ids: list[str]) -> set[str]:
        asked.append(ids)
        return set()

    retriever = project.retriever(writer, min_similarity=0.99)
    root = str(project.root)
    page = await retriever.search_rows(root, "zebra quokka", top_k=5, leave_out=leave_out)
    assert page.rows == [] and page.total == 0 and page.next_page_token is None
    assert asked == [] and writer.asked == []
    assert page.written_by is WrittenBy.RULES
    assert (await retriever.search(root, "zebra quokka", top_k=5)).results == ()


async def test_left_out_results_get_no_reason_and_keep_the_search_total(
    project: _Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = str(project.root)
    whole = await project.retriever().search_rows(root, BROAD, top_k=4)
    assert len(whole.rows) == 4 and whole.next_page_token
    ids = [m.id for m, _, _ in whole.rows]
    gone = {ids[1], ids[3]}  # one of them the page's last result

    writer = _Writer()
    given: list[list[str]] = []

    async def leave_out(page_ids: list[str]) -> set[str]:
        given.append(page_ids)
        return gone

    explained: list[str] = []

    def shown_terms(query_terms: tuple[str, ...], item: MemoryItem) -> tuple[str, ...]:
        explained.append(item.id)
        return results.shown_terms(query_terms, item)

    monkeypatch.setattr(ranking, "shown_terms", shown_terms)
    page = await project.retriever(writer).search_rows(root, BROAD, top_k=4, leave_out=leave_out)
    assert given == [ids]
    assert explained == [ids[0], ids[2]]  # no reason worked out for a result left out
    assert [m.id for m, _, _ in page.rows] == [ids[0], ids[2]]
    assert writer.asked == [[ids[0], ids[2]]]  # Claude is asked about the shown results only
    assert [r for _, _, r in page.rows] == [
        f"written for {project.items_by_id()[i].key}" for i in (ids[0], ids[2])
    ]
    assert page.written_by is WrittenBy.LLM
    assert (page.total, page.next_page_token) == (whole.total, whole.next_page_token)

    everything = await project.retriever().search_rows(root, BROAD, top_k=4, leave_out=_all_of)
    assert everything.rows == [] and everything.total == whole.total


async def _all_of(ids: list[str]) -> set[str]:
    return set(ids)


async def test_a_memory_forgotten_after_indexing_is_not_a_row_and_the_page_fills(
    project: _Project,
) -> None:
    root = str(project.root)
    retriever = project.retriever()
    before = await retriever.search_rows(root, "JWT tokens expire login", top_k=3)
    target = before.rows[0][0]
    await project.store.forget(target.id, "wrong")
    assert target.id in project.index  # the index lags the store

    after = await retriever.search_rows(root, "JWT tokens expire login", top_k=3)
    assert target.id not in {m.id for m, _, _ in after.rows}
    assert len(after.rows) == min(3, before.total - 1)
    assert after.total == before.total - 1
    assert all(m.type in set(MemoryType) and reason for m, _, reason in after.rows)
