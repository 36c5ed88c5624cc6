"""BM25 search over live memories, with hostile user text made safe."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import SqliteStore, fts_match_expression
from squirrel_memory.storage.sqlite import search as sqlite_search

USER = "alice"
HOSTILE = [
    '"',
    '""',
    "'",
    "*",
    "auth*",
    "NEAR(auth service, 3)",
    "auth AND OR NOT",
    "NOT",
    "content:secret",
    "key : framework",
    "{key content}: x",
    "^start",
    "(((",
    ")",
    "a -b +c",
    "\x00",
    "\\",
    "%_%",
    "'; DROP TABLE memory_items; --",
    "\ud800",
    "🐿️ emoji",
    "x" * 10_000,
    " ".join(f"word{i}" for i in range(500)),
]


async def add(
    store: SqliteStore,
    key: str,
    content: str,
    kind: MemoryType = MemoryType.PROJECT_FACT,
    tags: tuple[str, ...] = (),
) -> MemoryItem:
    cand = MemoryCandidate(kind, key, content, tags, 0.5)
    item = await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, cand), user_id=USER)
    assert item is not None
    return item


async def ids(store: SqliteStore, project: str, query: str, **kw: object) -> list[str]:
    return [hit[0] for hit in await store.search_fts(project, query, **kw)]  # type: ignore[arg-type]


async def test_words_identifiers_and_stems_are_found(store: SqliteStore, project: str) -> None:
    auth = await add(store, "endpoint:/login", "Login is handled by auth_service.verify_token")
    camel = await add(store, "helper", "Use getUserName to read the display name")
    runs = await add(store, "tests", "Running the integration suite needs Docker")
    await add(store, "unrelated", "The logo is blue")
    assert await ids(store, project, "verify token") == [auth.id]
    assert await ids(store, project, "auth_service") == [auth.id]
    assert await ids(store, project, "user name") == [camel.id]
    assert await ids(store, project, "getUserName") == [camel.id]
    assert await ids(store, project, "run") == [runs.id]
    assert await ids(store, project, "login") == [auth.id]


async def test_more_matching_terms_rank_higher_and_scores_are_positive(
    store: SqliteStore, project: str
) -> None:
    both = await add(store, "db", "Postgres migrations run with alembic")
    one = await add(store, "db2", "Postgres is the main database")
    for i in range(6):
        await add(store, f"filler{i}", f"Unrelated note number {i}")
    hits = await store.search_fts(project, "postgres alembic")
    assert [h[0] for h in hits] == [both.id, one.id]
    assert hits[0][1] > hits[1][1] > 0


async def test_deleted_and_updated_memories_leave_the_index(
    store: SqliteStore, project: str
) -> None:
    gone = await add(store, "old", "Deploys go through jenkins")
    kept = await add(store, "ci", "CI runs on jenkins nightly")
    await store.forget(gone.id, "moved")
    assert await ids(store, project, "jenkins") == [kept.id]
    cand = MemoryCandidate(MemoryType.PROJECT_FACT, "ci", "CI runs on GitHub Actions", (), 0.5)
    await store.apply_decision(
        UpdateDecision(UpdateAction.UPDATE_EXISTING, cand, kept.id), user_id=USER
    )
    assert await ids(store, project, "jenkins") == []
    assert await ids(store, project, "github actions") == [kept.id]


async def test_tags_and_types_filter(store: SqliteStore, project: str) -> None:
    fact = await add(store, "f", "Redis caches sessions", tags=("caching",))
    trap = await add(store, "p", "Redis must be flushed between tests", MemoryType.PITFALL)
    assert await ids(store, project, "caching") == [fact.id]
    assert await ids(store, project, "redis", types=[MemoryType.PITFALL]) == [trap.id]
    assert len(await ids(store, project, "redis", limit=1)) == 1


@pytest.mark.parametrize("query", HOSTILE)
async def test_hostile_queries_never_raise(store: SqliteStore, project: str, query: str) -> None:
    await add(store, "k", "auth service content secret framework word1 emoji")
    hits = await store.search_fts(project, query)
    assert all(isinstance(h[0], str) and isinstance(h[1], float) for h in hits)


async def test_empty_and_punctuation_only_queries_find_nothing(
    store: SqliteStore, project: str
) -> None:
    await add(store, "k", "anything at all")
    for query in ("", "   ", "!!! ??? ---", "***"):
        assert await store.search_fts(project, query) == []


async def test_stop_words_alone_are_still_searched(store: SqliteStore, project: str) -> None:
    item = await add(store, "k", "Where is it")
    assert await ids(store, project, "where is") == [item.id]


def test_match_expression_quotes_every_term() -> None:
    assert fts_match_expression('auth* OR "x" NEAR(') == '"auth" OR "x" OR "near"'
    assert fts_match_expression("how do I run the tests") == '"run" OR "tests"'
    assert fts_match_expression("?!") is None
    expression = fts_match_expression(" ".join(f"w{i}" for i in range(100)))
    assert expression is not None and expression.count(" OR ") == 31


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200))
async def test_any_text_is_a_valid_query(store: SqliteStore, project: str, text: str) -> None:
    await store.search_fts(project, text)


async def test_rebuilt_index_finds_the_same(store: SqliteStore, project: str) -> None:
    item = await add(store, "k", "Feature flags live in LaunchDarkly")
    await add(store, "x", "to be forgotten flags")
    await store.forget((await ids(store, project, "forgotten"))[0], "x")
    assert await store.rebuild_search_index() == 1
    assert await ids(store, project, "flags") == [item.id]


async def test_a_type_filter_keeps_the_ranking_of_the_unfiltered_search(
    store: SqliteStore, project: str
) -> None:
    kinds = (MemoryType.PITFALL, MemoryType.RECIPE, MemoryType.USER_STYLE)
    for n in range(60):
        words = " ".join(["cache"] * (1 + n % 4) + ["parser"] * (n % 3) + [f"filler{n}"] * (n % 5))
        await add(store, f"k{n}", f"The {words} note", kinds[n % 3], tags=("cache",) * (n % 2))
    everything = await store.search_fts(project, "cache parser", limit=1000)
    assert len(everything) == 60
    for wanted in ([MemoryType.PITFALL], [MemoryType.PITFALL, MemoryType.USER_STYLE]):
        kinds_of = {
            item.id: item.type for item in await store.get_memories([m for m, _ in everything])
        }
        expected = [(m, s) for m, s in everything if kinds_of[m] in wanted]
        for limit in (1, 7, 25, 1000):
            found = await store.search_fts(project, "cache parser", wanted, limit=limit)
            assert found == expected[:limit]


async def test_pruned_scoring_returns_what_scoring_every_match_returns(
    project: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await SqliteStore.open(project, lexical_index=False)  # FTS5 answers every search
    try:
        await _pruned_scoring_matches_scoring_every_match(store, project, monkeypatch)
    finally:
        await store.close()


async def _pruned_scoring_matches_scoring_every_match(
    store: SqliteStore, project: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A rare word only in long notes (a low score to beat), a middling word repeated in short
    # ones (which can still beat it), a word in every note: pruning must keep the middling one.
    kinds = (MemoryType.PITFALL, MemoryType.PROJECT_FACT)
    filler = " ".join(f"filler{i}" for i in range(60))
    for n in range(5):
        await add(store, f"long{n}", f"redis cache {filler}", kinds[n % 2])
    for n in range(40):
        await add(store, f"short{n}", "eviction eviction eviction cache" + " x" * n, kinds[n % 2])
    for n in range(75):
        await add(store, f"plain{n}", f"cache note {n}", kinds[n % 2])
    queries = ("redis eviction cache", "cache redis", "eviction redis")
    cases = [(q, t, limit) for q in queries for t in (None, [kinds[0]]) for limit in (1, 3, 10)]
    monkeypatch.setattr(sqlite_search, "PRUNE_ABOVE_ROWS", 10**9)
    everything = [await store.search_fts(project, q, t, limit=limit) for q, t, limit in cases]
    scored_within: list[str | None] = []
    matches = sqlite_search._matches

    def recording(conn: Any, params: Any, within: str | None, limit: int) -> list[Any]:
        scored_within.append(within)
        return matches(conn, params, within, limit)

    monkeypatch.setattr(sqlite_search, "PRUNE_ABOVE_ROWS", 0)
    monkeypatch.setattr(sqlite_search, "_matches", recording)
    pruned = [await store.search_fts(project, q, t, limit=limit) for q, t, limit in cases]
    assert pruned == everything
    assert any(within is not None for within in scored_within)
