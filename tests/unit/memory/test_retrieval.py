"""Hybrid search over a real SQLite store and a real FAISS index, with the fake embedder."""

from __future__ import annotations

import asyncio
import base64
import json
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import INDEX_FILE_NAME, FaissIndex
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.retrieval import (
    MAX_TOP_K,
    RetrievalSettings,
    Retriever,
    decode_page_token,
    embedding_text,
    encode_page_token,
    query_terms,
)
from squirrel_memory.retrieval.candidates import Candidates
from squirrel_memory.retrieval.queries import matched_terms
from squirrel_memory.retrieval.results import explain, search_result
from squirrel_memory.scoring import FusionMethod
from squirrel_memory.storage import SqliteStore
from tests.conftest import PATIENCE_SECONDS

USER = "alice"
BROAD = "uses built tokens migrations dependencies postgres"

MEMORIES: list[tuple[MemoryType, str, str, tuple[str, ...], float, tuple[str, ...]]] = [
    (
        MemoryType.USER_STYLE,
        "testing_framework",
        "Uses pytest with fixtures for test setup.",
        ("python", "testing"),
        0.8,
        (),
    ),
    (
        MemoryType.PROJECT_FACT,
        "framework",
        "Built with FastAPI and async SQLAlchemy.",
        ("framework", "fastapi"),
        0.9,
        (),
    ),
    (
        MemoryType.PITFALL,
        "auth_token_expiry",
        "JWT tokens expire after one hour; the refresh logic lives in the login handler.",
        ("auth", "jwt"),
        0.8,
        ("src/auth.py",),
    ),
    (
        MemoryType.RECIPE,
        "db_migrations",
        "Create migrations with `alembic revision --autogenerate` then `alembic upgrade head`.",
        ("database", "alembic"),
        0.6,
        ("migrations/env.py",),
    ),
    (
        MemoryType.PROJECT_FACT,
        "package_manager",
        "Dependencies are managed with uv; run commands through `uv run`.",
        ("uv", "tooling"),
        0.7,
        ("pyproject.toml",),
    ),
    (
        MemoryType.PITFALL,
        "docker_compose_ports",
        "Postgres in docker compose listens on 5433, not 5432, to avoid the host database.",
        ("docker", "postgres"),
        0.7,
        ("docker-compose.yml",),
    ),
]


@dataclass
class World:
    root: Path
    store: SqliteStore
    index: FaissIndex
    embedder: FakeEmbedder
    retriever: Retriever
    items: dict[str, MemoryItem]


async def add_memory(
    store: SqliteStore,
    kind: MemoryType,
    key: str,
    content: str,
    tags: Sequence[str] = (),
    importance: float = 0.5,
    paths: Sequence[str] = (),
) -> MemoryItem:
    candidate = MemoryCandidate(
        type=kind,
        key=key,
        content=content,
        tags=tuple(tags),
        importance=importance,
        file_paths=tuple(paths),
        source_episode_id="ep_1",
    )
    item = await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER)
    assert item is not None
    return item


async def index_items(
    embedder: FakeEmbedder, index: FaissIndex, items: Sequence[MemoryItem]
) -> None:
    vectors = await embedder.embed([embedding_text(i) for i in items])
    index.upsert(zip([i.id for i in items], vectors, strict=True))


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    store = await SqliteStore.open(str(tmp_path))
    embedder = FakeEmbedder(dim=128)
    index = FaissIndex(
        embedder.dim, embedder.model_id, tmp_path / ".ctx" / "index" / INDEX_FILE_NAME
    )
    items: dict[str, MemoryItem] = {}
    for kind, key, content, tags, importance, paths in MEMORIES:
        items[key] = await add_memory(store, kind, key, content, tags, importance, paths)
    await index_items(embedder, index, list(items.values()))
    retriever = Retriever(
        store, embedder=embedder, index=index, settings=RetrievalSettings(vector_floor=0.1)
    )
    world = World(tmp_path, store, index, embedder, retriever, items)
    yield world
    await world.store.close()  # the store a test reopened, if it did


async def test_search_finds_a_memory_by_its_words_with_reason_and_source(world: World) -> None:
    page = await world.retriever.search(str(world.root), "JWT login expiry", top_k=3)

    assert page.results[0].memory_id == world.items["auth_token_expiry"].id
    top = page.results[0]
    assert top.reason.startswith("Matches 'jwt'")
    assert top.reason.endswith("a pitfall.")
    assert top.source.episode_ids == ("ep_1",)
    assert top.source.file_paths == ("src/auth.py",)
    assert 0 < top.score <= 1
    assert top.recency_days == 0
    assert page.vector_used


