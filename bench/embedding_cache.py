"""Memory-text embeddings kept on disk between bench runs, keyed by model id and text digest.

Embedding 100k generated memories with MiniLM takes a long while on a small machine; the
vectors depend only on the weights and the text, so a bench embeds each text once and reads it
back on the next run. The cache is one SQLite file outside the repository:
`$XDG_CACHE_HOME/squirrel-bench/embeddings.sqlite3` (`~/.cache/...` when the variable is
unset), or the path in `SQUIRREL_BENCH_CACHE`. New vectors are committed chunk by chunk, so an
interrupted run keeps what it embedded. Delete the file to start afresh.

A vector is only ever read back for the model and text it was made from, checked against the
SHA-256 stored beside it: a row whose bytes or sum do not match (or that has the wrong length)
is embedded again and replaced. A file SQLite cannot read, or whose `PRAGMA quick_check` fails,
stops the bench with `CacheError` naming the file (delete it to embed afresh). Rows written
before the sums were kept get theirs when the file is first opened by this code, after their
length is checked (rows of the wrong length are dropped).
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


def row_sum(model: str, digest: str, blob: bytes) -> str:
    """SHA-256 of a row's model, text digest and vector bytes, hex: what a read checks."""
    return hashlib.sha256(f"{model}\0{digest}\0".encode() + blob).hexdigest()


class CacheError(RuntimeError):
    """The cache file cannot be read as an embedding cache."""


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
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise CacheError(
                f"{self.path} is not a readable embedding cache ({exc}); delete it to embed afresh"
            ) from exc

    def _open(self) -> None:
        checked = self._db.execute("PRAGMA quick_check").fetchone()[0]
        if checked != "ok":
            raise sqlite3.DatabaseError(f"quick_check: {checked}")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, digest TEXT NOT NULL,"
            " dim INTEGER NOT NULL, vector BLOB NOT NULL, checksum TEXT,"
            " PRIMARY KEY (model, digest))"
        )
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(vectors)")}
        if "checksum" not in columns:
            self._add_sums()
        self._db.commit()

    def _add_sums(self) -> None:
        """A file from before the sums: each row of the right length gets its sum, the others
        are dropped (embedded again when asked for)."""
        self._db.execute("ALTER TABLE vectors ADD COLUMN checksum TEXT")
        self._db.execute("DELETE FROM vectors WHERE length(vector) != 4 * dim")
        rows = self._db.execute("SELECT model, digest, vector FROM vectors").fetchall()
        self._db.executemany(
            "UPDATE vectors SET checksum = ? WHERE model = ? AND digest = ?",
            [(row_sum(model, digest, blob), model, digest) for model, digest, blob in rows],
        )

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
                f"SELECT digest, vector, checksum FROM vectors WHERE model = ? AND dim = ?"
                f" AND digest IN ({marks})",
                [model, dim, *part],
            )
            for digest, blob, checksum in rows:
                if len(blob) == 4 * dim and checksum == row_sum(model, digest, blob):
                    found[digest] = np.frombuffer(blob, dtype=np.float32)
        return found

    def held(self, model: str, dim: int, digests: Sequence[str]) -> set[str]:
        """Which of `digests` (`text_digest`) the cache holds a good vector of for `model`."""
        return set(self._lookup(model, dim, list(dict.fromkeys(digests))))

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
            blobs = [v.tobytes() for v in vectors]
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors (model, digest, dim, vector, checksum)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (model, d, dim, b, row_sum(model, d, b))
                    for d, b in zip(part, blobs, strict=True)
                ],
            )
            self._db.commit()
            known.update(zip(part, vectors, strict=True))
        out = np.empty((len(texts), dim), dtype=np.float32)
        for row, digest in enumerate(digests):
            out[row] = known[digest]
        return CachedEmbedding(out, from_cache, len(missing))
