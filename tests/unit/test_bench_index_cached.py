"""bench/index_cached.py reads only what the embedding cache holds: the longest run of texts
from the start, never a vector embedded behind the reader's back."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from bench.embedding_cache import EmbeddingCache, text_digest
from bench.index_cached import cached_only, cached_prefix, lines
from bench.mem0_exact import IndexFigures
from squirrel_memory.embedding.minilm import DIM, MODEL_ID


def _vectors(texts: Sequence[str]) -> np.ndarray:
    rng = np.random.default_rng(len(texts))
    rows = rng.standard_normal((len(texts), DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_the_prefix_stops_at_the_first_text_not_cached(tmp_path: Path) -> None:
    texts = [f"memory {n}" for n in range(10)]
    with EmbeddingCache(tmp_path / "cache.sqlite3") as cache:
        cache.embed(MODEL_ID, DIM, texts[:4] + texts[5:7], _vectors)
        assert cache.held(MODEL_ID, DIM, [text_digest(t) for t in texts[3:6]]) == {
            text_digest(texts[3]),
            text_digest(texts[5]),
        }
        assert cached_prefix(cache, texts) == 4
        assert cached_prefix(cache, texts[:4]) == 4
        assert cached_prefix(cache, texts[4:]) == 0


def test_reading_only_the_cache_refuses_a_missing_text_and_embeds_nothing(tmp_path: Path) -> None:
    texts = ["alpha", "beta", "gamma"]
    with EmbeddingCache(tmp_path / "cache.sqlite3") as cache:
        stored = cache.embed(MODEL_ID, DIM, texts[:2], _vectors).vectors
        assert np.array_equal(cached_only(cache, texts[:2]), stored)
        with pytest.raises(LookupError):
            cached_only(cache, texts)
        assert cached_prefix(cache, texts) == 2


def test_the_table_names_the_service_kind_flat_and_an_ivf_built_below_its_threshold() -> None:
    found = [
        IndexFigures(kind, encoder, 1.0, 2.0, 0.9, 0.9)
        for kind in ("flat", "flat", "ivf")
        for encoder in ("int8", "float")
    ]
    rows = lines(found)[2:]
    assert [r.split(" | ")[0] for r in rows] == [
        "| flat (the service's at this size)",
        "| flat (the service's at this size)",
        "| flat",
        "| flat",
        "| ivf (as the service builds it above 50k)",
        "| ivf (as the service builds it above 50k)",
    ]
