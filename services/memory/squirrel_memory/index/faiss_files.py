"""The FAISS index's files: the index bytes, the JSON sidecar that vouches for them and the int8
copy beside them, written atomically and read back only when every check passes.

`FaissIndex` (`faiss_index`) holds the index in memory; this module turns it into files and
files back into the parts it is made of, raising `IndexUnusableError` saying what is wrong.
FAISS never parses a file the sidecar does not vouch for: the size recorded there is checked
before the file is read, and its SHA-256 before it is handed to FAISS.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import faiss
import numpy as np

from squirrel_core.int8_copy_file import copy_path_for
from squirrel_core.store_paths import meta_path_for
from squirrel_memory.index.base import IndexKind, IndexProblem, IndexUnusableError
from squirrel_memory.index.coarse import Int8Copy
from squirrel_memory.index.copy_file import copy_bytes, load_copy
from squirrel_memory.index.sidecar import FORMAT_VERSION, most_bytes, read_meta, write_atomically


@dataclass(frozen=True)
class IndexFiles:
    """What `save` writes: the index bytes, the sidecar's fields and the int8 copy's file."""

    blob: bytes
    meta: dict[str, Any]
    copy: bytes | None


@dataclass(frozen=True)
class SavedIndex:
    """An index read back from its files, every check passed."""

    raw: Any
    """The FAISS index."""
    kind: IndexKind
    ids: dict[str, int]
    next_id: int
    trained_on: int
    sha256: str
    """The SHA-256 of the index file (the one the sidecar records)."""
    copy: Int8Copy | None
    """The int8 copy read from its file, or None when there is none that belongs to it."""


def index_files(
    raw: Any,
    copy: Int8Copy | None,
    *,
    model_id: str,
    dim: int,
    kind: IndexKind,
    ids: dict[str, int],
    next_id: int,
    trained_on: int,
) -> IndexFiles:
    """The files of an index (call holding its lock: the bytes must match the ids)."""
    blob = faiss.serialize_index(raw).tobytes()
    digest = hashlib.sha256(blob).hexdigest()
    meta = {
        "format": FORMAT_VERSION,
        "model_id": model_id,
        "dim": dim,
        "kind": kind.value,
        "count": len(ids),
        "next_id": next_id,
        "trained_on": trained_on,
        "sha256": digest,
        "size": len(blob),
        "ids": sorted(ids.items(), key=lambda pair: pair[1]),
    }
    return IndexFiles(blob, meta, copy_bytes(copy, digest) if copy is not None else None)


def write_index_files(target: Path, files: IndexFiles) -> None:
    """Write index, sidecar and copy atomically (temp file, fsync, rename), in that order."""
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_atomically(target, files.blob)
    write_atomically(meta_path_for(target), json.dumps(files.meta).encode("utf-8"))
    if files.copy is not None:
        # After the sidecar: a copy is read only beside the index bytes it names.
        write_atomically(copy_path_for(target), files.copy)


def read_index_files(path: Path, dim: int, model_id: str) -> SavedIndex:
    """Read what `write_index_files` wrote at `path`; raise `IndexUnusableError` saying what is
    wrong."""
    meta_path = meta_path_for(path)
    if not path.is_file() or not meta_path.is_file():
        raise IndexUnusableError(IndexProblem.MISSING, "index or sidecar file not found")
    meta = read_meta(meta_path)
    if meta["model_id"] != model_id:
        raise IndexUnusableError(IndexProblem.MODEL_MISMATCH, "built with another model")
    if meta["dim"] != dim:
        raise IndexUnusableError(IndexProblem.DIM_MISMATCH, "vectors of another dimension")
    size = path.stat().st_size
    if size != meta.get("size", size) or size > most_bytes(meta["count"], dim):
        raise IndexUnusableError(IndexProblem.CORRUPT, "index size does not match sidecar")
    blob = path.read_bytes()
    if len(blob) != size or hashlib.sha256(blob).hexdigest() != meta["sha256"]:
        raise IndexUnusableError(IndexProblem.CORRUPT, "index bytes do not match sidecar")
    try:
        raw = faiss.deserialize_index(np.frombuffer(blob, dtype=np.uint8))
    except Exception as exc:
        raise IndexUnusableError(IndexProblem.CORRUPT, "faiss could not read it") from exc
    ids = {str(name): int(int_id) for name, int_id in meta["ids"]}
    if raw.d != dim or raw.ntotal != len(ids) or meta["count"] != len(ids):
        raise IndexUnusableError(IndexProblem.CORRUPT, "index and sidecar disagree")
    kind = IndexKind(meta["kind"])
    ivf = kind is IndexKind.IVF
    copy = load_copy(copy_path_for(path), raw, meta["sha256"], ivf=ivf)
    return SavedIndex(
        raw,
        kind,
        ids,
        int(meta["next_id"]),
        int(meta["trained_on"]),
        str(meta["sha256"]),
        copy,
    )


def write_copy_file(target: Path, blob: bytes) -> None:
    """Write an int8 copy's file (`copy_bytes`, made holding the index's lock) beside the index
    file at `target`. Raises `OSError` as the write does."""
    write_atomically(copy_path_for(target), blob)
