"""An IVF index above `compact_above` vectors searches 4-bit codes of its own lists first, then
its best candidates exactly: its hits carry their exact scores, it finds at least as much of the
exact top 50 (the pool a search asks for) as the IVF index's own scan, removed vectors never come back, and the codes follow
the index through writes and loads (saved beside it, read back without training, trained again
with one warning when their file does not belong)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt
import pytest
import structlog

from squirrel_core.int8_copy_file import copy_path_for
from squirrel_memory.index import FaissIndex, IndexKind
from squirrel_memory.index.codes_file import LENGTH_BYTES, MAGIC, _digest, codes_path_for
from squirrel_memory.index.first_pass import IVF_COMPACT_LEAST
from squirrel_memory.index.ivf_fast_scan import IvfFastScanCopy, fast_scan_probes, list_ids

DIM = 32
COUNT = 3_000
IVF_ABOVE = 2_000
ABOVE = 1_000

Vectors = npt.NDArray[np.float32]


def _clustered(count: int, seed: int) -> Vectors:
    """Unit vectors around a couple of dozen centres, as embedded memories cluster."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((24, DIM)).astype(np.float32)
    mixed = centres[rng.integers(0, len(centres), count)] + 0.6 * rng.standard_normal((count, DIM))
    out: Vectors = (mixed / np.linalg.norm(mixed, axis=1, keepdims=True)).astype(np.float32)
    return out


def _index(vectors: Vectors, path: Path | None = None) -> FaissIndex:
    index = FaissIndex(DIM, "test-model", path, approximate_above=IVF_ABOVE, compact_above=ABOVE)
    index.rebuild((f"mem_{n}", v) for n, v in enumerate(vectors))
    assert index.kind is IndexKind.IVF
    return index


def _load(path: Path) -> FaissIndex:
    return FaissIndex.load(
        path, DIM, "test-model", approximate_above=IVF_ABOVE, compact_above=ABOVE
    )


def _queries() -> Vectors:
    return _clustered(40, seed=99)


def _answers(index: FaissIndex) -> list[list[tuple[str, float]]]:
    return [index.search(q, k) for q in _queries() for k in (1, 10, 50)]


