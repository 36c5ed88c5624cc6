"""The in-memory BM25 index ranks exactly as FTS5 does, through every kind of write."""

from __future__ import annotations

import math
import random
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import SqliteStore, bm25
from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.sqlite import lexical, postings
from squirrel_memory.storage.sqlite import search as sqlite_search
from squirrel_memory.storage.sqlite.lexical import LexicalIndex
from squirrel_memory.storage.sqlite.vocabulary import COLUMN_WEIGHTS, Postings

USER = "alice"
# Stems that meet (`run`, `running`), camelCase, accents, stop words, one-letter words: ties,
# repeated phrases and words in every row are all common here.
WORDS = [
    "cache",
    "caching",
    "cached",
    "redis",
    "parser",
    "parse",
    "run",
    "running",
    "runs",
    "auth",
    "token",
    "getUserName",
    "user",
    "name",
    "deploy",
    "naïve",
    "café",
    "x",
    "docker",
    "api",
    "test",
    "tests",
    "the",
    "in",
    "flaky",
    "retry",
    "timeout",
]
KINDS = (MemoryType.PROJECT_FACT, MemoryType.PITFALL, MemoryType.RECIPE, MemoryType.USER_STYLE)
QUERIES = (
    "cache redis",
    "running the parser",
    "getUserName auth token",
    "naive cafe",
    "x",
    "the in",
    "flaky tests retry timeout docker api deploy",
    "cache cache caching",
    "nothing matches this",
)
TYPE_FILTERS: tuple[list[str] | None, ...] = (
    None,
    [str(MemoryType.PITFALL)],
    [str(MemoryType.RECIPE), str(MemoryType.USER_STYLE)],
)
LIMITS = (1, 3, 10, 200)


