"""The int8 copy's file beside a vector index (`memories.int8`): its format and its checks.

The memory service saves the int8 copy of a large index beside it, so a start need not make it
again from every vector, and reads it back only when it belongs to the index just loaded:

    MAGIC, then an 8-byte little-endian length, then a JSON header of that length, then the
    copy's FAISS bytes.

The header holds the format, the dimension, the vector count, the copy's scale and L1 bound,
the SHA-256 of the index file it was made from, the size of the FAISS bytes and a SHA-256 over
the other fields and those bytes. Reading the file needs no FAISS, so `sqrl doctor` checks it
with the same code the memory service trusts (`check_copy`); the service then hands the bytes
to FAISS (`squirrel_memory.index.copy_file`). The frame is the one every file beside an index
has (`index_sidecar`); what is the copy's own is here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from squirrel_core.index_sidecar import SidecarFormat, digest, encode_frame, open_frame

__all__ = [
    "COPY_FORMAT",
    "COPY_SUFFIX",
    "MAGIC",
    "CheckedCopy",
    "CopyFileError",
    "check_copy",
    "copy_path_for",
    "digest",
    "encode_copy",
]

COPY_SUFFIX = ".int8"
"""The copy's file: `memories.faiss` -> `memories.int8`."""
COPY_FORMAT = 1
MAGIC = b"SQRL-INT8\n"
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


def encode_copy(fields: dict[str, Any], blob: bytes) -> bytes:
    """The file of a copy whose FAISS bytes are `blob` and whose header holds `fields` (every
    field but `format`, `size` and `sha256`, which are added here)."""
    return encode_frame(MAGIC, {"format": COPY_FORMAT, **fields, "size": len(blob)}, blob)


def check_copy(data: bytes, index_sha256: str, *, dim: int, count: int) -> CheckedCopy:
    """The copy in `data` when it belongs to the index file whose SHA-256 is `index_sha256`
    (of `dim`-dimensional vectors, `count` of them); else raise `CopyFileError`."""
    header, blob = open_frame(data, _FORMAT, index_sha256)
    if header["dim"] != dim or header["count"] != count:
        raise CopyFileError("it holds another number or size of vectors than the index")
    return CheckedCopy(header["dim"], header["count"], header["scale"], header["most_l1"], blob)


def _in_range(header: dict[str, Any]) -> bool:
    """Whether the copy's scale and L1 bound are finite and not negative."""
    return all(math.isfinite(header[k]) and header[k] >= 0 for k in ("scale", "most_l1"))


_FORMAT = SidecarFormat(
    MAGIC, COPY_FORMAT, _KINDS, _in_range, CopyFileError, "an int8 copy file", "made from"
)