async def test_reason_names_matched_terms_paths_and_type(world: World) -> None:
    page = await world.retriever.search(
        str(world.root), "jwt tokens", scope_paths=["src/auth.py"], top_k=1
    )

    assert page.results[0].reason == "Matches 'jwt', 'tokens'; touches src/auth.py; a pitfall."


async def test_reason_names_each_word_in_one_form(world: World) -> None:
    page = await world.retriever.search(str(world.root), "jwt token tokens expiry", top_k=1)

    reason = page.results[0].reason
    assert reason.startswith("Matches ")
    named = reason.split(";")[0].removeprefix("Matches ").split(", ")
    assert "'jwt'" in named and "'expiry'" in named
    assert ("'token'" in named) != ("'tokens'" in named)


async def test_search_filters_by_type(world: World) -> None:
    page = await world.retriever.search(
        str(world.root), "postgres database migrations", types=[MemoryType.RECIPE], top_k=10
    )

    assert [r.memory_id for r in page.results] == [world.items["db_migrations"].id]
    assert page.total == 1


async def test_scope_paths_raise_a_memory_touching_them(world: World) -> None:
    query = "postgres database"
    plain = await world.retriever.search(str(world.root), query, top_k=10)
    scoped = await world.retriever.search(
        str(world.root), query, top_k=10, scope_paths=["migrations/"]
    )

    recipe = world.items["db_migrations"].id
    plain_score = next(r.score for r in plain.results if r.memory_id == recipe)
    scoped_score = next(r.score for r in scoped.results if r.memory_id == recipe)
    assert scoped_score > plain_score


