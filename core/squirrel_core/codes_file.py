"""The 4-bit codes' file beside a large flat vector index (`memories.pq4`): its format and the
checks that need no FAISS.

The memory service saves the codes of a flat index above `compact_above` vectors beside it, so
a start need not train them again, and reads them back only when they belong to the index just
loaded:

    MAGIC, then an 8-byte little-endian length, then a JSON header of that length, then each
    row's int id (8 bytes little-endian, -1 for a removed vector's row), then the FAISS bytes
    of the codes and their centroids (`IndexPQFastScan`).

The header holds the format, the dimension, the live vector count, the row count, how many
vectors the centroids were learnt from, the SHA-256 of the index file the codes were saved with,
the size of the bytes after the header and a SHA-256 over the other fields and those bytes. The
file may come from someone else, so none of it is trusted. Every check here runs before FAISS
parses a byte, so `sqrl doctor` checks the file with the same code the memory service trusts
(`read_codes_file`); the service then hands the codes' bytes to FAISS and checks what FAISS
returns (`squirrel_memory.index.codes_file`). The frame is the one every file beside an index
has (`index_sidecar`); what is the codes' own is here.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from squirrel_core.index_sidecar import (
    LENGTH_BYTES,
    MAX_HEADER_BYTES,
    SidecarFormat,
    digest,
    encode_frame,
    open_frame,
)

__all__ = [
    "CODES_FORMAT",
    "CODES_SUFFIX",
    "COMPONENTS_PER_CODE",
    "DEAD_ROWS_KEPT",
    "ID_BYTES",
    "LENGTH_BYTES",
    "MAGIC",
    "MAX_HEADER_BYTES",
    "CheckedCodesFile",
    "CodesFileError",
    "check_codes_file",
    "codes_path_for",
    "digest",
    "encode_codes_file",
    "read_codes_file",
]

CODES_SUFFIX = ".pq4"
"""The codes' file: `memories.faiss` -> `memories.pq4`."""
CODES_FORMAT = 1
MAGIC = b"SQRL-PQ4\n"
ID_BYTES = 8
COMPONENTS_PER_CODE = 2
"""Components one 4-bit code stands for: 16 centroids per pair."""
DEAD_ROWS_KEPT = 256
"""Removed vectors' rows are skipped until there are more than this many; then the codes are
made again from the live vectors (about 50 ms for 10,000 vectors)."""
_KINDS: dict[str, type] = {
    "format": int,
    "dim": int,
    "count": int,
    "rows": int,
    "trained_on": int,
    "index_sha256": str,
    "size": int,
    "sha256": str,
}


class CodesFileError(Exception):
    """Why a codes file cannot be used (the message says it in a few words, no memory text)."""


@dataclass(frozen=True, slots=True)
class CheckedCodesFile:
    """A codes file whose header and rows belong to its index: each row's int id (-1:
    removed), how many vectors the centroids were learnt from, and the codes' FAISS bytes."""

    row_ids: array[int]
    trained_on: int
    blob: bytes


def codes_path_for(index_path: Path) -> Path:
    """The codes' file beside an index file."""
    return index_path.with_suffix(CODES_SUFFIX)


def encode_codes_file(
    blob: bytes, row_ids: bytes, *, dim: int, count: int, trained_on: int, index_sha256: str
) -> bytes:
    """The file of codes whose FAISS bytes are `blob`, whose rows' int ids are `row_ids` (8-byte
    little-endian each, -1: removed) with `count` of them live, of `dim`-dimensional vectors,
    centroids learnt from `trained_on` vectors, saved with the index file whose SHA-256 is
    `index_sha256`."""
    payload = row_ids + blob
    fields = {
        "format": CODES_FORMAT,
        "dim": dim,
        "count": count,
        "rows": len(row_ids) // ID_BYTES,
        "trained_on": trained_on,
        "index_sha256": index_sha256,
        "size": len(payload),
    }
    return encode_frame(MAGIC, fields, payload)


def read_codes_file(
    path: Path, index_sha256: str, *, dim: int, live_ids: Collection[int]
) -> CheckedCodesFile:
    """The codes saved at `path` when their file belongs to the index file whose SHA-256 is
    `index_sha256` (`dim`-dimensional vectors of the int ids `live_ids`); else raise
    `CodesFileError`, or `OSError` as reading it does (`FileNotFoundError`: no file). The
    file's size is bounded before it is read."""
    if dim < COMPONENTS_PER_CODE or dim % COMPONENTS_PER_CODE:
        raise CodesFileError("this index's vectors have no codes")
    rows = len(live_ids) + DEAD_ROWS_KEPT + 1
    if path.stat().st_size > 1_048_576 + rows * (ID_BYTES + dim):
        raise CodesFileError("it is larger than codes of this index can be")
    return check_codes_file(path.read_bytes(), index_sha256, dim=dim, live_ids=live_ids)


def check_codes_file(
    data: bytes, index_sha256: str, *, dim: int, live_ids: Collection[int]
) -> CheckedCodesFile:
    """The codes in `data` when their header and rows belong to the index file whose SHA-256
    is `index_sha256` (`dim`-dimensional vectors of the int ids `live_ids`); else raise
    `CodesFileError`. The codes' FAISS bytes are not parsed here."""
    header, payload = open_frame(data, _FORMAT, index_sha256)
    rows = header["rows"]
    if header["dim"] != dim or header["count"] != len(live_ids) or rows * ID_BYTES > len(payload):
        raise CodesFileError("it holds another number or size of vectors than the index")
    row_ids = array("q", payload[: rows * ID_BYTES])
    if sys.byteorder != "little":
        row_ids.byteswap()
    live = [row_id for row_id in row_ids if row_id >= 0]
    live_set = set(live)
    if (
        len(live) != len(live_ids)
        or len(live_set) != len(live)
        or not live_set <= set(live_ids)
        or (len(row_ids) > 0 and min(row_ids) < -1)
    ):
        raise CodesFileError("its rows name other vectors than the index holds")
    return CheckedCodesFile(row_ids, header["trained_on"], payload[rows * ID_BYTES :])


def _in_range(header: dict[str, Any]) -> bool:
    """Whether the header's sizes and counts are not negative."""
    return all(header[key] >= 0 for key in ("dim", "count", "rows", "trained_on", "size"))


_FORMAT = SidecarFormat(
    MAGIC, CODES_FORMAT, _KINDS, _in_range, CodesFileError, "a codes file", "saved with"
)