def text(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def candidate(rng: random.Random, key: str) -> MemoryCandidate:
    tags = tuple(rng.choice(WORDS) for _ in range(rng.randint(0, 2)))
    return MemoryCandidate(rng.choice(KINDS), key, text(rng, 1, 14), tags, 0.5)


async def add(store: SqliteStore, rng: random.Random, key: str) -> MemoryItem:
    decision = UpdateDecision(UpdateAction.ADD_NEW, candidate(rng, key))
    item = await store.apply_decision(decision, user_id=USER)
    assert item is not None
    return item


async def filled(store: SqliteStore, seed: int, count: int) -> tuple[random.Random, LexicalIndex]:
    """`count` random memories added to `store`; the random source, to add more, and its index."""
    rng = random.Random(seed)
    for n in range(count):
        await add(store, rng, f"k{n}")
    return rng, index_of(store)


@pytest.fixture
async def indexed(project: str) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(project)
    yield opened
    await opened.close()


def index_of(store: SqliteStore) -> LexicalIndex:
    assert store._lexical is not None
    return store._lexical


async def both(
    store: SqliteStore, project: str, query: str, kinds: list[str] | None, limit: int
) -> tuple[list[Any] | None, list[Any]]:
    """The index's rows and FTS5's, read in one transaction."""
    terms = sqlite_search.match_terms(query)
    expression = sqlite_search.fts_match_expression(query)
    assert expression is not None
    index = index_of(store)

    def read(conn: sqlite3.Connection) -> tuple[list[Any] | None, list[Any]]:
        conn.execute("BEGIN")
        try:
            got = index.ranked_rows(conn, project, terms, kinds, limit)
            types = to_json(kinds) if kinds else None
            return got, sqlite_search.ranked_rows(conn, project, expression, types, limit)
        finally:
            conn.execute("COMMIT")

    return await store._db.read(read)


async def assert_same(store: SqliteStore, project: str) -> int:
    """Every query, type filter and limit: the index answers, with FTS5's rows (same memories,
    order and scores). Returns how many rows were compared."""
    compared = 0
    for query in QUERIES:
        for kinds in TYPE_FILTERS:
            for limit in LIMITS:
                got, want = await both(store, project, query, kinds, limit)
                assert got is not None, (query, kinds, limit)
                assert [tuple(r) for r in got] == [tuple(r) for r in want], (query, kinds, limit)
                compared += len(want)
    return compared


async def test_the_index_ranks_as_fts5_through_every_kind_of_write(
    indexed: SqliteStore, project: str
) -> None:
    rng = random.Random(7)
    items = [await add(indexed, rng, f"k{n}") for n in range(120)]
    index_of(indexed).build_now()
    assert await assert_same(indexed, project) > 0
    other = await SqliteStore.open(project, lexical_index=False)  # another connection
    try:
        for round_ in range(4):
            items += [await add(indexed, rng, f"r{round_}-{n}") for n in range(15)]
            live = [i for i in items if not i.deleted]
            for item in rng.sample(live, 6):
                update = UpdateDecision(
                    UpdateAction.UPDATE_EXISTING, candidate(rng, item.key), item.id
                )
                await indexed.apply_decision(update, user_id=USER)
            old, new = rng.sample(live, 2)
            await indexed.supersede(old.id, new.id, "replaced")
            items.append(await add(other, rng, f"o{round_}"))
            forgotten = rng.choice([i for i in live if i.id not in (old.id, new.id)])
            await other.forget(forgotten.id, "wrong")
            items = await indexed.get_memories([i.id for i in items])
            await assert_same(indexed, project)
        assert await indexed.rebuild_search_index() > 0
        got, _ = await both(indexed, project, "cache redis", None, 10)
        assert got is None  # the whole index was rewritten: the copy is built again
        assert index_of(indexed).wait_built(30)
        await assert_same(indexed, project)
    finally:
        await other.close()


async def test_searches_through_the_store_match_fts5(indexed: SqliteStore, project: str) -> None:
    rng = random.Random(11)
    for n in range(80):
        await add(indexed, rng, f"k{n}")
    plain = await SqliteStore.open(project, lexical_index=False)
    try:
        index_of(indexed).build_now()
        for query in QUERIES:
            for kinds in (None, [MemoryType.PITFALL]):
                found = await indexed.search_fts_memories(project, query, kinds, limit=25)
                assert found == await plain.search_fts_memories(project, query, kinds, limit=25)
    finally:
        await plain.close()


async def test_a_lost_stretch_of_the_change_log_makes_it_rebuild(
    indexed: SqliteStore, project: str
) -> None:
    rng, index = await filled(indexed, 3, 30)
    index.build_now()
    for n in range(5):
        await add(indexed, rng, f"late{n}")
    with sqlite3.connect(indexed.path) as conn:  # as if pruned past the index's position
        conn.execute(
            "DELETE FROM memory_fts_changes WHERE seq < (SELECT max(seq) FROM memory_fts_changes)"
        )
    got, _ = await both(indexed, project, "cache redis", None, 10)
    assert got is None
    assert index.wait_built(30)
    await assert_same(indexed, project)


async def test_too_many_changes_rebuild_instead_of_catching_up(
    indexed: SqliteStore, project: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng, index = await filled(indexed, 5, 20)
    index.build_now()
    monkeypatch.setattr(lexical, "CATCH_UP_MAX", 3)
    for n in range(10):
        await add(indexed, rng, f"late{n}")
    got, _ = await both(indexed, project, "cache", None, 10)
    assert got is None
    assert index.wait_built(30)
    await assert_same(indexed, project)


async def test_a_snapshot_older_than_the_index_is_not_answered_from_it(
    indexed: SqliteStore, project: str, tmp_path: Path
) -> None:
    rng, index = await filled(indexed, 9, 20)
    index.build_now()
    old = sqlite3.connect(indexed.path, isolation_level=None)
    try:
        old.execute("BEGIN")
        old.execute("SELECT count(*) FROM memory_fts_changes").fetchone()  # the snapshot starts
        await add(indexed, rng, "newer")
        await assert_same(indexed, project)  # the index moves past `old`'s snapshot
        terms = sqlite_search.match_terms("cache")
        assert index.ranked_rows(old, project, terms, None, 10) is None
    finally:
        old.close()


async def test_query_terms_are_tokenized_by_sqlite() -> None:
    tokenizer = lexical._Tokenizer()
    try:
        assert tokenizer.tokens(["running", "caching", "naïve"]) == ["run", "cach", "naiv"]
        assert tokenizer.tokens(["running", "x"]) == ["run", "x"]  # cached and fresh
    finally:
        tokenizer.close()


async def test_tokenized_words_leave_nothing_behind_for_the_next_ones() -> None:
    tokenizer = lexical._Tokenizer()
    try:
        assert tokenizer.tokens(["connections", "two words", ""]) is None  # a phrase of two
        assert tokenizer.tokens(["generalizations"]) == ["gener"]  # nothing of the first call
        with pytest.raises(sqlite3.Error):
            tokenizer._tokenize([cast(str, object())])  # fails inside its transaction
        assert tokenizer.tokens(["q139", "connections"]) == ["q139", "connect"]
        assert tokenizer._conn.execute("SELECT count(*) FROM v").fetchone()[0] == 0
        # the build's postings use the same table, empty again after each use
        rows = [(1, "key", "running caches", ""), (2, "", "cache", "tag")]
        first = tokenizer.postings(rows)
        tokenizer.tokens(["running"])
        again = tokenizer.postings(rows)
        assert first.terms == again.terms
        assert first.rows.tolist() == again.rows.tolist()
        assert first.freqs.tolist() == again.freqs.tolist()
    finally:
        tokenizer.close()


def test_the_index_weighs_columns_as_the_fts5_query() -> None:
    weights = ", ".join(str(w) for w in COLUMN_WEIGHTS)
    for statement in (
        sqlite_search._BEST_MATCHES,
        sqlite_search._BEST_MATCHES_OF_TYPES,
        sqlite_search._MATCHES_OF_TYPES_SORTED,
    ):
        assert f"bm25(memory_fts, {weights})" in statement


async def test_builds_take_turns_and_a_waiting_one_stops_at_close(tmp_path: Path) -> None:
    roots = [tmp_path / "a", tmp_path / "b"]
    for root in roots:
        root.mkdir()
    assert lexical._BUILDS.acquire(timeout=30)  # a build of another project is running
    try:
        waiting = await SqliteStore.open(str(roots[0]))
        assert not index_of(waiting).wait_built(0.3)
        await waiting.close()  # returns although its build never got its turn
    finally:
        lexical._BUILDS.release()
    stores = [await SqliteStore.open(str(root)) for root in roots]
    try:
        assert all(index_of(store).wait_built(30) for store in stores)
    finally:
        for store in stores:
            await store.close()


async def test_a_store_says_once_its_lexical_index_is_built(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    without = await SqliteStore.open(str(tmp_path / "b"), lexical_index=False)
    assert lexical._BUILDS.acquire(timeout=30)  # another project's build is running
    try:
        with_index = await SqliteStore.open(str(tmp_path / "a"))
        assert not with_index.wait_lexical_index(0.2)
    finally:
        lexical._BUILDS.release()
    try:
        assert with_index.wait_lexical_index(30)
        assert index_of(with_index).ready
        assert not without.wait_lexical_index(0.1)
    finally:
        await with_index.close()
        await without.close()


def reference_best(
    docs: dict[int, dict[str, float]],
    lengths: dict[int, float],
    query: list[str],
    limit: int,
    kinds: dict[int, str] | None = None,
    wanted: list[str] | None = None,
) -> list[tuple[int, float]]:
    """bm25 of every document, one at a time, as `fts5Bm25Function` adds it up (among the
    documents whose kind is `wanted`, when given)."""
    avgdl = sum(lengths.values()) / len(docs)
    scores: dict[int, float] = {}
    for token in query:
        holding = [doc for doc, terms in docs.items() if token in terms]
        if not holding:
            continue
        idf = math.log((len(docs) - len(holding) + 0.5) / (len(holding) + 0.5))
        idf = idf if idf > 0.0 else bm25.MIN_IDF
        for doc in holding:
            f = docs[doc][token]
            norm = bm25.K1 * ((1 - postings.B) + (postings.B * lengths[doc]) / avgdl)
            scores[doc] = scores.get(doc, 0.0) + idf * ((f * (bm25.K1 + 1.0)) / (f + norm))
    if wanted is not None and kinds is not None:
        scores = {doc: score for doc, score in scores.items() if kinds[doc] in wanted}
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return ranked[:limit]


def random_doc(rng: random.Random, vocabulary: list[str]) -> tuple[dict[str, float], float]:
    """A document's terms (each with its column-weighted count) and its length; the first
    words of `vocabulary` are the most common."""
    words = rng.choices(vocabulary, weights=range(len(vocabulary), 0, -1), k=rng.randint(1, 30))
    terms: dict[str, float] = {}
    for word in words:
        terms[word] = terms.get(word, 0.0) + rng.choice(COLUMN_WEIGHTS[:3])
    return terms, float(len(words))


def postings_of(
    docs: dict[int, dict[str, float]], lengths: dict[int, float], vocabulary: list[str]
) -> Postings:
    """The postings of `docs`, as `read_postings` gives them (rows by their place in rowid
    order)."""
    ids = sorted(docs)
    slot = {doc: n for n, doc in enumerate(ids)}
    rows: list[int] = []
    freqs: list[float] = []
    sizes: list[int] = []
    for term in vocabulary:
        holding = [doc for doc in ids if term in docs[doc]]
        sizes.append(len(holding))
        rows.extend(slot[doc] for doc in holding)
        freqs.extend(docs[doc][term] for doc in holding)
    return Postings(
        list(vocabulary),
        np.asarray(sizes, dtype=np.int64),
        np.asarray(rows, dtype=np.int32),
        np.asarray(freqs, dtype=np.float32),
        np.asarray([lengths[doc] for doc in ids], dtype=np.float64),
    )


def random_state(
    rng: random.Random, count: int, vocabulary: list[str], kinds: tuple[str, ...] = ("fact",)
) -> tuple[postings.IndexState, dict[int, dict[str, float]], dict[int, float], dict[int, str]]:
    """An index state over `count` random documents (rowids with gaps), and the documents,
    their lengths and their kinds."""
    docs: dict[int, dict[str, float]] = {}
    lengths: dict[int, float] = {}
    kind_of: dict[int, str] = {}
    rowid = 0
    for _ in range(count):
        rowid += rng.randint(1, 3)
        docs[rowid], lengths[rowid] = random_doc(rng, vocabulary)
        kind_of[rowid] = rng.choice(kinds)
    ids = sorted(docs)
    state = postings.IndexState(
        1,
        np.asarray(ids, dtype=np.int64),
        [kind_of[doc] for doc in ids],
        postings_of(docs, lengths, vocabulary),
    )
    return state, docs, lengths, kind_of


def test_the_scorer_keeps_the_top_k_of_scoring_every_document_one_by_one() -> None:
    rng = random.Random(11)
    vocabulary = sorted(f"w{n:03d}" for n in range(300))
    state, docs, lengths, _ = random_state(rng, 3_000, vocabulary)
    for round_ in range(3):  # asked again: the kept per-term shares answer the same
        for _ in range(40):
            query = [*rng.choices(vocabulary, k=rng.randint(1, 8)), "absent"]
            for limit in (1, 10, 50):
                assert state.best(query, None, limit) == reference_best(
                    docs, lengths, query, limit
                ), (round_, query, limit)
        removed = rng.choice(sorted(docs))  # new statistics: the shares are worked out again
        state.remove(removed)
        del docs[removed]
        del lengths[removed]


def test_a_term_in_every_row_still_finds_every_row_holding_it() -> None:
    """A term held by every row scores each at the idf's floor (`bm25.MIN_IDF`): the smallest
    shares there are, still above 0, so the rows holding it are found by their score (every
    indexed column weighs more than 0: a posting's count is never 0)."""
    assert all(weight > 0 for weight in COLUMN_WEIGHTS[:3])
    rng = random.Random(5)
    vocabulary = ["common", *sorted(f"w{n:02d}" for n in range(40))]
    docs: dict[int, dict[str, float]] = {}
    lengths: dict[int, float] = {}
    for rowid in range(1, 301):
        terms, length = random_doc(rng, vocabulary[1:])
        terms["common"] = COLUMN_WEIGHTS[1]
        docs[rowid], lengths[rowid] = terms, length + 1
    ids = sorted(docs)
    state = postings.IndexState(
        1,
        np.asarray(ids, dtype=np.int64),
        ["fact"] * len(ids),
        postings_of(docs, lengths, vocabulary),
    )
    found = state.best(["common"], None, 500)
    assert sorted(doc for doc, _ in found) == ids
    assert all(0.0 < score < 1e-5 for _, score in found)
    assert found == reference_best(docs, lengths, ["common"], 500)
    assert state.best(["common", "w03"], None, 50) == reference_best(
        docs, lengths, ["common", "w03"], 50
    )


@pytest.mark.parametrize(
    ("prune_above", "prune_share"),
    [(0, 0), (postings.PRUNE_ABOVE_POSTINGS, postings.PRUNE_SHARE)],
)
def test_pruned_top_k_is_the_top_k_of_scoring_every_document(
    monkeypatch: pytest.MonkeyPatch, prune_above: int, prune_share: int
) -> None:
    """MaxScore (the rows that cannot enter left unscored) keeps the top 1, 10 and 50 of
    scoring every document, by kind too, through deletes, updates and added documents."""
    monkeypatch.setattr(postings, "PRUNE_ABOVE_POSTINGS", prune_above)
    monkeypatch.setattr(postings, "PRUNE_SHARE", prune_share)
    pruned: list[bool] = []
    original = postings.IndexState._pruned

    def counted(self: postings.IndexState, *args: Any) -> Any:
        found = original(self, *args)
        pruned.append(found is not None)
        return found

    monkeypatch.setattr(postings.IndexState, "_pruned", counted)
    rng = random.Random(23)
    vocabulary = sorted(f"w{n:03d}" for n in range(120))
    kinds = ("fact", "pitfall", "recipe")
    state, docs, lengths, kind_of = random_state(rng, 2_000, vocabulary, kinds)
    for round_ in range(4):
        for _ in range(30):
            query = [*rng.choices(vocabulary[:40], k=rng.randint(2, 9)), "absent"]
            for limit in (1, 10, 50):
                for wanted in (None, ["pitfall"], ["fact", "recipe"]):
                    assert state.best(query, wanted, limit) == reference_best(
                        docs, lengths, query, limit, kind_of, wanted
                    ), (round_, query, limit, wanted)
        # New statistics: deletes, updates (the old row out, its new text in under a new rowid
        # or the same one) and added documents.
        gone = rng.sample(sorted(docs), 60)
        for doc in gone:
            state.remove(doc)
            del docs[doc], lengths[doc]
        changed: dict[int, dict[str, float]] = {}
        changed_lengths: dict[int, float] = {}
        next_id = max(*docs, *gone) + 1
        for n, doc in enumerate(rng.sample(sorted(docs), 40) + gone[:10]):
            if doc in docs:
                state.remove(doc)
                del docs[doc], lengths[doc]
            target = doc if n % 2 else next_id + n
            changed[target], changed_lengths[target] = random_doc(rng, vocabulary)
            kind_of[target] = rng.choice(kinds)
        for n in range(50):
            doc = next_id + 1_000 + n
            changed[doc], changed_lengths[doc] = random_doc(rng, vocabulary)
            kind_of[doc] = rng.choice(kinds)
        ids = sorted(changed)
        state.add(
            np.asarray(ids, dtype=np.int64),
            [kind_of[doc] for doc in ids],
            postings_of(changed, changed_lengths, vocabulary),
        )
        docs.update(changed)
        lengths.update(changed_lengths)
    if prune_above == 0:
        assert any(pruned), "no query was pruned"


@pytest.mark.parametrize("select_above", [0, 10**9])
def test_rows_picked_among_the_postings_are_the_top_k_of_scoring_every_document(
    monkeypatch: pytest.MonkeyPatch, select_above: int
) -> None:
    """Picking the candidate rows among the query's postings (`_contenders`, a large store's
    way) keeps the top 1, 10 and 50 of scoring every document, ties and kinds included, through
    deletes; so does the comparison over every row (a small store's way)."""
    monkeypatch.setattr(postings, "SELECT_ABOVE_ROWS", select_above)
    monkeypatch.setattr(postings, "SELECT_SHARE", 0)
    monkeypatch.setattr(postings, "PRUNE_ABOVE_POSTINGS", 10**12)
    picked: list[int] = []
    original = postings._contenders

    def counted(*args: Any) -> Any:
        found = original(*args)
        picked.append(len(found))
        return found

    monkeypatch.setattr(postings, "_contenders", counted)
    rng = random.Random(31)
    # Few distinct counts and lengths: many rows tie on their score.
    vocabulary = sorted(f"w{n:02d}" for n in range(30))
    kinds = ("fact", "pitfall", "recipe")
    state, docs, lengths, kind_of = random_state(rng, 1_500, vocabulary, kinds)
    for _ in range(3):
        for _ in range(30):
            query = [*rng.choices(vocabulary, k=rng.randint(1, 6)), "absent"]
            for limit in (1, 10, 50):
                for wanted in (None, ["pitfall"], ["fact", "recipe"]):
                    assert state.best(query, wanted, limit) == reference_best(
                        docs, lengths, query, limit, kind_of, wanted
                    ), (query, limit, wanted)
        for doc in rng.sample(sorted(docs), 100):
            state.remove(doc)
            del docs[doc], lengths[doc]
    assert bool(picked) == (select_above == 0)
    assert not picked or min(picked) < len(docs)


def skewed_state(
    rng: random.Random, count: int, vocabulary: list[str], kinds: tuple[str, ...]
) -> tuple[postings.IndexState, dict[int, dict[str, float]], dict[int, float], dict[int, str]]:
    """`random_state` with Zipf-like word frequencies (the n-th word about 1/n as common) and
    few distinct lengths, so that many rows tie on a term's share."""
    weights = [1.0 / (n + 1) for n in range(len(vocabulary))]
    docs: dict[int, dict[str, float]] = {}
    lengths: dict[int, float] = {}
    kind_of: dict[int, str] = {}
    rowid = 0
    for _ in range(count):
        rowid += rng.randint(1, 4)
        words = rng.choices(vocabulary, weights=weights, k=rng.choice((1, 4, 8, 16)))
        terms: dict[str, float] = {}
        for word in words:
            terms[word] = terms.get(word, 0.0) + rng.choice(COLUMN_WEIGHTS[:3])
        docs[rowid], lengths[rowid] = terms, float(len(words))
        kind_of[rowid] = rng.choice(kinds)
    ids = sorted(docs)
    state = postings.IndexState(
        1,
        np.asarray(ids, dtype=np.int64),
        [kind_of[doc] for doc in ids],
        postings_of(docs, lengths, vocabulary),
    )
    return state, docs, lengths, kind_of


@pytest.mark.parametrize("select_above", [0, 10**9])
def test_rows_picked_by_the_rarest_terms_floor_are_the_top_k_of_scoring_every_document(
    monkeypatch: pytest.MonkeyPatch, select_above: int
) -> None:
    """The floor (the `limit`-th best whole score among the rarest term's rows) keeps the top
    1, 10 and 50 of scoring every document on skewed corpora, ties (by rowid) and kinds
    included, through deletes; where no term holds `limit` rows, the other ways answer."""
    monkeypatch.setattr(postings, "SELECT_ABOVE_ROWS", select_above)
    monkeypatch.setattr(postings, "SELECT_SHARE", 0)
    monkeypatch.setattr(postings, "PRUNE_ABOVE_POSTINGS", 10**12)
    floors: list[bool] = []
    original = postings.IndexState._rarest_floor

    def counted(self: postings.IndexState, *args: Any) -> Any:
        floor = original(self, *args)
        floors.append(floor is not None)
        return floor

    monkeypatch.setattr(postings.IndexState, "_rarest_floor", counted)
    kinds = ("fact", "pitfall", "recipe")
    for seed in (3, 17, 29):
        rng = random.Random(seed)
        vocabulary = sorted(f"w{n:03d}" for n in range(400))
        state, docs, lengths, kind_of = skewed_state(rng, 2_500, vocabulary, kinds)
        by_rank = sorted(vocabulary, key=lambda word: -sum(word in doc for doc in docs.values()))
        for _ in range(2):
            for _ in range(25):
                # Common words with a rarer one or two, or a word alone (every row holding it
                # ties with the rows of the same count and length), repeats and all.
                query = rng.choices(by_rank[:30], k=rng.randint(1, 6))
                query += rng.choices(by_rank[30:], k=rng.randint(0, 2))
                for wanted in (None, ["pitfall"], ["fact", "recipe"]):
                    expected = reference_best(docs, lengths, query, 50, kind_of, wanted)
                    for limit in (1, 10, 50):
                        assert state.best(query, wanted, limit) == expected[:limit], (
                            seed,
                            query,
                            limit,
                            wanted,
                        )
            for doc in rng.sample(sorted(docs), 200):
                state.remove(doc)
                del docs[doc], lengths[doc]
    assert any(floors), "no query had a floor"
    assert not all(floors), "every query had a floor"


def test_rows_tied_with_the_floor_are_kept() -> None:
    """Rows scoring exactly the floor are among the results, ranked by rowid: here every row
    holding the word scores the same, so the floor is that score."""
    docs = {rowid: {"tied": 1.0, f"w{rowid:02d}": 1.0} for rowid in range(1, 31)}
    lengths = dict.fromkeys(docs, 2.0)
    vocabulary = sorted({term for terms in docs.values() for term in terms})
    ids = sorted(docs)
    state = postings.IndexState(
        1,
        np.asarray(ids, dtype=np.int64),
        ["fact"] * len(ids),
        postings_of(docs, lengths, vocabulary),
    )
    for limit in (1, 10, 30):
        found = state.best(["tied"], None, limit)
        assert [doc for doc, _ in found] == ids[:limit]
        assert found == reference_best(docs, lengths, ["tied"], limit)
    assert state.best(["tied", "w07"], None, 5) == reference_best(docs, lengths, ["tied", "w07"], 5)


async def test_building_now_waits_for_the_build_the_store_started_at_open(
    project: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The store's own build read the empty store and ends late: finishing after `build_now`,
    # it would put its older state back, and while it runs no rebuild can start.
    real = lexical._build
    first: list[bool] = []

    def late(
        path: Path, stop: threading.Event, problem: lexical.Problem = lexical._no_problem
    ) -> lexical.IndexState:
        state = real(path, stop, problem)
        if not first:
            first.append(True)
            time.sleep(2)
        return state

    monkeypatch.setattr(lexical, "_build", late)
    monkeypatch.setattr(lexical, "CATCH_UP_MAX", 3)
    store = await SqliteStore.open(project)
    try:
        _rng, index = await filled(store, 5, 20)
        index.build_now()
        assert index.wait_built(30)
        await assert_same(store, project)
    finally:
        await store.close()