async def test_search_is_lexical_only_while_the_model_loads(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        item = await add_memory(store, MemoryType.PROJECT_FACT, "framework", "Built with FastAPI.")
        embedder = FakeEmbedder(dim=64, loaded=False)
        index = FaissIndex(64, embedder.model_id)
        index.upsert([(item.id, FakeEmbedder(dim=64).embed_now(["Built with FastAPI."])[0])])
        retriever = Retriever(store, embedder=embedder, index=index)

        page = await retriever.search(str(tmp_path), "fastapi")

        assert [r.memory_id for r in page.results] == [item.id]
        assert not page.vector_used
        assert embedder.calls == 0
    finally:
        await store.close()


async def test_search_without_an_index_is_lexical_only(world: World) -> None:
    retriever = Retriever(world.store, embedder=world.embedder, index=None)

    page = await retriever.search(str(world.root), "alembic")

    assert [r.memory_id for r in page.results] == [world.items["db_migrations"].id]
    assert not page.vector_used


async def test_vector_only_search_ranks_by_embedding_similarity(world: World) -> None:
    retriever = Retriever(
        world.store,
        embedder=world.embedder,
        index=world.index,
        settings=RetrievalSettings(use_lexical=False, vector_floor=0.1),
    )

    page = await retriever.search(str(world.root), "pytest fixturing", top_k=1)

    assert page.results[0].memory_id == world.items["testing_framework"].id


async def test_deleted_memory_disappears_from_search_at_once(world: World) -> None:
    target = world.items["auth_token_expiry"]
    await world.store.forget(target.id, "wrong")

    page = await world.retriever.search(str(world.root), "JWT tokens expire", top_k=10)

    assert target.id not in {r.memory_id for r in page.results}
    assert target.id in world.index  # the index lags; search still never returns it


async def test_superseded_memory_is_replaced_in_search(world: World) -> None:
    old = world.items["framework"]
    candidate = MemoryCandidate(
        MemoryType.PROJECT_FACT, "framework", "Built with Litestar.", ("framework",), 0.9
    )
    new = await world.store.apply_decision(
        UpdateDecision(UpdateAction.DELETE_AND_ADD, candidate, target_id=old.id), user_id=USER
    )
    assert new is not None

    page = await world.retriever.search(str(world.root), "framework built with", top_k=10)

    ids = {r.memory_id for r in page.results}
    assert new.id in ids
    assert old.id not in ids


async def test_search_answers_the_same_after_a_restart(world: World) -> None:
    before = await world.retriever.search(str(world.root), "docker postgres port", top_k=3)
    world.index.save()
    await world.store.close()

    store = await SqliteStore.open(str(world.root))
    try:
        embedder = FakeEmbedder(dim=128)
        assert world.index.path is not None
        index = FaissIndex.load(world.index.path, embedder.dim, embedder.model_id)
        retriever = Retriever(
            store, embedder=embedder, index=index, settings=RetrievalSettings(vector_floor=0.1)
        )
        after = await retriever.search(str(world.root), "docker postgres port", top_k=3)
    finally:
        await store.close()
        world.store = await SqliteStore.open(str(world.root))

    assert [(r.memory_id, r.score) for r in after.results] == [
        (r.memory_id, r.score) for r in before.results
    ]
    assert after.vector_used


async def test_pages_walk_every_result_once(world: World) -> None:
    seen: list[str] = []
    token: str | None = None
    totals: set[int] = set()
    for _ in range(10):
        page = await world.retriever.search(str(world.root), BROAD, top_k=2, page_token=token)
        seen.extend(r.memory_id for r in page.results)
        totals.add(page.total)
        token = page.next_page_token
        if token is None:
            break

    assert token is None
    assert len(seen) == len(set(seen))
    assert totals == {len(seen)}
    assert len(seen) > 2


async def test_tampered_or_foreign_page_tokens_are_rejected(world: World) -> None:
    first = await world.retriever.search(str(world.root), BROAD, top_k=1)
    assert first.next_page_token is not None
    payload = json.loads(base64.urlsafe_b64decode(first.next_page_token + "=="))
    payload["o"] = 3
    edited = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode()

    for token in (edited, "not-base64!!", "e30", first.next_page_token[:-2], "x" * 600):
        with pytest.raises(InvalidArgumentError):
            await world.retriever.search(str(world.root), BROAD, top_k=1, page_token=token)
    with pytest.raises(InvalidArgumentError):
        await world.retriever.search(
            str(world.root), "another query", top_k=1, page_token=first.next_page_token
        )


def test_page_token_round_trips() -> None:
    token = encode_page_token(7, "abc")

    assert decode_page_token(token, "abc") == 7
    with pytest.raises(InvalidArgumentError):
        decode_page_token(token, "abd")


@pytest.mark.parametrize(
    "query",
    [
        "!!!",
        "...,;:",
        '"',
        "NEAR(auth token, 3)",
        "auth AND OR NOT",
        "key : framework",
        "auth*",
        "(((",
        "\x00jwt",
        "jwt " * 2500,
        "x" * 10_000,
        "🙂 émoji ünïcode \ud800",
    ],
)
async def test_hostile_queries_do_not_crash(world: World, query: str) -> None:
    page = await world.retriever.search(str(world.root), query, top_k=MAX_TOP_K)

    assert page.total == len(page.results)
    assert all(0 <= r.score <= 1 for r in page.results)


async def test_punctuation_only_query_matches_nothing(world: World) -> None:
    page = await world.retriever.search(str(world.root), "?!.,")

    assert page.results == ()
    assert page.total == 0


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
async def test_empty_query_is_invalid(world: World, query: str) -> None:
    with pytest.raises(InvalidArgumentError):
        await world.retriever.search(str(world.root), query)


@pytest.mark.parametrize("top_k", [0, -1, MAX_TOP_K + 1, True])
async def test_bad_top_k_is_invalid(world: World, top_k: int) -> None:
    with pytest.raises(InvalidArgumentError):
        await world.retriever.search(str(world.root), "jwt", top_k=top_k)


async def test_unknown_type_and_foreign_project_are_invalid(world: World) -> None:
    with pytest.raises(InvalidArgumentError):
        await world.retriever.search(str(world.root), "jwt", types=["secrets"])  # type: ignore[list-item]
    with pytest.raises(InvalidArgumentError):
        await world.retriever.search("/elsewhere", "jwt")


async def test_ranking_is_deterministic_on_ties(tmp_path: Path) -> None:
    fixed = datetime(2026, 3, 1, tzinfo=UTC)
    store = await SqliteStore.open(str(tmp_path), clock=lambda: fixed)
    try:
        for n in range(4):
            await add_memory(store, MemoryType.RECIPE, f"deploy_{n}", "Deploy with make release.")
        retriever = Retriever(store, clock=lambda: fixed)
        first = await retriever.search(str(tmp_path), "deploy release", top_k=4)
        second = await retriever.search(str(tmp_path), "deploy release", top_k=4)
    finally:
        await store.close()

    assert [r.memory_id for r in first.results] == [r.memory_id for r in second.results]
    assert [r.memory_id for r in first.results] == sorted(r.memory_id for r in first.results)


def test_query_terms_drop_stop_words_and_split_identifiers() -> None:
    assert query_terms("How do I run the getUserName tests?") == (
        "run",
        "getusername",
        "tests",
        "get",
        "user",
        "name",
    )
    assert query_terms("the and of") == ("the", "and", "of")


def test_query_terms_drop_clitics_and_function_words() -> None:
    # `Anna's` is one term (no stray `s`), `didn't` leaves no `t`, and `has`/`did`/`her`/
    # `during` (which Porter would stem to odd forms or which weigh like content words in
    # short texts) are dropped.
    assert query_terms("What did Anna's team say during her review?") == (
        "anna",
        "team",
        "say",
        "review",
    )
    assert query_terms("Why didn’t the build pass? It has failed") == ("build", "pass", "failed")
    assert query_terms("has had did") == ("has", "had", "did")


def _settings(method: FusionMethod, pool: int) -> RetrievalSettings:
    return RetrievalSettings(vector_floor=0.1, candidate_pool=pool, fusion_method=method)


async def test_a_lexical_hit_outside_the_vector_pool_keeps_its_own_cosine(world: World) -> None:
    # With a vector pool of one, every other memory is outside it. Weighted fusion counts
    # their cosine as 0; exact fusion reads each lexical hit's cosine back from the index.
    query = "postgres docker alembic migrations"
    vector = (await world.embedder.embed([query]))[0]
    nearest = world.index.search(vector, 1)[0][0]
    lexical = [m for m, _ in await world.store.search_fts(str(world.root), query, limit=10)]
    target = next(m for m in lexical if m != nearest)
    cosine = world.index.similarities(vector, [target])[target]
    assert cosine > 0.1

    scored = {}
    for method in (FusionMethod.WEIGHTED, FusionMethod.EXACT):
        retriever = Retriever(
            world.store, embedder=world.embedder, index=world.index, settings=_settings(method, 1)
        )
        ranked, vector_used = await retriever.rank(str(world.root), query)
        assert vector_used
        scored[method] = next(s for s in ranked if s.item.id == target)
    assert scored[FusionMethod.WEIGHTED].vector == 0.0
    assert scored[FusionMethod.EXACT].vector == pytest.approx((cosine - 0.1) / 0.9, abs=1e-5)
    assert scored[FusionMethod.EXACT].relevance > scored[FusionMethod.WEIGHTED].relevance


async def test_rrf_fusion_ranks_by_position(world: World) -> None:
    retriever = Retriever(
        world.store,
        embedder=world.embedder,
        index=world.index,
        settings=_settings(FusionMethod.RRF, 10),
    )
    ranked, _ = await retriever.rank(str(world.root), "alembic migrations")
    assert ranked[0].item.key == "db_migrations"
    assert ranked[0].relevance == pytest.approx(1.0)


class _OrderedSides:
    """The store, with the lexical and the vector side made to finish in a chosen order; it
    records the ids whose rows the vector side reads."""

    def __init__(self, store: SqliteStore, *, lexical_first: bool) -> None:
        self._store = store
        self._lexical_first = lexical_first
        self._lexical_done = threading.Event()
        self._vector_done = asyncio.Event()
        self.vector_rows: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def search_fts_memories(self, *args: Any, **kwargs: Any) -> Any:
        if not self._lexical_first:
            await self._vector_done.wait()
        found = await self._store.search_fts_memories(*args, **kwargs)
        # Set once the caller has taken the hits in: the rest of its step runs before the loop
        # calls this back (a fixed pause in the vector thread lost that race under load).
        asyncio.get_running_loop().call_soon(self._lexical_done.set)
        return found

    async def found_memories(self, find: Callable[[], Sequence[tuple[str, float]]]) -> Any:
        def ordered() -> Sequence[tuple[str, float]]:
            if self._lexical_first:
                # The loop takes in the lexical hits before the vector side returns.
                assert self._lexical_done.wait(PATIENCE_SECONDS)
            hits = find()
            self.vector_rows.extend(m for m, _ in hits)
            return hits

        try:
            return await self._store.found_memories(ordered)
        finally:
            self._vector_done.set()

    async def found_with_lexical(
        self,
        find: Callable[[], Sequence[tuple[str, float]]],
        project_id: str,
        query: str,
        *,
        types: Any,
        limit: int,
        on_lexical: Callable[[list[Any]], None],
    ) -> Any:
        found_vector = threading.Event()

        def ordered() -> Sequence[tuple[str, float]]:
            if self._lexical_first:
                # The lexical hits reach the vector side before its search returns.
                assert self._lexical_done.wait(PATIENCE_SECONDS)
            hits = find()
            self.vector_rows.extend(m for m, _ in hits)
            found_vector.set()
            return hits

        def lexical(found: list[Any]) -> None:
            if not self._lexical_first:
                assert found_vector.wait(PATIENCE_SECONDS)
            on_lexical(found)
            self._lexical_done.set()

        return await self._store.found_with_lexical(
            ordered, project_id, query, types=types, limit=limit, on_lexical=lexical
        )


async def test_the_vector_side_does_not_reread_the_lexical_hits_and_ranks_the_same(
    world: World,
) -> None:
    query = "jwt tokens migrations postgres uv"
    now = datetime.now(UTC)
    ranked: dict[bool, list[tuple[str, float, float, float]]] = {}
    sides: dict[bool, _OrderedSides] = {}
    for lexical_first in (False, True):
        sides[lexical_first] = store = _OrderedSides(world.store, lexical_first=lexical_first)
        retriever = Retriever(
            cast(SqliteStore, store),
            embedder=world.embedder,
            index=world.index,
            settings=RetrievalSettings(vector_floor=0.1),
            clock=lambda: now,
        )
        # A reason to keep hits (none kept) makes the vector side read every hit's row.
        found, vector_used = await retriever.rank(str(world.root), query, keep=lambda _: False)
        assert vector_used
        ranked[lexical_first] = [(s.item.id, s.score.total, s.lexical, s.vector) for s in found]

    assert ranked[True] == ranked[False]
    lexical = {m for m, _ in await world.store.search_fts(str(world.root), query, limit=50)}
    assert lexical and lexical <= set(sides[False].vector_rows)
    assert not lexical & set(sides[True].vector_rows)
    assert set(sides[True].vector_rows) == set(sides[False].vector_rows) - lexical


class _ThreadNotingIndex:
    """The index, noting the thread each `similarities` call runs on."""

    def __init__(self, index: FaissIndex) -> None:
        self._index = index
        self.threads: list[threading.Thread] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._index, name)

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._index

    def similarities(self, query: Any, memory_ids: Any) -> dict[str, float]:
        self.threads.append(threading.current_thread())
        return self._index.similarities(query, memory_ids)


