"""The vector index contract (`VectorIndex`) and the values and errors every index shares."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from squirrel_core.errors import FailedPreconditionError

Hit = tuple[str, float]
Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class StoredVectors:
    """Some memories' stored vectors (`FaissIndex.stored_vectors`): of the memories `asked`,
    the rows of `rows` by memory id (`at`: those the index held), as the index held them at
    `version`."""

    version: int
    asked: frozenset[str]
    at: dict[str, int]
    rows: Vector


class IndexKind(StrEnum):
    """How vectors are searched."""

    FLAT = "flat"
    IVF = "ivf"


class IndexProblem(StrEnum):
    """Why a persisted index cannot be used; the caller rebuilds it from SQLite."""

    MISSING = "missing"
    CORRUPT = "corrupt"
    DIM_MISMATCH = "dim_mismatch"
    MODEL_MISMATCH = "model_mismatch"


class IndexUnusableError(FailedPreconditionError):
    """The index files on disk are missing, damaged or built for another model."""

    def __init__(self, problem: IndexProblem, detail: str) -> None:
        super().__init__(f"vector index unusable ({problem.value}): {detail}")
        self.problem = problem


class VectorRefusedError(FailedPreconditionError):
    """A vector the index cannot hold (another length, not finite, not numbers).

    Vectors come from the service's own embedder, never from a caller, so one the index refuses
    is the service's fault, not a bad argument: it travels as FAILED_PRECONDITION, and `sqrl`
    exits 1, not 2 (docs/cli.md).
    """


def unit_vector(vector: npt.ArrayLike, dim: int) -> Vector:
    """`vector` as float32 of unit length (a zero vector stays zero); raise
    `VectorRefusedError` for one that is not `dim` finite numbers."""
    try:
        array = np.asarray(vector, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise VectorRefusedError("a vector must be numeric") from exc
    if array.size != dim or array.ndim not in (1, 2):
        raise VectorRefusedError(f"vectors must have {dim} dimensions")
    flat = array.reshape(dim)
    # The squared norm `np.linalg.norm` takes the root of: finite unless an element is not
    # (or the sum overflows float32, where the elements are checked one by one).
    squared = flat.dot(flat)
    if not math.isfinite(squared) and not np.all(np.isfinite(flat)):
        raise VectorRefusedError("vectors must be finite")
    norm = float(np.sqrt(squared))
    unit: Vector = (flat / norm if norm > 0 else flat).astype(np.float32)
    return unit


@runtime_checkable
class VectorIndex(Protocol):
    """Nearest memories by cosine similarity of unit vectors."""

    @property
    def dim(self) -> int:
        """Length of every vector."""
        ...

    @property
    def model_id(self) -> str:
        """The embedder whose vectors this index holds."""
        ...

    def __len__(self) -> int: ...

    def __contains__(self, memory_id: object) -> bool: ...

    def upsert(self, items: Iterable[tuple[str, npt.ArrayLike]]) -> int:
        """Add or replace vectors by memory id; return how many were written."""
        ...

    def remove(self, memory_ids: Iterable[str]) -> int:
        """Drop memory ids (unknown ids are ignored); return how many were removed."""
        ...

    def search(self, query: npt.ArrayLike, k: int) -> list[Hit]:
        """The `k` nearest memory ids with their cosine similarity, best first."""
        ...

    def similarities(self, query: npt.ArrayLike, memory_ids: Iterable[str]) -> dict[str, float]:
        """The cosine of `query` to each given memory the index holds (others are left out)."""
        ...

    def rebuild(self, items: Iterable[tuple[str, npt.ArrayLike]]) -> int:
        """Replace the whole content; return the new count."""
        ...

    def memory_ids(self) -> set[str]:
        """Every memory id the index holds."""
        ...

    def save(self) -> Path | None:
        """Persist (a file index atomically, returning where; a database index has nothing to
        do and returns None)."""
        ...
