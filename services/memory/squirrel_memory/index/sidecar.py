"""The FAISS index's files: the JSON sidecar beside it (read with checks) and atomic writes."""

from __future__ import annotations

import json
import math
import os
import threading
from pathlib import Path
from typing import Any

from squirrel_memory.index.base import IndexKind, IndexProblem, IndexUnusableError

FORMAT_VERSION = 2
# Sidecars of format 1 carry the checksum but not the size; they are still read (checksum first).
READABLE_FORMATS = (1, 2)
# The sidecar holds one [memory id, int] pair per vector; ids are ~30 bytes.
_MAX_SIDECAR_BYTES = 256 * 1024 * 1024


def most_bytes(count: int, dim: int) -> int:
    """A generous upper bound on the serialized size of an index of `count` vectors: vectors,
    ids and an IVF's lists and centroids, plus headers. A larger file is not read at all."""
    per_vector = dim * 4 + 8 * 4
    lists = 4 * math.isqrt(max(count, 1)) + 16
    return 1_048_576 + count * per_vector * 2 + lists * (dim * 4 + 64)


def read_meta(meta_path: Path) -> dict[str, Any]:
    """The sidecar's fields, checked; `IndexUnusableError` (corrupt) when it cannot be trusted."""
    try:
        if meta_path.stat().st_size > _MAX_SIDECAR_BYTES:
            raise IndexUnusableError(IndexProblem.CORRUPT, "sidecar is too large")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise IndexUnusableError(IndexProblem.CORRUPT, "sidecar is not readable JSON") from exc
    required = {
        "format": int,
        "model_id": str,
        "dim": int,
        "kind": str,
        "count": int,
        "next_id": int,
        "trained_on": int,
        "sha256": str,
        "ids": list,
    }
    if not isinstance(meta, dict) or any(
        not isinstance(meta.get(key), kind) for key, kind in required.items()
    ):
        raise IndexUnusableError(IndexProblem.CORRUPT, "sidecar lacks required fields")
    size = meta.get("size")
    if meta["format"] == FORMAT_VERSION and (not isinstance(size, int) or size < 0):
        raise IndexUnusableError(IndexProblem.CORRUPT, "sidecar lacks the index size")
    if meta["format"] not in READABLE_FORMATS or meta["kind"] not in {k.value for k in IndexKind}:
        raise IndexUnusableError(IndexProblem.CORRUPT, "sidecar of an unknown format")
    for pair in meta["ids"]:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not isinstance(pair[0], str)
            or not isinstance(pair[1], int)
        ):
            raise IndexUnusableError(IndexProblem.CORRUPT, "sidecar id table is malformed")
    return meta


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file, fsynced, renamed, private (0600)."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with temp.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        temp.chmod(0o600)
        temp.replace(path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