async def test_exact_cosines_are_taken_on_the_vector_thread_once_the_lexical_hits_are_known(
    world: World,
) -> None:
    # A vector pool of one leaves the other lexical hits outside it: their exact cosines are
    # read on the vector side's thread when the lexical side finished first, and on the event
    # loop after both sides otherwise; the ranking is the same either way.
    query = "jwt tokens migrations postgres uv"
    now = datetime.now(UTC)
    ranked: dict[bool, list[tuple[str, float, float, float]]] = {}
    threads: dict[bool, list[threading.Thread]] = {}
    for lexical_first in (False, True):
        index = _ThreadNotingIndex(world.index)
        retriever = Retriever(
            cast(SqliteStore, _OrderedSides(world.store, lexical_first=lexical_first)),
            embedder=world.embedder,
            index=cast(FaissIndex, index),
            settings=_settings(FusionMethod.EXACT, 1),
            clock=lambda: now,
        )
        found, vector_used = await retriever.rank(str(world.root), query)
        assert vector_used
        ranked[lexical_first] = [(s.item.id, s.score.total, s.lexical, s.vector) for s in found]
        threads[lexical_first] = index.threads

    assert ranked[True] == ranked[False]
    assert any(lexical and vector for _, _, lexical, vector in ranked[True])
    assert threads[False] == [threading.current_thread()]
    assert len(threads[True]) == 1 and threads[True][0] is not threading.current_thread()


