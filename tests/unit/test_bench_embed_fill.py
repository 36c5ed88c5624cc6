"""bench/embed_fill.py fills the embedding cache in order and, stopped, resumes where it was."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from bench import embed_fill
from bench.embedding_cache import EmbeddingCache
from bench.index_cached import cached_prefix
from squirrel_memory.embedding.minilm import DIM


class _Encoder:
    """Stands in for `BatchEncoder`: unit vectors, every text it was given noted."""

    batch = 4

    def __init__(self, stop_after: int | None = None) -> None:
        self.seen: list[str] = []
        self._stop_after = stop_after

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self._stop_after is not None and len(self.seen) >= self._stop_after:
            raise KeyboardInterrupt
        self.seen += texts
        rows = np.ones((len(texts), DIM), dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_a_stopped_fill_keeps_its_chunks_and_the_next_embeds_only_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SQUIRREL_BENCH_CACHE", str(tmp_path / "cache.sqlite3"))
    monkeypatch.setattr("bench.embedding_cache.CHUNK", 5)
    texts = [f"memory number {n}" for n in range(23)]
    first = _Encoder(stop_after=10)
    with pytest.raises(KeyboardInterrupt):
        embed_fill.fill(first, texts)  # type: ignore[arg-type]
    with EmbeddingCache() as cache:
        assert cached_prefix(cache, texts) == 10
    second = _Encoder()
    embed_fill.fill(second, texts)  # type: ignore[arg-type]
    assert second.seen == texts[10:]
    with EmbeddingCache() as cache:
        assert cached_prefix(cache, texts) == 23
    assert "13 embedded" in capsys.readouterr().out
