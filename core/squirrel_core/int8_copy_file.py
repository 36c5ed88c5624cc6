"""The int8 copy's file beside a vector index (`memories.int8`): its format and its checks.

The memory service saves the int8 copy of a large index beside it, so a start need not make it
again from every vector, and reads it back only when it belongs to the index just loaded:

    MAGIC, then an 8-byte little-endian length, then a JSON header of that length, then the
    copy's FAISS bytes.

The header holds the format, the dimension, the vector count, the copy's scale and L1 bound,
the SHA-256 of the index file it was made from, the size of the FAISS bytes and a SHA-256 over
the other fields and those bytes. Reading the file needs no FAISS, so `sqrl doctor` checks it
with the same code the memory service trusts (`check_copy`); the service then hands the bytes
to FAISS (`squirrel_memory.index.copy_file`).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

COPY_SUFFIX = ".int8"
"""The copy's file: `memories.faiss` -> `memories.int8`."""
COPY_FORMAT = 1
MAGIC = b"SQRL-INT8\n"
LENGTH_BYTES = 8
MAX_HEADER_BYTES = 4096
_KINDS: dict[str, type] = {
    "format": int,
    "dim": int,
    "count": int,
    "scale": float,
    "most_l1": float,
    "index_sha256": str,
    "size": int,
    "sha256": str,
}


class CopyFileError(Exception):
    """Why a copy file cannot be used (the message says it in a few words)."""


@dataclass(frozen=True, slots=True)
class CheckedCopy:
    """A copy file that belongs to its index: its header's fields and its FAISS bytes."""

    dim: int
    count: int
    scale: float
    most_l1: float
    blob: bytes


def copy_path_for(index_path: Path) -> Path:
    """The int8 copy's file beside an index file."""
    return index_path.with_suffix(COPY_SUFFIX)


def digest(fields: dict[str, Any], blob: bytes) -> str:
    """The SHA-256 of the header's other fields (canonical JSON) and the FAISS bytes, so a
    changed scale or bound is caught as surely as changed codes."""
    hashed = hashlib.sha256(json.dumps(fields, sort_keys=True).encode("utf-8"))
    hashed.update(blob)
    return hashed.hexdigest()


def encode_copy(fields: dict[str, Any], blob: bytes) -> bytes:
    """The file of a copy whose FAISS bytes are `blob` and whose header holds `fields` (every
    field but `format`, `size` and `sha256`, which are added here)."""
    fields = {"format": COPY_FORMAT, **fields, "size": len(blob)}
    header = json.dumps({**fields, "sha256": digest(fields, blob)}).encode("utf-8")
    return MAGIC + len(header).to_bytes(LENGTH_BYTES, "little") + header + blob


def check_copy(data: bytes, index_sha256: str, *, dim: int, count: int) -> CheckedCopy:
    """The copy in `data` when it belongs to the index file whose SHA-256 is `index_sha256`
    (of `dim`-dimensional vectors, `count` of them); else raise `CopyFileError`."""
    start = len(MAGIC) + LENGTH_BYTES
    if not data.startswith(MAGIC) or len(data) < start:
        raise CopyFileError("not an int8 copy file")
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    if length > MAX_HEADER_BYTES or len(data) < start + length:
        raise CopyFileError("its header is torn")
    header = _header(data[start : start + length])
    if header["index_sha256"] != index_sha256:
        raise CopyFileError("it was made from another version of the index")
    blob = data[start + length :]
    fields = {key: value for key, value in header.items() if key != "sha256"}
    if len(blob) != header["size"] or digest(fields, blob) != header["sha256"]:
        raise CopyFileError("its bytes do not match its checksum (damaged)")
    if header["dim"] != dim or header["count"] != count:
        raise CopyFileError("it holds another number or size of vectors than the index")
    return CheckedCopy(header["dim"], header["count"], header["scale"], header["most_l1"], blob)


def _header(raw: bytes) -> dict[str, Any]:
    """The header's fields, checked (each present, of its kind and in range)."""
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CopyFileError("its header is not readable") from exc
    if not isinstance(header, dict) or header.get("format") != COPY_FORMAT:
        raise CopyFileError("it is of another format")
    for key, kind in _KINDS.items():
        value = header.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CopyFileError("its header is not readable")
    if not all(math.isfinite(header[k]) and header[k] >= 0 for k in ("scale", "most_l1")):
        raise CopyFileError("its header is not readable")
    return header