async def _vector_rows(
    world: World, settings: RetrievalSettings, query: str, **options: Any
) -> tuple[list[tuple[str, float, float, float]], set[str]]:
    """A ranking with the vector side done first, and the ids whose rows it read."""
    store = _OrderedSides(world.store, lexical_first=False)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    retriever = Retriever(
        cast(SqliteStore, store),
        embedder=world.embedder,
        index=world.index,
        settings=settings,
        clock=lambda: now,
    )
    found, vector_used = await retriever.rank(str(world.root), query, **options)
    assert vector_used
    return [(s.item.id, s.score.total, s.lexical, s.vector) for s in found], set(store.vector_rows)


async def test_vector_hits_too_weak_to_match_are_not_read_and_rank_the_same(
    world: World,
) -> None:
    query = "jwt tokens migrations postgres uv"
    settings = RetrievalSettings(vector_floor=0.1)
    ranked, read = await _vector_rows(world, settings, query)
    every, read_all = await _vector_rows(world, settings, query, keep=lambda _: False)

    assert ranked == every
    skipped = read_all - read
    assert skipped and read
    hits = dict(world.index.search(world.embedder.embed_query_now(query)[0], len(world.index)))
    for memory_id in read_all:
        relevance = 0.4 * (hits[memory_id] - 0.1) / 0.9  # the vector weight of the fusion
        assert (relevance < settings.min_similarity) == (memory_id in skipped)


