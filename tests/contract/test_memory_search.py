"""MemorySearch contract: lexical search ranks what matches best first, safely, live only."""

from __future__ import annotations

import random

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.models import MemoryType
from squirrel_memory.storage import Store
from squirrel_memory.storage.bm25 import essential_terms

from .test_memory_book import add, candidate


async def test_the_rarer_and_repeated_words_rank_first(store: Store, project: str) -> None:
    for n in range(8):
        await add(store, candidate(f"The build runs step {n} of the pipeline", key=f"step_{n}"))
    target = await add(
        store, candidate("Flaky migration: run alembic upgrade before tests", key="alembic")
    )
    hits = await store.search_fts(project, "which alembic step breaks the build?", limit=5)
    assert hits[0][0] == target.id
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True) and all(s >= 0 for s in scores)


async def test_identifiers_are_found_by_their_parts(store: Store, project: str) -> None:
    item = await add(
        store, candidate("Call getUserName from src/accounts/user_service.py", key="user_name")
    )
    await add(store, candidate("Deploy with fly deploy", key="deploy"))
    for query in ("user name", "accounts service", "getUserName"):
        assert [m for m, _ in await store.search_fts(project, query)][:1] == [item.id]


async def test_deleted_memories_and_other_types_are_not_found(store: Store, project: str) -> None:
    gone = await add(store, candidate("Use poetry for dependencies", key="poetry"))
    await store.forget(gone.id, "wrong")
    pitfall = await add(
        store, candidate("poetry lock hangs offline", key="lock", type=MemoryType.PITFALL)
    )
    assert await store.search_fts(project, "poetry") == [
        (pitfall.id, (await store.search_fts(project, "poetry"))[0][1])
    ]
    assert await store.search_fts(project, "poetry", [MemoryType.RECIPE]) == []


@pytest.mark.parametrize(
    "query",
    [
        "",
        "   ",
        '"unbalanced',
        "NEAR(a b) OR key:x AND -y * ^z",
        "'; DROP TABLE memory_items; --",
        "a\x00b",
        "!@#$%^&*()",
        "x" * 100_000,
        " ".join(f"word{n}" for n in range(500)),
    ],
)
async def test_hostile_queries_are_plain_text(store: Store, project: str, query: str) -> None:
    await add(store, candidate("Run pytest -q", key="pytest"))
    hits = await store.search_fts(project, query)
    assert isinstance(hits, list)


async def test_bad_arguments_are_refused(store: Store, project: str) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.search_fts(project, "x", limit=0)
    with pytest.raises(InvalidArgumentError):
        await store.search_fts(project, 42)  # type: ignore[arg-type]


async def test_rebuilding_the_index_finds_the_same(store: Store, project: str) -> None:
    item = await add(store, candidate("Format with ruff format", key="format"))
    before = await store.search_fts(project, "ruff")
    assert await store.rebuild_search_index() == 1
    assert await store.search_fts(project, "ruff") == before and before[0][0] == item.id


async def test_many_common_words_can_outrank_one_rare_word(store: Store, project: str) -> None:
    """A memory holding several moderately common query words beats ones holding only the
    rarest word, with any result limit (a search that ranks the rarest word's memories first
    must still look at the others)."""
    for n in range(40):
        await add(store, candidate(f"Unrelated note {n} about release notes", key=f"other_{n}"))
    for n in range(5):
        await add(store, candidate(f"A zebra stripe {n} in the logo colours", key=f"zebra_{n}"))
    for n in range(20):
        words = "cache warms up" if n % 2 else "parser invalidation order"
        await add(store, candidate(f"The {words} on start {n}", key=f"part_{n}"))
    target = await add(
        store,
        candidate("Parser cache invalidation: the parser cache needs invalidation", key="target"),
    )
    for limit in (1, 3, 10):
        hits = await store.search_fts(project, "zebra cache parser invalidation", limit=limit)
        assert hits[0][0] == target.id and len(hits) == limit


async def test_pruned_results_are_the_head_of_the_full_ranking(store: Store, project: str) -> None:
    """Over hundreds of memories sharing common words, the top `limit` equals the head of the
    ranking of every match, also where a seed of the most promising memories is capped."""
    rng = random.Random(11)
    words = ["cache", "parser", "deploy", "docker", "tests", "run", "lint", "schema"]
    for n in range(300):
        picked = rng.sample(words, rng.randint(1, 2))
        await add(store, candidate(" ".join(picked) + f" note {n}", key=f"note_{n}", tags=()))
    for n in range(120):  # short matches of "cache" in the key: a seed of them scores well
        await add(store, candidate(f"entry {n}", key=f"cache_{n}", tags=()))
    for n in range(5):
        await add(store, candidate(f"alpha beta {n}", key=f"ab_{n}", tags=()))
    for n in range(30):
        await add(store, candidate(f"gamma delta {n}", key=f"gd_{n}", tags=()))
    # The best match of "cache" comes last, past the seed of the first matches.
    await add(store, candidate("cache cache cache", key="cache_best", tags=()))
    queries = (
        "cache",
        "cache parser deploy",
        "run the tests with docker",
        "note 7 schema lint",
        "alpha beta gamma delta",
    )
    for query in queries:
        every = await store.search_fts(project, query, limit=500)
        for limit in (1, 3, 10):
            assert await store.search_fts(project, query, limit=limit) == every[:limit]


def test_essential_terms_leave_out_only_words_that_cannot_reach_the_threshold() -> None:
    bounds = {"code": 0.5, "tests": 1.0, "run": 2.0, "alembic": 6.0}
    assert essential_terms(bounds, 0.0) == set(bounds)
    assert essential_terms(bounds, 1.6) == {"run", "alembic"}
    assert essential_terms(bounds, 3.4) == {"run", "alembic"}
    assert essential_terms(bounds, 3.6) == {"alembic"}
    assert essential_terms({}, 1.0) == set()


async def test_hits_come_with_their_memories_as_they_are_now(store: Store, project: str) -> None:
    for n in range(6):
        kind = MemoryType.PITFALL if n % 2 else MemoryType.PROJECT_FACT
        await add(
            store, candidate(f"The cache layer {n} drops cache entries", key=f"c{n}", type=kind)
        )
    changed = await add(store, candidate("cache warmup note", key="warm"))
    await store.correct(
        changed.id, content="cache warmup runs at start", importance=None, reason="clearer"
    )
    for types in (None, [MemoryType.PITFALL]):
        hits = await store.search_fts(project, "cache warmup", types, limit=5)
        found = await store.search_fts_memories(project, "cache warmup", types, limit=5)
        assert [(m.id, score) for m, score in found] == hits and hits
        assert [m for m, _ in found] == await store.get_memories([m for m, _ in hits])
    assert await store.search_fts_memories(project, "   ") == []


async def test_the_keys_of_live_memories_newest_first_and_their_mark(
    store: Store, project: str
) -> None:
    mark = await store.key_mark(project)
    about = await add(
        store, candidate("A game engine in Rust.", key="about", type=MemoryType.PROJECT_FACT)
    )
    assert await store.key_mark(project) != mark  # an added memory changes it
    run = await add(store, candidate("To run the app: `cargo run`.", key="recipe:run"))
    gone = await add(store, candidate("Start it with make.", key="recipe:start"))
    before = await store.key_mark(project)
    await store.forget(gone.id, "wrong")
    after, keys = await store.memory_keys(project)
    assert after != before  # a deleted one too
    assert keys == [
        (run.id, "recipe", "recipe:run"),
        (about.id, "project_fact", "about"),
    ]  # live only, newest first
    assert await store.key_mark(project) == after  # nothing changed since
