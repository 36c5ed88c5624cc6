"""The bench's on-disk embedding cache (bench/embedding_cache.py), `--base-texts all` and the
vector-index figures of bench/search_floor.py."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from bench.embedding_cache import CacheError, EmbeddingCache, default_path, text_digest
from bench.search_floor import vector_figures
from bench.seeded_project import base_texts_arg

DIM = 8


class _Counting:
    """A deterministic embedder (a vector from the text's digest) that notes what it embeds."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        rows = [
            np.frombuffer(bytes.fromhex(text_digest(t))[:DIM], dtype=np.uint8).astype(np.float32)
            for t in texts
        ]
        return np.stack(rows)


def test_a_second_run_reads_every_vector_back_without_embedding(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "embeddings.sqlite3"
    texts = ["alpha", "beta", "alpha", "gamma"]
    embed = _Counting()
    with EmbeddingCache(path) as cache:
        first = cache.embed("model-a", DIM, texts, embed)
    # Each distinct text embedded once, duplicates included in the output in place.
    assert embed.calls == [["alpha", "beta", "gamma"]]
    assert (first.from_cache, first.embedded) == (0, 3)
    assert np.array_equal(first.vectors[0], first.vectors[2])
    with EmbeddingCache(path) as cache:
        second = cache.embed("model-a", DIM, texts, embed)
    assert len(embed.calls) == 1
    assert (second.from_cache, second.embedded) == (3, 0)
    assert np.array_equal(first.vectors, second.vectors)
    assert np.array_equal(first.vectors, embed(texts))


def test_another_model_or_text_is_embedded_not_read(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite3"
    embed = _Counting()
    with EmbeddingCache(path) as cache:
        cache.embed("model-a", DIM, ["alpha"], embed)
        other_model = cache.embed("model-b", DIM, ["alpha"], embed)
        mixed = cache.embed("model-a", DIM, ["alpha", "delta"], embed)
    assert embed.calls == [["alpha"], ["alpha"], ["delta"]]
    assert (other_model.from_cache, other_model.embedded) == (0, 1)
    assert (mixed.from_cache, mixed.embedded) == (1, 1)


def test_an_interrupted_run_keeps_the_chunks_it_finished(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite3"
    texts = [f"text {n}" for n in range(1100)]
    done: list[int] = []

    def failing(batch: Sequence[str]) -> np.ndarray:
        if done:
            raise RuntimeError("stopped")
        done.append(len(batch))
        return _Counting()(batch)

    with EmbeddingCache(path) as cache, pytest.raises(RuntimeError):
        cache.embed("model-a", DIM, texts, failing)
    embed = _Counting()
    with EmbeddingCache(path) as cache:
        again = cache.embed("model-a", DIM, texts, embed)
    assert again.from_cache == done[0] == 512
    assert again.embedded == len(texts) - 512


def test_a_wrongly_shaped_answer_is_refused_and_not_stored(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite3"
    with EmbeddingCache(path) as cache:
        with pytest.raises(ValueError, match="embedder returned"):
            cache.embed("model-a", DIM, ["alpha"], lambda t: np.zeros((len(t), DIM + 1)))
        embed = _Counting()
        assert cache.embed("model-a", DIM, ["alpha"], embed).embedded == 1


def test_a_changed_text_is_a_miss_never_the_old_vector(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite3"
    embed = _Counting()
    with EmbeddingCache(path) as cache:
        before = cache.embed("model-a", DIM, ["the build uses uv"], embed)
        after = cache.embed("model-a", DIM, ["the build uses uv."], embed)
    assert (after.from_cache, after.embedded) == (0, 1)
    assert np.array_equal(after.vectors, embed(["the build uses uv."]))
    assert not np.array_equal(after.vectors, before.vectors)


def _tamper(path: Path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE vectors SET vector = zeroblob(4 * dim)",  # same length, other bytes
        "UPDATE vectors SET vector = substr(vector, 1, 4)",  # cut short
        "UPDATE vectors SET checksum = NULL",
    ],
)
def test_a_damaged_row_is_embedded_again_never_read_back(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "embeddings.sqlite3"
    embed = _Counting()
    with EmbeddingCache(path) as cache:
        cache.embed("model-a", DIM, ["alpha", "beta"], embed)
    _tamper(path, damage + " WHERE digest = '" + text_digest("alpha") + "'")
    with EmbeddingCache(path) as cache:
        again = cache.embed("model-a", DIM, ["alpha", "beta"], embed)
        third = cache.embed("model-a", DIM, ["alpha", "beta"], embed)
    assert (again.from_cache, again.embedded) == (1, 1)
    assert embed.calls[-1] == ["alpha"]
    assert np.array_equal(again.vectors, embed(["alpha", "beta"]))
    assert (third.from_cache, third.embedded) == (2, 0)  # the replaced row reads back


def test_a_file_that_is_not_a_cache_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite3"
    path.write_bytes(b"not a database at all" * 100)
    with pytest.raises(CacheError, match=r"not a readable embedding cache.*delete it"):
        EmbeddingCache(path)
    assert path.read_bytes() == b"not a database at all" * 100  # left for the user to look at


def test_a_cut_off_cache_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite3"
    with EmbeddingCache(path) as cache:
        cache.embed("model-a", DIM, [f"text {n}" for n in range(2000)], _Counting())
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with (
        pytest.raises(CacheError, match="not a readable embedding cache"),
        EmbeddingCache(path) as cache,
    ):
        cache.embed("model-a", DIM, [f"text {n}" for n in range(2000)], _Counting())


def test_a_file_from_before_the_sums_keeps_its_good_rows(tmp_path: Path) -> None:
    path = tmp_path / "embeddings.sqlite3"
    embed = _Counting()
    good = embed(["alpha"])[0].tobytes()
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE vectors (model TEXT NOT NULL, digest TEXT NOT NULL, dim INTEGER NOT NULL,"
        " vector BLOB NOT NULL, PRIMARY KEY (model, digest))"
    )
    db.executemany(
        "INSERT INTO vectors VALUES (?, ?, ?, ?)",
        [("model-a", text_digest("alpha"), DIM, good), ("model-a", text_digest("beta"), DIM, b"x")],
    )
    db.commit()
    db.close()
    with EmbeddingCache(path) as cache:
        found = cache.embed("model-a", DIM, ["alpha", "beta"], embed)
    assert (found.from_cache, found.embedded) == (1, 1)
    assert np.array_equal(found.vectors, embed(["alpha", "beta"]))


def test_the_cache_lives_outside_the_repository_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SQUIRREL_BENCH_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "squirrel-bench" / "embeddings.sqlite3"
    monkeypatch.setenv("SQUIRREL_BENCH_CACHE", str(tmp_path / "other.sqlite3"))
    assert default_path() == tmp_path / "other.sqlite3"


def test_base_texts_takes_a_count_or_all() -> None:
    assert base_texts_arg("all") == sys.maxsize
    assert base_texts_arg("3000") == 3000
    for bad in ("0", "-5"):
        with pytest.raises(argparse.ArgumentTypeError):
            base_texts_arg(bad)
    with pytest.raises(ValueError):
        base_texts_arg("every")


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_vector_figures_name_the_service_index_kind_and_its_recall() -> None:
    rng = np.random.default_rng(3)
    vectors = _unit(rng.standard_normal((300, 16)))
    queries = _unit(vectors[:20] + 0.01 * rng.standard_normal((20, 16)))
    small = vector_figures(vectors, queries, "model-a")
    assert small.kind == "flat"
    assert small.recall == 1.0
    # Above the service's threshold the index is IVF: its recall is measured, not assumed.
    many = _unit(rng.standard_normal((50_100, 16)))
    asked = _unit(rng.standard_normal((10, 16)))
    found = vector_figures(many, asked, "model-a")
    assert found.kind == "ivf"
    assert 0.0 < found.recall < 1.0
    # ...and a flat index of the same vectors, asked for, is the service's flat index: above
    # 4,096 vectors it scans 4-bit codes first, so its recall too is measured, not assumed.
    flat = vector_figures(many, asked, "model-a", flat=True)
    assert flat.kind == "flat"
    assert 0.0 < flat.recall <= 1.0