async def test_every_vector_hit_is_read_when_a_weak_one_can_still_be_placed(
    world: World,
) -> None:
    query = "jwt tokens migrations postgres uv"
    settings = RetrievalSettings(vector_floor=0.1)
    _, read_all = await _vector_rows(world, settings, query, keep=lambda _: False)
    _, by_path = await _vector_rows(
        world, settings, query, active_paths=["src/auth.py"], include_path_matches=True
    )
    rrf = RetrievalSettings(vector_floor=0.1, fusion_method=FusionMethod.RRF)
    _, by_rank = await _vector_rows(world, rrf, query)

    assert by_path == read_all
    assert by_rank == read_all


async def test_matched_terms_stem_every_word_of_key_content_and_tags_case_blind(
    world: World,
) -> None:
    item = replace(
        world.items["auth_token_expiry"],
        id="mem_stems",
        key="JSONFiles_parser",
        content="Parsing getUserName TOKENS expired; Ünïcode Wörter and tokens again.",
        tags=("Caching", "uv"),
    )
    terms = ("parses", "user", "token", "expire", "files", "wörter", "cache", "uv", "missing")
    assert matched_terms(terms, item) == ("parses", "user", "token", "wörter", "uv")


async def test_matched_terms_follow_a_memory_text_under_the_same_id_and_version(
    world: World,
) -> None:
    item = replace(world.items["auth_token_expiry"], id="mem_same_version", tags=())
    first = replace(item, key="retry", content="Retry the upload.")
    second = replace(item, key="cache", content="Clear the cache.", tags=("upload",))
    terms = ("retry", "cache", "upload")
    assert matched_terms(terms, first) == ("retry", "upload")
    assert matched_terms(terms, second) == ("cache", "upload")
    assert matched_terms(terms[::-1], first) == ("upload", "retry")


def test_generic_request_words_are_told_apart_from_meaningful_ones() -> None:
    from squirrel_memory.retrieval import is_generic, meaningful_terms  # noqa: PLC0415

    assert all(is_generic(w) for w in ("add", "adding", "new", "fix", "updates", "Create"))
    assert not any(is_generic(w) for w in ("test", "migration", "handler", "build", "sessions"))
    assert meaningful_terms(("add", "column", "new", "table")) == ("column", "table")
    # the noun of the verb "implement" says no more than the verb: what is implemented does
    assert all(is_generic(w) for w in ("implementation", "implementations", "Implementation"))
    assert meaningful_terms(("current", "implementation", "metrics", "adapter")) == (
        "metrics",
        "adapter",
    )
    # the words of any failure report are generic; what failed, and how, is not
    assert all(is_generic(w) for w in ("error", "errors", "failing", "failed", "broken", "issue"))
    assert not any(is_generic(w) for w in ("exception", "timeout", "traceback", "deadlock"))
    # so is a number of one or two digits; a longer one (a status, a port) is not
    assert all(is_generic(w) for w in ("1", "2", "42"))
    assert not any(is_generic(w) for w in ("404", "8080", "2024", "v2", "py3"))


