"""The int8 copy's file: saved beside the index, read back only when it belongs to it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from squirrel_core.int8_copy_file import MAGIC, copy_path_for
from squirrel_core.int8_copy_file import digest as _digest
from squirrel_memory.index import FaissIndex, IndexKind
from squirrel_memory.index.faiss_index import COARSE_ABOVE

DIM = 48
COUNT = COARSE_ABOVE + 1_000
IVF_ABOVE = COUNT - 500

Vectors = npt.NDArray[np.float32]


def _clustered(count: int, seed: int) -> Vectors:
    """Unit vectors around a few dozen centres, as embedded memories cluster."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, DIM)).astype(np.float32)
    mixed = centres[rng.integers(0, 40, count)] + 0.6 * rng.standard_normal((count, DIM))
    out: Vectors = (mixed / np.linalg.norm(mixed, axis=1, keepdims=True)).astype(np.float32)
    return out


def _saved(path: Path, *, ivf: bool, seed: int = 1) -> FaissIndex:
    """An index of COUNT vectors (IVF or flat) with replaced and removed ones, saved at `path`."""
    index = FaissIndex(DIM, "test-model", path, approximate_above=IVF_ABOVE if ivf else COUNT)
    ids = [f"mem_{n}" for n in range(COUNT)]
    index.upsert(zip(ids, _clustered(COUNT, seed), strict=True))
    index.upsert(zip(ids[:100], _clustered(100, seed + 1), strict=True))
    index.remove(ids[100:300])
    index.save()
    assert index.kind is (IndexKind.IVF if ivf else IndexKind.FLAT)
    return index


def _load(path: Path, *, ivf: bool) -> FaissIndex:
    return FaissIndex.load(path, DIM, "test-model", approximate_above=IVF_ABOVE if ivf else COUNT)


def _same_answers(one: FaissIndex, other: FaissIndex) -> None:
    for query in _clustered(20, seed=99):
        for k in (1, 10, 50):
            assert one.search(query, k) == other.search(query, k)


@pytest.mark.parametrize("ivf", [False, True], ids=["flat", "ivf"])
def test_a_saved_copy_is_read_back_and_answers_as_the_copy_made_at_load(
    tmp_path: Path, ivf: bool
) -> None:
    path = tmp_path / "index.faiss"
    index = _saved(path, ivf=ivf)
    assert copy_path_for(path).is_file()

    restored = _load(path, ivf=ivf)
    copy_path_for(path).unlink()
    made = _load(path, ivf=ivf)

    assert restored.copy_restored and not made.copy_restored
    assert restored._coarse is not None and index._coarse is not None
    assert restored._coarse.state == index._coarse.state
    _same_answers(restored, made)
    _same_answers(restored, index)


@pytest.mark.parametrize("ivf", [False, True], ids=["flat", "ivf"])
def test_a_restored_copy_follows_later_writes(tmp_path: Path, ivf: bool) -> None:
    path = tmp_path / "index.faiss"
    _saved(path, ivf=ivf)
    restored = _load(path, ivf=ivf)
    assert restored.copy_restored
    restored.upsert((f"new_{n}", v) for n, v in enumerate(_clustered(50, seed=7)))
    restored.upsert(zip([f"mem_{n}" for n in range(300, 350)], _clustered(50, seed=8), strict=True))
    restored.remove(f"mem_{n}" for n in range(350, 400))
    restored.save()
    copy_path_for(path).unlink()
    made = _load(path, ivf=ivf)
    _same_answers(restored, made)


def test_an_index_saved_without_a_copy_loads_and_open_writes_its_copy(tmp_path: Path) -> None:
    path = tmp_path / "index.faiss"
    index = _saved(path, ivf=True)
    copy_path_for(path).unlink()  # as an index saved before copies were

    opened, problem = FaissIndex.open(path, DIM, "test-model", approximate_above=IVF_ABOVE)
    assert problem is None and not opened.copy_restored
    assert copy_path_for(path).is_file()
    again = _load(path, ivf=True)
    assert again.copy_restored
    _same_answers(again, index)


def test_a_copy_of_another_index_state_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "index.faiss"
    _saved(path, ivf=False, seed=1)
    stale = copy_path_for(path).read_bytes()
    index = _saved(path, ivf=False, seed=11)  # the same ids and count, other vectors
    copy_path_for(path).write_bytes(stale)

    loaded = _load(path, ivf=False)
    assert not loaded.copy_restored
    _same_answers(loaded, index)


def _rewritten_header(data: bytes, *, signed: bool = True, **changes: object) -> bytes:
    """The file with header fields changed, its digest made again (`signed`) or left as it was."""
    start = len(MAGIC) + 8
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    header = json.loads(data[start : start + length])
    header.update(changes)
    if signed:
        fields = {key: value for key, value in header.items() if key != "sha256"}
        header["sha256"] = _digest(fields, data[start + length :])
    raw = json.dumps(header).encode()
    return MAGIC + len(raw).to_bytes(8, "little") + raw + data[start + length :]


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # torn
        lambda data: data[:-1] + bytes([data[-1] ^ 1]),  # a flipped bit in the codes
        lambda data: b"not a copy" + data[10:],
        lambda data: _rewritten_header(data, format=2),
        lambda data: _rewritten_header(data, count=1),
        lambda data: _rewritten_header(data, scale="big"),
        lambda data: _rewritten_header(data, most_l1=-1.0),
        lambda data: _rewritten_header(data, signed=False, scale=1.5),
        lambda data: b"",
    ],
    ids=[
        "torn",
        "bit-flip",
        "magic",
        "format",
        "count",
        "scale-type",
        "negative-bound",
        "unsigned-scale",
        "empty",
    ],
)
def test_a_damaged_copy_file_is_not_used(tmp_path: Path, damage: object) -> None:
    path = tmp_path / "index.faiss"
    index = _saved(path, ivf=True)
    data = copy_path_for(path).read_bytes()
    assert callable(damage)
    copy_path_for(path).write_bytes(damage(data))

    loaded = _load(path, ivf=True)
    assert not loaded.copy_restored
    _same_answers(loaded, index)


def test_a_flat_copy_beside_an_ivf_index_is_not_used(tmp_path: Path) -> None:
    flat_path, ivf_path = tmp_path / "flat.faiss", tmp_path / "ivf.faiss"
    _saved(flat_path, ivf=False)
    index = _saved(ivf_path, ivf=True)
    ivf_sha = json.loads((tmp_path / "ivf.meta.json").read_text())["sha256"]
    # The flat index's copy, claiming the IVF index's bytes (its digest made to match).
    forged = _rewritten_header(copy_path_for(flat_path).read_bytes(), index_sha256=ivf_sha)
    copy_path_for(ivf_path).write_bytes(forged)

    loaded = _load(ivf_path, ivf=True)
    assert not loaded.copy_restored
    _same_answers(loaded, index)


def test_an_ivf_copy_beside_a_flat_index_is_not_used(tmp_path: Path) -> None:
    flat_path, ivf_path = tmp_path / "flat.faiss", tmp_path / "ivf.faiss"
    index = _saved(flat_path, ivf=False)
    _saved(ivf_path, ivf=True)
    flat_sha = json.loads((tmp_path / "flat.meta.json").read_text())["sha256"]
    forged = _rewritten_header(copy_path_for(ivf_path).read_bytes(), index_sha256=flat_sha)
    copy_path_for(flat_path).write_bytes(forged)

    loaded = _load(flat_path, ivf=False)
    assert not loaded.copy_restored
    _same_answers(loaded, index)
