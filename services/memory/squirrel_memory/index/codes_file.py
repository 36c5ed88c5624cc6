"""The 4-bit codes' file beside a large flat index (`memories.pq4`): written and read back with
FAISS.

Training the codes' centroids and encoding every vector took seconds of wall-clock time at
10,000 vectors on a loaded machine, at every start. The codes are therefore saved with the
index and read back when they still belong to it. The file's format and every check that needs
no FAISS are `squirrel_core.codes_file` (so `sqrl doctor` checks the file with the same code);
FAISS parses the codes' bytes only after those checks have passed, and the index it returns
must be the kind and shape the caller makes itself. A file that is missing, short, of another
format, made from another version of the index, of other ids or damaged reads as a
`CodesFileError`, and the caller trains the codes again from the index.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

from squirrel_core.codes_file import (
    CODES_FORMAT,
    CODES_SUFFIX,
    ID_BYTES,
    LENGTH_BYTES,
    MAGIC,
    MAX_HEADER_BYTES,
    CheckedCodesFile,
    CodesFileError,
    check_codes_file,
    codes_path_for,
    encode_codes_file,
)
from squirrel_core.codes_file import digest as _digest
from squirrel_memory.index.ivf_fast_scan import list_ids

__all__ = [
    "CODES_FORMAT",
    "CODES_SUFFIX",
    "ID_BYTES",
    "LENGTH_BYTES",
    "MAGIC",
    "MAX_HEADER_BYTES",
    "CheckedCodes",
    "CodesFileError",
    "_digest",
    "check_codes",
    "codes_path_for",
    "encode_codes",
    "restore_codes",
    "restore_ivf_codes",
]


@dataclass(frozen=True)
class CheckedCodes:
    """A codes file that belongs to its index: each row's int id (-1: removed) and the codes."""

    row_ids: npt.NDArray[np.int64]
    trained_on: int
    """How many vectors the centroids were learnt from."""
    codes: Any
    """The `IndexPQFastScan` read back (trained, `len(row_ids)` vectors)."""


def encode_codes(
    codes: Any, row_ids: npt.NDArray[np.int64], trained_on: int, index_sha256: str
) -> bytes:
    """The file of `codes` (an `IndexPQFastScan` whose centroids were learnt from `trained_on`
    vectors) whose rows hold `row_ids` (-1: removed), saved with the index file whose SHA-256
    is `index_sha256`."""
    return encode_codes_file(
        faiss.serialize_index(codes).tobytes(),
        np.ascontiguousarray(row_ids, dtype="<i8").tobytes(),
        dim=int(codes.d),
        count=int(np.count_nonzero(row_ids >= 0)),
        trained_on=trained_on,
        index_sha256=index_sha256,
    )


def check_codes(
    data: bytes, index_sha256: str, *, dim: int, live_ids: Collection[int], pairs: int
) -> CheckedCodes:
    """The codes in `data` when they belong to the index file whose SHA-256 is `index_sha256`
    (`dim`-dimensional vectors of the int ids `live_ids`, coded by `pairs` 4-bit codes each);
    else raise `CodesFileError`."""
    checked = check_codes_file(data, index_sha256, dim=dim, live_ids=live_ids)
    return restore_codes(checked, dim=dim, pairs=pairs)


def restore_codes(checked: CheckedCodesFile, *, dim: int, pairs: int) -> CheckedCodes:
    """The codes of a file `check_codes_file` passed, read by FAISS and checked to be exactly
    the kind and shape this index makes (`dim`-dimensional vectors, `pairs` 4-bit codes each);
    else raise `CodesFileError`."""
    row_ids = np.frombuffer(checked.row_ids, dtype=np.int64).copy()
    codes = _faiss_codes(checked.blob)
    if (
        codes.d != dim
        or codes.ntotal != len(row_ids)
        or pairs != codes.M
        or codes.nbits != 4
        or codes.metric_type != faiss.METRIC_INNER_PRODUCT
        or not codes.is_trained
    ):
        raise CodesFileError("its codes are not of the shape this index uses")
    return CheckedCodes(row_ids, checked.trained_on, codes)


def restore_ivf_codes(checked: CheckedCodesFile, ivf: Any, *, pairs: int) -> CheckedCodes:
    """The codes of a file `check_codes_file` passed, beside the IVF index `ivf`: read by FAISS
    and checked to be exactly the kind and shape `ivf_fast_scan` makes for it (its lists, its
    quantizer's centroids, `pairs` 4-bit codes a vector, not on residuals) and to hold each
    vector the file's rows name once; else raise `CodesFileError`."""
    row_ids = np.frombuffer(checked.row_ids, dtype=np.int64).copy()
    codes = _faiss_codes(checked.blob, faiss.IndexIVFPQFastScan)
    if (
        codes.d != ivf.d
        or codes.nlist != ivf.nlist
        or codes.ntotal != len(row_ids)
        or pairs != codes.pq.M
        or codes.pq.nbits != 4
        or codes.by_residual
        or codes.metric_type != faiss.METRIC_INNER_PRODUCT
        or not codes.is_trained
        or codes.quantizer.ntotal != ivf.quantizer.ntotal
    ):
        raise CodesFileError("its codes are not of the shape this index uses")
    mine, theirs = _centroids(codes.quantizer), _centroids(ivf.quantizer)
    if mine is None or theirs is None or not np.array_equal(mine, theirs):
        raise CodesFileError("its lists are not the index's lists")
    if not np.array_equal(np.sort(list_ids(codes)), np.sort(row_ids)):
        raise CodesFileError("its lists hold other vectors than its rows name")
    return CheckedCodes(row_ids, checked.trained_on, codes)


def _centroids(quantizer: Any) -> npt.NDArray[np.float32] | None:
    """The centroids of an IVF quantizer that is a flat index (a view), else None."""
    flat = faiss.downcast_index(quantizer)
    if not isinstance(flat, faiss.IndexFlat):
        return None
    held: npt.NDArray[np.float32] = faiss.rev_swig_ptr(flat.get_xb(), flat.ntotal * flat.d)
    return held


def _faiss_codes(blob: bytes, kind: type = faiss.IndexPQFastScan) -> Any:
    try:
        raw = faiss.deserialize_index(np.frombuffer(blob, dtype=np.uint8))
    except Exception as exc:  # FAISS raises RuntimeError subclasses; any means "not usable"
        raise CodesFileError("FAISS could not read its codes") from exc
    # `deserialize_index` returns the index as its own class (casting it again misreads it).
    if type(raw) is not kind:
        raise CodesFileError("it holds another kind of index")
    return raw
