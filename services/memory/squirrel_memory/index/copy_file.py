"""The int8 copy's file beside the index (`memories.int8`): versioned, checked, bound to the index.

Making the int8 copy of a loaded index means reading every vector (list by list for IVF) and
rounding it, which at 100k vectors took longer than reading the index itself. The copy is
therefore saved with the index and read back when it still belongs to it:

    MAGIC, then an 8-byte little-endian length, then a JSON header of that length, then the
    copy's FAISS bytes.

The header holds the format, the dimension, the vector count, the copy's scale and L1 bound
(`Int8Copy.state`), the SHA-256 of the index file it was made from, the size of the FAISS bytes
and a SHA-256 over the other fields and those bytes. A copy is used only when all of them check
out against the index just loaded; anything else (no file, an older index, another format, torn
or foreign bytes) reads as None and the caller makes the copy from the index, as an index saved
without one always did.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import faiss
import numpy as np

from squirrel_memory.index.coarse import CopyState, Int8Copy

COPY_SUFFIX = ".int8"
"""The copy's file: `memories.faiss` -> `memories.int8`."""
COPY_FORMAT = 1
MAGIC = b"SQRL-INT8\n"
_LENGTH_BYTES = 8
_MAX_HEADER_BYTES = 4096


def copy_path_for(index_path: Path) -> Path:
    """The int8 copy's file beside an index file."""
    return index_path.with_suffix(COPY_SUFFIX)


def copy_bytes(copy: Int8Copy, index_sha256: str) -> bytes:
    """The file of `copy`, made from the index whose file has SHA-256 `index_sha256`."""
    blob = faiss.serialize_index(copy.faiss_index).tobytes()
    state = copy.state
    fields = {
        "format": COPY_FORMAT,
        "dim": state.dim,
        "count": int(copy.faiss_index.ntotal),
        "scale": state.scale,
        "most_l1": state.most_l1,
        "index_sha256": index_sha256,
        "size": len(blob),
    }
    header = json.dumps({**fields, "sha256": _digest(fields, blob)}).encode("utf-8")
    return MAGIC + len(header).to_bytes(_LENGTH_BYTES, "little") + header + blob


def _digest(fields: dict[str, Any], blob: bytes) -> str:
    """The SHA-256 of the header's other fields (canonical JSON) and the FAISS bytes, so a
    changed scale or bound is caught as surely as changed codes."""
    digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode("utf-8"))
    digest.update(blob)
    return digest.hexdigest()


def load_copy(path: Path, index: Any, index_sha256: str, *, ivf: bool) -> Int8Copy | None:
    """The copy saved at `path` for `index` (whose file has SHA-256 `index_sha256`; an IVF
    index when `ivf`), or None when there is none or it does not belong to that index."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    start = len(MAGIC) + _LENGTH_BYTES
    if not data.startswith(MAGIC) or len(data) < start:
        return None
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    if length > _MAX_HEADER_BYTES or len(data) < start + length:
        return None
    header = _header(data[start : start + length])
    if header is None or header["index_sha256"] != index_sha256:
        return None
    blob = data[start + length :]
    fields = {key: value for key, value in header.items() if key != "sha256"}
    if len(blob) != header["size"] or _digest(fields, blob) != header["sha256"]:
        return None
    if header["dim"] != index.d or header["count"] != index.ntotal:
        return None
    try:
        raw = faiss.deserialize_index(np.frombuffer(blob, dtype=np.uint8))
    except Exception:  # FAISS raises RuntimeError subclasses; any means "not usable"
        return None
    state = CopyState(header["dim"], header["scale"], header["most_l1"])
    return Int8Copy.restored(state, raw, ivf=index if ivf else None)


def _header(raw: bytes) -> dict[str, Any] | None:
    """The header's fields, checked (None when any is missing, of the wrong kind or out of
    range)."""
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    kinds = {
        "format": int,
        "dim": int,
        "count": int,
        "scale": float,
        "most_l1": float,
        "index_sha256": str,
        "size": int,
        "sha256": str,
    }
    if not isinstance(header, dict) or header.get("format") != COPY_FORMAT:
        return None
    for key, kind in kinds.items():
        value = header.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            return None
    if not all(math.isfinite(header[k]) and header[k] >= 0 for k in ("scale", "most_l1")):
        return None
    return header
