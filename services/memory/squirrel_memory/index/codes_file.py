"""The 4-bit codes' file beside a large flat index (`memories.pq4`): its format and its checks.

Training the codes' centroids and encoding every vector took seconds of wall-clock time at
10,000 vectors on a loaded machine, at every start. The codes are therefore saved with the
index and read back when they still belong to it:

    MAGIC, then an 8-byte little-endian length, then a JSON header of that length, then each
    row's int id (8 bytes little-endian, -1 for a removed vector's row), then the FAISS bytes
    of the codes and their centroids (`IndexPQFastScan`).

The header holds the format, the dimension, the live vector count, the row count, the SHA-256
of the index file the codes were saved with, the size of the bytes after the header and a
SHA-256 over the other fields and those bytes. The file may come from someone else, so none of
it is trusted: a file that is missing, short, of another format, made from another version of
the index, of other ids or damaged reads as a `CodesFileError`, and the caller trains the codes
again from the index. FAISS parses the codes' bytes only after every check of the header and
ids has passed, and the index it returns must be the kind and shape the caller makes itself.
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
import numpy.typing as npt

CODES_SUFFIX = ".pq4"
"""The codes' file: `memories.faiss` -> `memories.pq4`."""
CODES_FORMAT = 1
MAGIC = b"SQRL-PQ4\n"
LENGTH_BYTES = 8
MAX_HEADER_BYTES = 4096
ID_BYTES = 8
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


@dataclass(frozen=True)
class CheckedCodes:
    """A codes file that belongs to its index: each row's int id (-1: removed) and the codes."""

    row_ids: npt.NDArray[np.int64]
    trained_on: int
    """How many vectors the centroids were learnt from."""
    codes: Any
    """The `IndexPQFastScan` read back (trained, `len(row_ids)` vectors)."""


def codes_path_for(index_path: Path) -> Path:
    """The codes' file beside an index file."""
    return index_path.with_suffix(CODES_SUFFIX)


def _digest(fields: dict[str, Any], payload: bytes) -> str:
    hashed = hashlib.sha256(json.dumps(fields, sort_keys=True).encode("utf-8"))
    hashed.update(payload)
    return hashed.hexdigest()


def encode_codes(
    codes: Any, row_ids: npt.NDArray[np.int64], trained_on: int, index_sha256: str
) -> bytes:
    """The file of `codes` (an `IndexPQFastScan` whose centroids were learnt from `trained_on`
    vectors) whose rows hold `row_ids` (-1: removed), saved with the index file whose SHA-256
    is `index_sha256`."""
    ids = np.ascontiguousarray(row_ids, dtype="<i8").tobytes()
    payload = ids + faiss.serialize_index(codes).tobytes()
    fields = {
        "format": CODES_FORMAT,
        "dim": int(codes.d),
        "count": int(np.count_nonzero(row_ids >= 0)),
        "rows": len(row_ids),
        "trained_on": trained_on,
        "index_sha256": index_sha256,
        "size": len(payload),
    }
    header = json.dumps({**fields, "sha256": _digest(fields, payload)}).encode("utf-8")
    return MAGIC + len(header).to_bytes(LENGTH_BYTES, "little") + header + payload


def check_codes(
    data: bytes, index_sha256: str, *, dim: int, live_ids: Collection[int], pairs: int
) -> CheckedCodes:
    """The codes in `data` when they belong to the index file whose SHA-256 is `index_sha256`
    (`dim`-dimensional vectors of the int ids `live_ids`, coded by `pairs` 4-bit codes each);
    else raise `CodesFileError`."""
    start = len(MAGIC) + LENGTH_BYTES
    if not data.startswith(MAGIC) or len(data) < start:
        raise CodesFileError("not a codes file")
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    if length > MAX_HEADER_BYTES or len(data) < start + length:
        raise CodesFileError("its header is torn")
    header = _header(data[start : start + length])
    if header["index_sha256"] != index_sha256:
        raise CodesFileError("it was saved with another version of the index")
    payload = data[start + length :]
    fields = {key: value for key, value in header.items() if key != "sha256"}
    if len(payload) != header["size"] or _digest(fields, payload) != header["sha256"]:
        raise CodesFileError("its bytes do not match its checksum (damaged)")
    rows = header["rows"]
    if header["dim"] != dim or header["count"] != len(live_ids) or rows * ID_BYTES > len(payload):
        raise CodesFileError("it holds another number or size of vectors than the index")
    row_ids = np.frombuffer(payload[: rows * ID_BYTES], dtype="<i8").astype(np.int64)
    live = row_ids[row_ids >= 0]
    if (
        len(live) != len(live_ids)
        or len(np.unique(live)) != len(live)
        or not set(live.tolist()) <= set(live_ids)
        or np.any(row_ids < -1)
    ):
        raise CodesFileError("its rows name other vectors than the index holds")
    codes = _faiss_codes(payload[rows * ID_BYTES :])
    if (
        codes.d != dim
        or codes.ntotal != rows
        or pairs != codes.M
        or codes.nbits != 4
        or codes.metric_type != faiss.METRIC_INNER_PRODUCT
        or not codes.is_trained
    ):
        raise CodesFileError("its codes are not of the shape this index uses")
    return CheckedCodes(row_ids, header["trained_on"], codes)


def _faiss_codes(blob: bytes) -> Any:
    try:
        raw = faiss.deserialize_index(np.frombuffer(blob, dtype=np.uint8))
    except Exception as exc:  # FAISS raises RuntimeError subclasses; any means "not usable"
        raise CodesFileError("FAISS could not read its codes") from exc
    # `deserialize_index` returns the index as its own class (casting it again misreads it).
    if type(raw) is not faiss.IndexPQFastScan:
        raise CodesFileError("it holds another kind of index")
    return raw


def _header(raw: bytes) -> dict[str, Any]:
    """The header's fields, checked (each present, of its kind and not negative)."""
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CodesFileError("its header is not readable") from exc
    if not isinstance(header, dict) or header.get("format") != CODES_FORMAT:
        raise CodesFileError("it is of another format")
    for key, kind in _KINDS.items():
        value = header.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CodesFileError("its header is not readable")
    if any(header[key] < 0 for key in ("dim", "count", "rows", "trained_on", "size")):
        raise CodesFileError("its header is not readable")
    return header
