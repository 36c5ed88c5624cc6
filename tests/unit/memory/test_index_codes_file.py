"""The 4-bit codes' file: saved beside a large flat index, read back on load without training
them again, and trained again (with a warning line, the same answers) whenever the file does
not belong to the index: missing, short, damaged, stale or foreign."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt
import pytest
import structlog

from squirrel_core.int8_copy_file import copy_path_for
from squirrel_memory.index import FaissIndex, faiss_files, fast_scan
from squirrel_memory.index.codes_file import LENGTH_BYTES, MAGIC, _digest, codes_path_for
from squirrel_memory.index.fast_scan import DEAD_ROWS_KEPT

DIM = 64
COUNT = 1_500
ABOVE = 1_000

Vectors = npt.NDArray[np.float32]


def _clustered(count: int, seed: int) -> Vectors:
    """Unit vectors around a couple of dozen centres, as embedded memories cluster."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((24, DIM)).astype(np.float32)
    mixed = centres[rng.integers(0, len(centres), count)] + 0.6 * rng.standard_normal((count, DIM))
    out: Vectors = (mixed / np.linalg.norm(mixed, axis=1, keepdims=True)).astype(np.float32)
    return out


@pytest.fixture
def trainings(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts every training of the codes' centroids (one entry per training)."""
    counted: list[int] = []
    real = fast_scan.trained_codes

    def counting(dim: int, vectors: Vectors) -> Any:
        counted.append(len(vectors))
        return real(dim, vectors)

    monkeypatch.setattr(fast_scan, "trained_codes", counting)
    yield counted


def _saved(path: Path, vectors: Vectors, *, removed: int = 0) -> FaissIndex:
    index = FaissIndex(DIM, "test-model", path, compact_above=ABOVE)
    index.rebuild((f"mem_{n}", v) for n, v in enumerate(vectors))
    index.remove(f"mem_{n}" for n in range(removed))
    index.save()
    return index


def _load(path: Path) -> FaissIndex:
    return FaissIndex.load(path, DIM, "test-model", compact_above=ABOVE)


def _open(path: Path) -> FaissIndex:
    index, problem = FaissIndex.open(path, DIM, "test-model", compact_above=ABOVE)
    assert problem is None
    return index


def _answers(index: FaissIndex) -> list[list[tuple[str, float]]]:
    return [index.search(q, k) for q in _clustered(20, seed=99) for k in (1, 10, 50)]


def test_a_reload_reads_the_saved_codes_without_training(
    tmp_path: Path, trainings: list[int]
) -> None:
    path = tmp_path / "memories.faiss"
    index = _saved(path, _clustered(COUNT, 1))
    assert trainings == [COUNT] and codes_path_for(path).is_file()
    loaded = _load(path)
    assert trainings == [COUNT]
    assert loaded.codes_restored and loaded._compact is not None
    assert len(loaded._compact) == COUNT
    assert _answers(loaded) == _answers(index)


def test_a_missing_codes_file_is_trained_once_and_saved_by_open(
    tmp_path: Path, trainings: list[int]
) -> None:
    path = tmp_path / "memories.faiss"
    index = _saved(path, _clustered(COUNT, 1))
    codes_path_for(path).unlink()  # as an index saved before the codes were
    with structlog.testing.capture_logs() as logs:
        opened = _open(path)
    assert not opened.codes_restored and len(trainings) == 2
    assert not [e for e in logs if e["event"] == "vector_index_codes_unusable"]
    assert codes_path_for(path).is_file()
    again = _load(path)
    assert again.codes_restored and len(trainings) == 2
    assert _answers(again) == _answers(opened) == _answers(index)


def _truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _flipped(data: bytes) -> bytes:
    return data[:-100] + bytes([data[-100] ^ 0x40]) + data[-99:]


def _rewritten(data: bytes, payload: bytes | None = None, **changes: Any) -> bytes:
    """`data` with header fields changed (and its payload replaced), the checksum made to match:
    a file anyone could write, every byte of it consistent with itself."""
    start = len(MAGIC) + LENGTH_BYTES
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    header = json.loads(data[start : start + length])
    body = data[start + length :] if payload is None else payload
    fields = {k: v for k, v in {**header, **changes}.items() if k != "sha256"}
    fields["size"] = len(body)
    raw = json.dumps({**fields, "sha256": _digest(fields, body)}).encode("utf-8")
    return MAGIC + len(raw).to_bytes(LENGTH_BYTES, "little") + raw + body


def _other_kind(data: bytes) -> bytes:
    """The header and ids kept, the codes swapped for a flat index of as many vectors."""
    start = len(MAGIC) + LENGTH_BYTES
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    rows = json.loads(data[start : start + length])["rows"]
    ids = data[start + length : start + length + rows * 8]
    flat = faiss.IndexFlatIP(DIM)
    flat.add(_clustered(rows, 5))
    return _rewritten(data, ids + faiss.serialize_index(flat).tobytes())


def _other_ids(data: bytes) -> bytes:
    """The same codes said to hold other vectors (ids the index does not hold)."""
    start = len(MAGIC) + LENGTH_BYTES
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    rows = json.loads(data[start : start + length])["rows"]
    payload = data[start + length :]
    ids = np.frombuffer(payload[: rows * 8], dtype="<i8") + 10 * COUNT
    return _rewritten(data, ids.astype("<i8").tobytes() + payload[rows * 8 :])


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "truncated": _truncated,
    "empty": lambda data: b"",
    "junk": lambda data: b"junk" * 1000,
    "flipped byte": _flipped,
    "torn header": lambda data: data[: len(MAGIC) + LENGTH_BYTES + 10],
    "other format": lambda data: _rewritten(data, format=9),
    "other count": lambda data: _rewritten(data, count=COUNT - 1),
    "other kind of index": _other_kind,
    "other ids": _other_ids,
}


