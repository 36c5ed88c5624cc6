"""The int8 copy saved beside the index (`memories.int8`), written and read back with FAISS.

Making the int8 copy of a loaded index means reading every vector (list by list for IVF) and
rounding it, which at 100k vectors took longer than reading the index itself. The copy is
therefore saved with the index and read back when it still belongs to it. The file's format and
its checks are `squirrel_core.int8_copy_file` (so `sqrl doctor` checks it with the same code):
a copy is used only when all of them check out against the index just loaded; anything else
(no file, an older index, another format, torn or foreign bytes) reads as None and the caller
makes the copy from the index, as an index saved without one always did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import faiss
import numpy as np

from squirrel_core.int8_copy_file import CopyFileError, check_copy, encode_copy
from squirrel_memory.index.coarse import CopyState, Int8Copy


def copy_bytes(copy: Int8Copy, index_sha256: str) -> bytes:
    """The file of `copy`, made from the index whose file has SHA-256 `index_sha256`."""
    blob = faiss.serialize_index(copy.faiss_index).tobytes()
    state = copy.state
    fields = {
        "dim": state.dim,
        "count": int(copy.faiss_index.ntotal),
        "scale": state.scale,
        "most_l1": state.most_l1,
        "index_sha256": index_sha256,
    }
    return encode_copy(fields, blob)


def load_copy(path: Path, index: Any, index_sha256: str, *, ivf: bool) -> Int8Copy | None:
    """The copy saved at `path` for `index` (whose file has SHA-256 `index_sha256`; an IVF
    index when `ivf`), or None when there is none or it does not belong to that index."""
    try:
        checked = check_copy(path.read_bytes(), index_sha256, dim=index.d, count=index.ntotal)
    except (OSError, CopyFileError):
        return None
    try:
        raw = faiss.deserialize_index(np.frombuffer(checked.blob, dtype=np.uint8))
    except Exception:  # FAISS raises RuntimeError subclasses; any means "not usable"
        return None
    state = CopyState(checked.dim, checked.scale, checked.most_l1)
    return Int8Copy.restored(state, raw, ivf=index if ivf else None)
