"""The postings of `memory_fts` read from its FTS5 vocabulary into NumPy arrays.

An `INSTANCES` query over an `fts5vocab ... 'instance'` table gives one row per term with each
of its instances packed as hex; `read_postings` decodes them, a chunk of terms at a time, into
the rows each term is in and its column-weighted count there (`COLUMN_WEIGHTS`, as `bm25()`
weighs them), with each row's length. `postings.IndexState` ranks over them.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

COLUMN_WEIGHTS = (2.0, 1.0, 1.5, 0.0)
"""bm25() weights of `memory_fts`'s columns: key, content, tags, type (unindexed)."""

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# One row per term, in term order: the term and, for each of its instances (in rowid, then
# column, then offset order), the rowid times 4 plus the column number, as 16 hex digits.
INSTANCES = (
    "SELECT term, group_concat(printf('%016x', doc * 4 + "
    "CASE col WHEN 'key' THEN 0 WHEN 'content' THEN 1 ELSE 2 END), '') FROM {} GROUP BY term"
)
CHUNK_TERMS = 512


@dataclass
class Postings:
    """The postings of some rows read from an FTS5 vocabulary, grouped by term.

    The rows are given beforehand as a sorted array of rowids; a posting names its row by the
    row's place in that array."""

    terms: list[str]
    sizes: Ints  # postings of each term
    rows: npt.NDArray[np.int32]  # the row of each posting (term by term, rows ascending)
    freqs: npt.NDArray[np.float32]  # the column-weighted count (exact: sums of halves)
    lengths: Floats  # tokens of each row (FTS5's column sizes, summed)


def read_postings(
    cursor: sqlite3.Cursor, ids: Ints, stop: threading.Event | None = None
) -> Postings:
    """The postings of the rows `ids` (sorted rowids) from an `INSTANCES` query, read a chunk
    of terms at a time."""
    weights = np.asarray(COLUMN_WEIGHTS, dtype=np.float64)
    terms: list[str] = []
    sizes: list[Ints] = []
    rows: list[npt.NDArray[np.int32]] = []
    freqs: list[npt.NDArray[np.float32]] = []
    lengths = np.zeros(len(ids), dtype=np.float64)
    while chunk := cursor.fetchmany(CHUNK_TERMS):
        if stop is not None and stop.is_set():
            raise InterruptedError("stopped")
        terms.extend(str(row[0]) for row in chunk)
        counts = np.fromiter((len(row[1]) // 16 for row in chunk), dtype=np.int64, count=len(chunk))
        packed = np.frombuffer(bytes.fromhex("".join(row[1] for row in chunk)), dtype=">u8")
        term_of = np.repeat(np.arange(len(chunk), dtype=np.int64), counts)
        place = np.searchsorted(ids, (packed >> 2).astype(np.int64))
        if len(place) and (place.max() >= len(ids) or not np.array_equal(ids[place], packed >> 2)):
            raise LookupError("the FTS5 index holds rows its table does not")
        starts = np.ones(len(place), dtype=bool)
        starts[1:] = (term_of[1:] != term_of[:-1]) | (place[1:] != place[:-1])
        group = np.cumsum(starts) - 1
        lengths += np.bincount(place, minlength=len(ids))
        sizes.append(np.bincount(term_of[starts], minlength=len(chunk)))
        rows.append(place[starts].astype(np.int32))
        freqs.append(np.bincount(group, weights=weights[packed & 3]).astype(np.float32))
    if not terms:
        return Postings(
            [],
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int32),
            np.zeros(0, dtype=np.float32),
            lengths,
        )
    return Postings(
        terms, np.concatenate(sizes), np.concatenate(rows), np.concatenate(freqs), lengths
    )


__all__ = [
    "CHUNK_TERMS",
    "COLUMN_WEIGHTS",
    "INSTANCES",
    "Floats",
    "Ints",
    "Postings",
    "read_postings",
]
