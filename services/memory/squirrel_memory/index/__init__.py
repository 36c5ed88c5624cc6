"""The per-project vector index of memories: the contract (`base`), the FAISS implementation
(`faiss_index`: exact while small, IVF above a size threshold, `ivf`; its parts made and grown
as its size changes, `faiss_layout`; its first passes,
`first_pass`: the int8 copy, `coarse`, and above `COMPACT_ABOVE` vectors 4-bit codes,
`fast_scan`, or in an IVF index's lists `ivf_fast_scan`) and its files (`faiss_files`,
`sidecar`; `copy_file`: the int8 copy saved beside the index)."""

from squirrel_core.store_paths import INDEX_FILE_NAME, META_SUFFIX, meta_path_for
from squirrel_memory.index.base import (
    Hit,
    IndexKind,
    IndexProblem,
    IndexUnusableError,
    StoredVectors,
    Vector,
    VectorIndex,
    VectorRefusedError,
)
from squirrel_memory.index.faiss_index import FaissIndex
from squirrel_memory.index.ivf import APPROXIMATE_ABOVE, IVF_PROBE_FRACTION, IVF_RETRAIN_GROWTH
from squirrel_memory.index.sidecar import FORMAT_VERSION, READABLE_FORMATS

__all__ = [
    "APPROXIMATE_ABOVE",
    "FORMAT_VERSION",
    "INDEX_FILE_NAME",
    "IVF_PROBE_FRACTION",
    "IVF_RETRAIN_GROWTH",
    "META_SUFFIX",
    "READABLE_FORMATS",
    "FaissIndex",
    "Hit",
    "IndexKind",
    "IndexProblem",
    "IndexUnusableError",
    "StoredVectors",
    "Vector",
    "VectorIndex",
    "VectorRefusedError",
    "meta_path_for",
]