@pytest.fixture
def trainings(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts every IVF codes copy made by training (one entry per copy, its vector count)."""
    counted: list[int] = []

    real = IvfFastScanCopy.__init__

    def counting(
        self: IvfFastScanCopy, ivf: Any, vectors: Vectors, int_ids: npt.NDArray[np.int64]
    ) -> None:
        counted.append(len(vectors))
        real(self, ivf, vectors, int_ids)

    monkeypatch.setattr(IvfFastScanCopy, "__init__", counting)
    yield counted


def test_hits_carry_exact_scores_and_no_less_of_a_pool_of_50_than_the_ivf_scan() -> None:
    vectors = _clustered(COUNT, 1)
    index = _index(vectors)
    codes = index._compact
    assert isinstance(codes, IvfFastScanCopy) and index._coarse is None and len(codes) == COUNT
    own_search: Any = index._index
    for k in (10, 50):
        found = own = 0
        for query in _queries():
            hits = index.search(query, k)
            assert len(hits) == k
            assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
            for name, score in hits:
                assert score == pytest.approx(float(vectors[int(name[4:])] @ query), abs=1e-5)
            exact = set(np.argsort(-(vectors @ query))[:k].tolist())
            found += len(exact & {int(name[4:]) for name, _ in hits})
            _, ivf_ids = own_search.search(query.reshape(1, DIM), k)
            own += len(exact & set(ivf_ids[0].tolist()))
        assert found >= 0.9 * k * len(_queries())
        if k == 50:  # the pool a search asks for (at k = 10 here: 376 against 381 of 400)
            assert found >= own


def test_the_codes_probe_more_lists_than_the_ivf_index() -> None:
    index = _index(_clustered(COUNT, 1))
    ivf: Any = index._index
    assert fast_scan_probes(ivf.nlist) > ivf.nprobe
    codes = index._compact
    assert isinstance(codes, IvfFastScanCopy)
    _, lists = codes.probes(_queries()[:1])
    _, own = ivf.quantizer.search(_queries()[:1], ivf.nprobe)
    assert lists[0][: ivf.nprobe].tolist() == own[0].tolist()


def test_the_codes_hold_each_vector_in_its_ivf_list() -> None:
    index = _index(_clustered(COUNT, 1))
    ivf: Any = index._index
    codes = index._compact
    assert isinstance(codes, IvfFastScanCopy)
    for list_no in range(ivf.nlist):
        held = faiss.rev_swig_ptr(ivf.invlists.get_ids(list_no), ivf.invlists.list_size(list_no))
        coded = codes.faiss_index.invlists
        size = coded.list_size(list_no)
        mine = faiss.rev_swig_ptr(coded.get_ids(list_no), size) if size else np.zeros(0)
        assert sorted(held.tolist()) == sorted(mine.tolist())


def test_upserts_replacements_and_removals_follow_the_codes() -> None:
    vectors = _clustered(COUNT, 1)
    index = _index(vectors)
    index.remove(f"mem_{n}" for n in range(50))
    fresh = _clustered(5, seed=21)
    index.upsert([("mem_60", fresh[0]), ("new_0", fresh[1])])
    codes = index._compact
    assert isinstance(codes, IvfFastScanCopy) and len(codes) == len(index) == COUNT - 49
    for n in range(50):
        hits = index.search(vectors[n], 50)
        assert all(int(name[4:]) >= 50 for name, _ in hits if name.startswith("mem_"))
    assert index.search(fresh[0], 1)[0][0] == "mem_60"
    assert index.search(fresh[1], 1)[0][0] == "new_0"
    assert index.search(vectors[70], 1)[0][0] == "mem_70"
    assert sorted(list_ids(codes.faiss_index).tolist()) == sorted(index._names)


def test_a_reload_reads_the_saved_codes_without_training(
    tmp_path: Path, trainings: list[int]
) -> None:
    path = tmp_path / "memories.faiss"
    index = _index(_clustered(COUNT, 1), path)
    index.save()
    assert trainings == [COUNT]
    assert codes_path_for(path).is_file() and not copy_path_for(path).exists()
    loaded = _load(path)
    assert trainings == [COUNT] and loaded.codes_restored
    assert isinstance(loaded._compact, IvfFastScanCopy) and loaded._coarse is None
    assert _answers(loaded) == _answers(index)
    loaded.remove(["mem_3"])
    loaded.upsert([("mem_4", _clustered(1, seed=5)[0])])
    loaded.save()
    again = _load(path)
    assert again.codes_restored and trainings == [COUNT]
    assert _answers(again) == _answers(loaded)


def _rewritten(data: bytes, payload: bytes, **changes: Any) -> bytes:
    """`data` with its payload replaced and header fields changed, the checksum made to match:
    a file anyone could write, every byte consistent with itself."""
    start = len(MAGIC) + LENGTH_BYTES
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    header = json.loads(data[start : start + length])
    fields = {k: v for k, v in {**header, **changes}.items() if k != "sha256"}
    fields["size"] = len(payload)
    raw = json.dumps({**fields, "sha256": _digest(fields, payload)}).encode("utf-8")
    return MAGIC + len(raw).to_bytes(LENGTH_BYTES, "little") + raw + payload


def _header(data: bytes) -> dict[str, Any]:
    start = len(MAGIC) + LENGTH_BYTES
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    header: dict[str, Any] = json.loads(data[start : start + length])
    return header


def _payload(data: bytes) -> bytes:
    start = len(MAGIC) + LENGTH_BYTES
    return data[start + int.from_bytes(data[len(MAGIC) : start], "little") :]


def _other_lists(tmp_path: Path, data: bytes) -> bytes:
    """Codes of the same ids in another IVF index's lists (other vectors, other centroids),
    forged to name this index's file."""
    other = _index(_clustered(COUNT, 7), tmp_path / "other" / "memories.faiss")
    other.save()
    theirs = codes_path_for(tmp_path / "other" / "memories.faiss").read_bytes()
    return _rewritten(data, _payload(theirs), index_sha256=_header(data)["index_sha256"])


def _flat_codes(tmp_path: Path, data: bytes) -> bytes:
    """A flat index's codes of the same ids, forged to name this index's file."""
    flat = FaissIndex(DIM, "test-model", tmp_path / "flat" / "m.faiss", compact_above=ABOVE)
    flat.rebuild((f"mem_{n}", v) for n, v in enumerate(_clustered(COUNT, 1)))
    flat.save()
    theirs = codes_path_for(tmp_path / "flat" / "m.faiss").read_bytes()
    return _rewritten(data, _payload(theirs), index_sha256=_header(data)["index_sha256"])


def _truncated(tmp_path: Path, data: bytes) -> bytes:
    return data[: len(data) // 2]


def _flipped(tmp_path: Path, data: bytes) -> bytes:
    return data[:-100] + bytes([data[-100] ^ 0x40]) + data[-99:]


@pytest.mark.parametrize(
    ("spoil", "reason"),
    [
        (_truncated, "damaged"),
        (_flipped, "damaged"),
        (_other_lists, "lists"),
        (_flat_codes, "another kind"),
    ],
    ids=["truncated", "flipped", "other-lists", "flat-codes"],
)
def test_codes_that_do_not_belong_are_trained_again_with_one_warning(
    tmp_path: Path, trainings: list[int], spoil: Any, reason: str
) -> None:
    path = tmp_path / "memories.faiss"
    index = _index(_clustered(COUNT, 1), path)
    index.save()
    codes = codes_path_for(path)
    codes.write_bytes(spoil(tmp_path, codes.read_bytes()))
    made = len(trainings)
    with structlog.testing.capture_logs() as logs:
        opened, problem = FaissIndex.open(
            path, DIM, "test-model", approximate_above=IVF_ABOVE, compact_above=ABOVE
        )
    assert problem is None and not opened.codes_restored
    warnings = [e for e in logs if e["event"] == "vector_index_codes_unusable"]
    assert len(warnings) == 1 and reason in warnings[0]["reason"]
    assert len(trainings) == made + 1
    assert _answers(opened) == _answers(index)
    again = _load(path)  # `open` saved the codes it trained
    assert again.codes_restored and _answers(again) == _answers(index)


def test_an_index_below_the_threshold_keeps_the_int8_copy_of_its_lists() -> None:
    """Must not fire: an IVF index of `compact_above` vectors or fewer has no codes."""
    index = FaissIndex(DIM, "test-model", approximate_above=IVF_ABOVE, compact_above=COUNT)
    index.rebuild((f"mem_{n}", v) for n, v in enumerate(_clustered(COUNT, 1)))
    assert index.kind is IndexKind.IVF and index._compact is None and index._coarse is not None


def test_a_small_top_k_still_scores_a_pool_of_50_s_candidates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A top 10 asked directly scores as many candidates as a search's pool of 50 does."""
    index = _index(_clustered(COUNT, 1))
    asked: list[int] = []
    real = IvfFastScanCopy.candidates

    def counting(self: IvfFastScanCopy, query: Vectors, wide: int, probes: Any) -> Any:
        asked.append(wide)
        return real(self, query, wide, probes)

    monkeypatch.setattr(IvfFastScanCopy, "candidates", counting)
    index.search(_queries()[0], 10)
    index.search(_queries()[0], 50)
    index.search(_queries()[0], 100)
    assert asked == [IVF_COMPACT_LEAST, 4 * 50 + 32, 4 * 100 + 32]