@pytest.mark.parametrize("damage", list(DAMAGES), ids=list(DAMAGES))
def test_a_bad_codes_file_is_trained_again_with_a_warning_and_the_same_answers(
    tmp_path: Path, trainings: list[int], damage: str
) -> None:
    path = tmp_path / "memories.faiss"
    index = _saved(path, _clustered(COUNT, 1))
    codes = codes_path_for(path)
    codes.write_bytes(DAMAGES[damage](codes.read_bytes()))
    with structlog.testing.capture_logs() as logs:
        opened = _open(path)
    warnings = [e for e in logs if e["event"] == "vector_index_codes_unusable"]
    assert len(warnings) == 1 and warnings[0]["log_level"] == "warning"
    assert not opened.codes_restored and len(trainings) == 2
    assert _answers(opened) == _answers(index)
    again = _load(path)  # open saved the codes it trained
    assert again.codes_restored and len(trainings) == 2


def test_stale_codes_from_another_version_of_the_index_are_not_used(
    tmp_path: Path, trainings: list[int]
) -> None:
    path = tmp_path / "memories.faiss"
    vectors = _clustered(COUNT, 1)
    _saved(path, vectors)
    stale = codes_path_for(path).read_bytes()
    index = _saved(path, vectors, removed=5)  # the same ids but five
    codes_path_for(path).write_bytes(stale)
    with structlog.testing.capture_logs() as logs:
        loaded = _load(path)
    assert [e["event"] for e in logs].count("vector_index_codes_unusable") == 1
    assert not loaded.codes_restored and len(trainings) == 3
    # Trained again from the index's live vectors: the answers of codes made from those alone.
    fresh = FaissIndex(DIM, "test-model", compact_above=ABOVE)
    fresh.rebuild((f"mem_{n}", vectors[n]) for n in range(5, COUNT))
    assert _answers(loaded) == _answers(fresh)
    assert [hits[0][0] for hits in _answers(loaded)] == [hits[0][0] for hits in _answers(index)]


def test_removals_across_a_reload(tmp_path: Path, trainings: list[int]) -> None:
    path = tmp_path / "memories.faiss"
    vectors = _clustered(COUNT, 1)
    index = _saved(path, vectors, removed=100)  # rows kept in the codes, skipped
    assert index._compact is not None and len(index._compact._ids) == COUNT
    loaded = _load(path)
    assert loaded.codes_restored and trainings == [COUNT]
    assert loaded._compact is not None and len(loaded._compact) == COUNT - 100
    assert len(loaded._compact._ids) == COUNT  # the removed rows still skipped, not recoded
    assert _answers(loaded) == _answers(index)
    for n in range(100):
        query = loaded._checked_vector(vectors[n])
        named = {int(i) for i in loaded._compact.candidates(query, 2 * 10 + 32)}
        assert not named & set(range(100))
        assert f"mem_{n}" not in dict(loaded.search(vectors[n], 50))
    loaded.remove(f"mem_{n}" for n in range(100, 100 + DEAD_ROWS_KEPT))
    assert len(loaded._compact._ids) == COUNT - 100 - DEAD_ROWS_KEPT  # recoded, not retrained
    loaded.upsert([("mem_new", vectors[0])])
    loaded.save()
    assert trainings == [COUNT]
    again = _load(path)
    assert again.codes_restored and trainings == [COUNT]
    assert _answers(again) == _answers(loaded)
    assert again.search(vectors[0], 1)[0][0] == "mem_new"
    assert again.search(vectors[500], 1)[0][0] == "mem_500"


