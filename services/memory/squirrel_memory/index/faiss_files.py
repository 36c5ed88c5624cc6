"""The FAISS index's files: the index bytes, the JSON sidecar that vouches for them, the int8
copy and the 4-bit codes beside them, written atomically and read back only when every check
passes (a copy or codes that do not check out are made again by the caller, never trusted).

`FaissIndex` (`faiss_index`) holds the index in memory; this module turns it into files and
files back into the parts it is made of, raising `IndexUnusableError` saying what is wrong.
FAISS never parses a file the sidecar does not vouch for: the size recorded there is checked
before the file is read, and its SHA-256 before it is handed to FAISS.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import faiss
import numpy as np
import structlog

from squirrel_core.codes_file import read_codes_file
from squirrel_core.int8_copy_file import copy_path_for
from squirrel_core.store_paths import meta_path_for
from squirrel_memory.index.base import IndexKind, IndexProblem, IndexUnusableError
from squirrel_memory.index.coarse import Int8Copy
from squirrel_memory.index.codes_file import (
    CodesFileError,
    codes_path_for,
    encode_codes,
    restore_codes,
    restore_ivf_codes,
)
from squirrel_memory.index.copy_file import copy_bytes, load_copy
from squirrel_memory.index.fast_scan import COMPONENTS_PER_CODE, FastScanCopy
from squirrel_memory.index.ivf_fast_scan import IvfFastScanCopy
from squirrel_memory.index.sidecar import FORMAT_VERSION, most_bytes, read_meta, write_atomically

log = structlog.get_logger()


@dataclass(frozen=True)
class IndexFiles:
    """What `save` writes: the index bytes, the sidecar's fields, the int8 copy's file and the
    4-bit codes' file (None: the index has no codes, and a codes file left beside it is removed)."""

    blob: bytes
    meta: dict[str, Any]
    copy: bytes | None
    codes: bytes | None = None


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
    codes: FastScanCopy | IvfFastScanCopy | None = None
    """The 4-bit codes read from their file, or None (not asked for, or none that belong)."""
    codes_problem: str | None = None
    """Why a codes file beside the index was not used (None: read, absent or not asked for)."""


def index_files(
    raw: Any,
    copy: Int8Copy | None,
    codes: FastScanCopy | IvfFastScanCopy | None = None,
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
    codes_file = encode_codes(*codes.file_parts(), digest) if codes is not None else None
    return IndexFiles(
        blob, meta, copy_bytes(copy, digest) if copy is not None else None, codes_file
    )


def write_index_files(target: Path, files: IndexFiles) -> None:
    """Write index, sidecar, copy and codes atomically (temp file, fsync, rename), in that
    order; a copy or codes file the index does not hold, left by an earlier save, is removed."""
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_atomically(target, files.blob)
    write_atomically(meta_path_for(target), json.dumps(files.meta).encode("utf-8"))
    # After the sidecar: a copy or codes are read only beside the index bytes they name; the
    # one an index does not hold (codes above `COMPACT_ABOVE`, the int8 copy below) is removed.
    for side, data in ((copy_path_for(target), files.copy), (codes_path_for(target), files.codes)):
        if data is not None:
            write_atomically(side, data)
        else:
            side.unlink(missing_ok=True)


def read_index_files(
    path: Path, dim: int, model_id: str, *, codes_above: int | None = None
) -> SavedIndex:
    """Read what `write_index_files` wrote at `path`; raise `IndexUnusableError` saying what is
    wrong. The 4-bit codes are read instead of the int8 copy when the index (flat or IVF) holds
    more than `codes_above` vectors (None: never)."""
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
    codes: FastScanCopy | IvfFastScanCopy | None = None
    problem: str | None = None
    copy = None
    if codes_above is None or len(ids) <= codes_above:
        copy = load_copy(copy_path_for(path), raw, meta["sha256"], ivf=ivf)
    else:  # the codes answer the first pass: no int8 copy is kept beside them
        try:
            codes = read_codes(
                codes_path_for(path),
                str(meta["sha256"]),
                dim,
                ids.values(),
                ivf=raw if ivf else None,
            )
        except FileNotFoundError:
            pass
        except (OSError, CodesFileError) as exc:
            problem = str(exc) if isinstance(exc, CodesFileError) else type(exc).__name__
    return SavedIndex(
        raw,
        kind,
        ids,
        int(meta["next_id"]),
        int(meta["trained_on"]),
        str(meta["sha256"]),
        copy,
        codes,
        problem,
    )


def read_codes(
    path: Path, index_sha256: str, dim: int, live_ids: Collection[int], *, ivf: Any = None
) -> FastScanCopy | IvfFastScanCopy:
    """The 4-bit codes saved at `path` for the index file whose SHA-256 is `index_sha256` and
    which holds `live_ids` (with `ivf`, that IVF index: codes in its lists); raise
    `CodesFileError` (or `OSError`) when they do not belong."""
    checked = read_codes_file(path, index_sha256, dim=dim, live_ids=set(live_ids))
    pairs = dim // COMPONENTS_PER_CODE
    if ivf is not None:
        in_lists = restore_ivf_codes(checked, ivf, pairs=pairs)
        return IvfFastScanCopy.restored(in_lists.codes, ivf, in_lists.trained_on)
    restored = restore_codes(checked, dim=dim, pairs=pairs)
    return FastScanCopy.restored(restored.codes, restored.row_ids, restored.trained_on)


def side_files(
    copy: Int8Copy | None, codes: FastScanCopy | IvfFastScanCopy | None, index_sha256: str
) -> dict[str, bytes]:
    """The int8 copy's and the codes' files (those given) for the index file whose SHA-256 is
    `index_sha256`, by part ("copy", "codes"); made holding the index's lock."""
    files = {}
    if copy is not None:
        files["copy"] = copy_bytes(copy, index_sha256)
    if codes is not None:
        files["codes"] = encode_codes(*codes.file_parts(), index_sha256)
    return files


def write_side_files(target: Path, files: dict[str, bytes], *, count: int) -> None:
    """Write `side_files` beside the index file at `target`, each atomically; a failure is
    logged (no memory text) and changes nothing else: the next load makes that part again."""
    for part, blob in files.items():
        try:
            if part == "copy":
                write_copy_file(target, blob)
            else:
                write_atomically(codes_path_for(target), blob)
        except OSError as exc:
            log.warning(f"vector_index_{part}_not_saved", error_type=type(exc).__name__)
            continue
        log.info(f"vector_index_{part}_saved", count=count, size_bytes=len(blob))


def write_copy_file(target: Path, blob: bytes) -> None:
    """Write an int8 copy's file (`copy_bytes`, made holding the index's lock) beside the index
    file at `target`. Raises `OSError` as the write does."""
    write_atomically(copy_path_for(target), blob)
