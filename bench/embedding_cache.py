"""Memory-text embeddings kept on disk between bench runs, keyed by model id and text digest.

Embedding 100k generated memories with MiniLM takes a long while on a small machine; the
vectors depend only on the weights and the text, so a bench embeds each text once and reads it
back on the next run. The cache is one SQLite file outside the repository:
`$XDG_CACHE_HOME/squirrel-bench/embeddings.sqlite3` (`~/.cache/...` when the variable is
unset), or the path in `SQUIRREL_BENCH_CACHE`. New vectors are committed chunk by chunk, so an
interrupted run keeps what it embedded. Delete the file to start afresh.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]
Embed = Callable[[Sequence[str]], Vectors]

CHUNK = 512
"""Texts embedded (and committed) at a time."""
_LOOKUP = 500
"""Digests asked for per SELECT (below SQLite's bound-parameter limit)."""


def default_path() -> Path:
    """Where the cache lives unless told otherwise."""
    explicit = os.environ.get("SQUIRREL_BENCH_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "squirrel-bench" / "embeddings.sqlite3"


def text_digest(text: str) -> str:
    """SHA-256 of the text's UTF-8 bytes, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedEmbedding:
    """The vectors of `embed`, and how many distinct texts came from the cache or the model."""

    vectors: Vectors
    from_cache: int
    embedded: int


class EmbeddingCache:
    """One SQLite table of (model id, text digest) -> float32 vector bytes."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, digest TEXT NOT NULL,"
            " dim INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, digest))"
        )
        self._db.commit()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _lookup(self, model: str, dim: int, digests: Sequence[str]) -> dict[str, Vectors]:
        found: dict[str, Vectors] = {}
        for start in range(0, len(digests), _LOOKUP):
            part = digests[start : start + _LOOKUP]
            marks = ",".join("?" * len(part))
            rows = self._db.execute(
                f"SELECT digest, vector FROM vectors WHERE model = ? AND dim = ?"
                f" AND digest IN ({marks})",
                [model, dim, *part],
            )
            for digest, blob in rows:
                found[digest] = np.frombuffer(blob, dtype=np.float32)
        return found

    def embed(self, model: str, dim: int, texts: Sequence[str], embed: Embed) -> CachedEmbedding:
        """Vectors of `texts` in order: read from the cache where there, else from `embed`
        (each distinct missing text once, in chunks of `CHUNK`, stored as they come)."""
        digests = [text_digest(t) for t in texts]
        unique = list(dict.fromkeys(digests))
        known = self._lookup(model, dim, unique)
        from_cache = len(known)
        first_text = dict(zip(digests, texts, strict=True))
        missing = [d for d in unique if d not in known]
        for start in range(0, len(missing), CHUNK):
            part = missing[start : start + CHUNK]
            vectors = np.asarray(embed([first_text[d] for d in part]), dtype=np.float32)
            if vectors.shape != (len(part), dim):
                raise ValueError(f"embedder returned {vectors.shape}, wanted {(len(part), dim)}")
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors (model, digest, dim, vector) VALUES (?, ?, ?, ?)",
                [(model, d, dim, v.tobytes()) for d, v in zip(part, vectors, strict=True)],
            )
            self._db.commit()
            known.update(zip(part, vectors, strict=True))
        out = np.empty((len(texts), dim), dtype=np.float32)
        for row, digest in enumerate(digests):
            out[row] = known[digest]
        return CachedEmbedding(out, from_cache, len(missing))