def test_above_the_threshold_no_int8_copy_is_kept_and_below_it_comes_back(
    tmp_path: Path, trainings: list[int]
) -> None:
    path = tmp_path / "memories.faiss"
    index = _saved(path, _clustered(COUNT, 1))
    assert index._coarse is None and codes_path_for(path).is_file()
    assert not copy_path_for(path).exists()
    index.remove(f"mem_{n}" for n in range(COUNT - ABOVE))
    assert index._compact is None and index._coarse is not None
    assert index._coarse.faiss_index.ntotal == ABOVE
    index.save()
    assert not codes_path_for(path).exists() and copy_path_for(path).is_file()
    loaded = _load(path)
    assert loaded._compact is None and not loaded.codes_restored and loaded.copy_restored
    assert _answers(loaded) == _answers(index)
    assert trainings == [COUNT]


def test_an_index_saved_with_an_int8_copy_above_the_threshold_drops_it_at_the_next_save(
    tmp_path: Path, trainings: list[int]
) -> None:
    path = tmp_path / "memories.faiss"
    old = FaissIndex(DIM, "test-model", path, compact_above=COUNT)  # as saved before the codes
    old.rebuild((f"mem_{n}", v) for n, v in enumerate(_clustered(COUNT, 1)))
    old.save()
    assert copy_path_for(path).is_file() and not codes_path_for(path).exists()
    assert trainings == []
    opened = _open(path)
    assert opened._coarse is None and opened._compact is not None and len(trainings) == 1
    assert codes_path_for(path).is_file()
    opened.save()
    assert not copy_path_for(path).exists()
    again = _load(path)
    assert again.codes_restored and len(trainings) == 1
    assert _answers(again) == _answers(opened)


def test_codes_that_cannot_be_saved_at_load_leave_a_warning_and_a_working_index(
    tmp_path: Path, trainings: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "memories.faiss"
    index = _saved(path, _clustered(COUNT, 1))
    codes_path_for(path).unlink()

    def refused(target: Path, data: bytes) -> None:
        raise PermissionError(target)

    monkeypatch.setattr(faiss_files, "write_atomically", refused)
    with structlog.testing.capture_logs() as logs:
        opened = _open(path)
    [warning] = [e for e in logs if e["event"] == "vector_index_codes_not_saved"]
    assert warning["error_type"] == "PermissionError" and str(tmp_path) not in str(warning)
    assert not codes_path_for(path).exists() and len(trainings) == 2
    assert _answers(opened) == _answers(index)


def test_the_centroids_are_learnt_again_when_the_index_doubles_and_that_is_saved(
    tmp_path: Path, trainings: list[int]
) -> None:
    path = tmp_path / "memories.faiss"
    vectors = _clustered(3 * ABOVE, 1)
    index = FaissIndex(DIM, "test-model", path, compact_above=ABOVE)
    index.upsert((f"mem_{n}", v) for n, v in enumerate(vectors[: ABOVE + 1]))
    assert trainings == [ABOVE + 1]
    index.save()
    loaded = _load(path)
    assert loaded.codes_restored and loaded._compact is not None
    assert loaded._compact.trained_on == ABOVE + 1
    loaded.upsert((f"mem_{n}", vectors[n]) for n in range(ABOVE + 1, 2 * ABOVE + 2))
    assert trainings == [ABOVE + 1]  # twice what they were learnt from, not more
    loaded.upsert([(f"mem_{2 * ABOVE + 2}", vectors[2 * ABOVE + 2])])
    assert trainings == [ABOVE + 1, 2 * ABOVE + 3]
    loaded.save()
    again = _load(path)
    assert again.codes_restored and again._compact is not None
    assert again._compact.trained_on == 2 * ABOVE + 3 and len(trainings) == 2
    assert again.search(vectors[2 * ABOVE], 1)[0][0] == f"mem_{2 * ABOVE}"