def test_words_of_manner_are_generic_but_what_they_qualify_is_not() -> None:
    from squirrel_memory.retrieval import is_generic, meaningful_terms  # noqa: PLC0415

    manner = ("existing", "current", "simpler", "same", "other", "quick", "easy", "shows", "done")
    assert all(is_generic(w) for w in manner)
    # what a task is about, in several ecosystems, stays meaningful
    subjects = ("genserver", "gradle", "activerecord", "goroutine", "crate", "handler", "showcase")
    assert not any(is_generic(w) for w in subjects)
    assert meaningful_terms(("refactor", "existing", "genserver", "simpler")) == (
        "refactor",
        "genserver",
    )


async def test_a_search_page_is_the_same_slice_of_the_full_ranking(world: World) -> None:
    now = datetime.now(UTC)
    retriever = Retriever(
        world.store,
        embedder=world.embedder,
        index=world.index,
        settings=RetrievalSettings(vector_floor=0.1, min_similarity=0.0),
        clock=lambda: now,
    )
    query = BROAD
    ranked, _ = await retriever.rank(str(world.root), query, limit=50)
    assert len(ranked) >= 4
    # Each result as the ranking's `ScoredMemory` explains it (the page builds no such object).
    expected = [search_result((s.item, round(s.score.total, 4), explain(s)), now) for s in ranked]
    first = await retriever.search(str(world.root), query, top_k=2)
    assert list(first.results) == expected[:2]
    assert first.total == len(ranked) and first.next_page_token
    second = await retriever.search(
        str(world.root), query, top_k=2, page_token=first.next_page_token
    )
    assert list(second.results) == expected[2:4]


async def test_a_lexical_hit_the_index_lacks_is_lifted_as_the_index_says(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fusion asks the index's live view of its ids (`Candidates.indexed`) which lexical hits
    it lacks: the page is the one asking the index itself gives, and the lift of the hit the
    index lost is there (without it the hit scores less)."""
    root, query = str(world.root), "JWT tokens expire login"
    target = world.items["auth_token_expiry"].id
    view = world.retriever._candidates.indexed
    assert view is not None and target in view
    world.index.remove([target])
    assert target not in view  # live: the removal shows without asking again

    page = await world.retriever.search(root, query, top_k=5)
    monkeypatch.setattr(Candidates, "indexed", property(lambda self: self.index))
    asked_of_the_index = await world.retriever.search(root, query, top_k=5)
    every = {m.id for m in world.items.values()}
    monkeypatch.setattr(Candidates, "indexed", property(lambda self: every))
    not_lifted = await world.retriever.search(root, query, top_k=5)

    assert page == asked_of_the_index
    scores = {r.memory_id: r.score for r in page.results}
    assert scores[target] > {r.memory_id: r.score for r in not_lifted.results}.get(target, 0.0)


async def test_the_lexical_hits_vectors_taken_on_their_reader_rank_the_same(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The lexical side takes its hits' stored vectors on its reader; the vector side then only
    # multiplies them by the query (on its thread, the lexical side done first). The ranking is
    # the one of cosines read from the index there (the vectors not taken), to the bit.
    query = "jwt tokens migrations postgres uv"
    now = datetime.now(UTC)
    taken: list[list[str]] = []
    take = FaissIndex.stored_vectors

    def noted(index: FaissIndex, memory_ids: Any) -> Any:
        taken.append(list(memory_ids))
        return take(index, memory_ids)

    monkeypatch.setattr(FaissIndex, "stored_vectors", noted)
    ranked: dict[bool, list[tuple[str, float, float, float]]] = {}
    for with_taken in (True, False):
        index: Any = world.index if with_taken else _ThreadNotingIndex(world.index)
        retriever = Retriever(
            cast(SqliteStore, _OrderedSides(world.store, lexical_first=True)),
            embedder=world.embedder,
            index=cast(FaissIndex, index),
            settings=_settings(FusionMethod.EXACT, 1),
            clock=lambda: now,
        )
        found, vector_used = await retriever.rank(str(world.root), query)
        assert vector_used
        ranked[with_taken] = [(s.item.id, s.score.total, s.lexical, s.vector) for s in found]
        if with_taken:
            assert len(taken) == 1 and taken[0]  # on the lexical side, once
        else:
            assert len(taken) == 1 and index.threads  # not taken: read from the index

    assert ranked[True] == ranked[False]
    # a lexical hit outside the vector pool of one, weighed by a cosine from taken vectors
    assert any(m in taken[0] and lexical and vector for m, _, lexical, vector in ranked[True])
