"""The memory id of each row of the in-memory lexical index, by slot (`postings.IndexState`).

A search's lexical hits are full-text doc ids; their memories are read by memory id. Without
the ids beside the postings each search looked its hits' ids up in `memory_fts_docs` (one
statement, and a miss in the row cache's doc map for most hits of a large store). Here they
are one NumPy array of fixed-width UTF-8 bytes (about 30 bytes a row for `mem_` ids: some 3 MB
at 100,000 memories, where a list of Python strings takes about 9 MB), widened when a longer
id comes. An empty entry is an id not known (a row added without one): the caller looks it up.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

_MIN_WIDTH = 1


def _encoded(ids: Sequence[str | None]) -> list[bytes]:
    return [b"" if i is None else i.encode() for i in ids]


class SlotIds:
    """Memory ids by slot, `capacity` slots long (grown with the index's other columns)."""

    def __init__(self, capacity: int, ids: Sequence[str | None] = ()) -> None:
        encoded = _encoded(ids)
        width = max((len(i) for i in encoded), default=_MIN_WIDTH) or _MIN_WIDTH
        self.ids: npt.NDArray[np.bytes_] = np.zeros(max(capacity, len(encoded)), dtype=f"S{width}")
        self.ids[: len(encoded)] = encoded

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def nbytes(self) -> int:
        return int(self.ids.nbytes)

    def grow(self, size: int) -> None:
        """Make room for `size` slots (the ids held stay where they are)."""
        if size > len(self.ids):
            grown = np.zeros(size, dtype=self.ids.dtype)
            grown[: len(self.ids)] = self.ids
            self.ids = grown

    def put(self, first: int, ids: Sequence[str | None]) -> None:
        """The ids of the slots from `first` on (room made with `grow`)."""
        encoded = _encoded(ids)
        width = max((len(i) for i in encoded), default=0)
        if width > self.ids.dtype.itemsize:
            self.ids = self.ids.astype(f"S{width}")
        self.ids[first : first + len(encoded)] = encoded

    def of(self, slots: npt.NDArray[np.int64]) -> list[str | None]:
        """The memory ids of `slots`, None where one is not known."""
        return [i.decode() if i else None for i in self.ids[slots].tolist()]
