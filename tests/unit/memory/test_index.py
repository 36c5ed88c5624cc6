"""FaissIndex: add/update/remove/search, atomic persistence, and detection of unusable files."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import (
    INDEX_FILE_NAME,
    FaissIndex,
    IndexKind,
    IndexProblem,
    IndexUnusableError,
    Vector,
    VectorIndex,
    VectorRefusedError,
    meta_path_for,
)

DIM = 64
TEXTS = {
    "mem_async": "prefers async await for io bound handlers",
    "mem_pytest": "uses pytest with fixtures for test setup",
    "mem_fastapi": "project uses fastapi with async sqlalchemy",
    "mem_docker": "deploy with docker compose on the staging host",
    "mem_jwt": "auth uses jwt tokens via the login endpoint",
}


@pytest.fixture
def embedder() -> FakeEmbedder:
    return FakeEmbedder(dim=DIM)


@pytest.fixture
def index(embedder: FakeEmbedder, tmp_path: Path) -> FaissIndex:
    built = FaissIndex(DIM, embedder.model_id, tmp_path / ".ctx" / "index" / INDEX_FILE_NAME)
    vectors = embedder.embed_now(list(TEXTS.values()))
    built.upsert(zip(TEXTS, vectors, strict=True))
    return built


def query(embedder: FakeEmbedder, text: str) -> Vector:
    vector: Vector = embedder.embed_now([text])[0]
    return vector


def kind_of(index: FaissIndex) -> IndexKind:
    return index.kind


def test_faiss_index_satisfies_the_protocol(index: FaissIndex) -> None:
    typed: VectorIndex = index  # checked statically by mypy
    assert isinstance(typed, VectorIndex)


def test_search_finds_the_memory_whose_text_matches(
    index: FaissIndex, embedder: FakeEmbedder
) -> None:
    hits = index.search(query(embedder, "jwt login endpoint"), k=3)
    assert hits[0][0] == "mem_jwt"
    assert len(hits) == 3
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True)


def test_exact_vector_scores_cosine_one(index: FaissIndex, embedder: FakeEmbedder) -> None:
    hits = index.search(query(embedder, TEXTS["mem_docker"]), k=1)
    assert hits[0][0] == "mem_docker"
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)


def test_k_larger_than_the_index_returns_every_memory(index: FaissIndex) -> None:
    hits = index.search(np.ones(DIM, dtype=np.float32), k=100)
    assert {m for m, _ in hits} == set(TEXTS)


def test_search_of_an_empty_index_returns_nothing(embedder: FakeEmbedder) -> None:
    assert FaissIndex(DIM, embedder.model_id).search(np.ones(DIM), k=5) == []


def test_update_replaces_the_vector_without_duplicating(
    index: FaissIndex, embedder: FakeEmbedder
) -> None:
    index.upsert([("mem_docker", query(embedder, "kubernetes helm charts for deploys"))])
    assert len(index) == len(TEXTS)
    hits = index.search(query(embedder, "kubernetes helm charts for deploys"), k=len(TEXTS))
    assert hits[0][0] == "mem_docker"
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert [m for m, _ in hits].count("mem_docker") == 1


def test_removed_memories_are_never_returned(index: FaissIndex, embedder: FakeEmbedder) -> None:
    assert index.remove(["mem_jwt", "unknown"]) == 1
    assert "mem_jwt" not in index
    hits = index.search(query(embedder, TEXTS["mem_jwt"]), k=10)
    assert "mem_jwt" not in {m for m, _ in hits}
    assert len(hits) == len(TEXTS) - 1


def test_removed_then_readded_memory_is_found_again(
    index: FaissIndex, embedder: FakeEmbedder
) -> None:
    index.remove(["mem_jwt"])
    index.upsert([("mem_jwt", query(embedder, TEXTS["mem_jwt"]))])
    assert index.search(query(embedder, TEXTS["mem_jwt"]), k=1)[0][0] == "mem_jwt"


def test_last_vector_wins_when_one_batch_repeats_an_id(embedder: FakeEmbedder) -> None:
    index = FaissIndex(DIM, embedder.model_id)
    index.upsert([("m", query(embedder, "first")), ("m", query(embedder, "second"))])
    assert len(index) == 1
    assert index.search(query(embedder, "second"), k=1)[0][1] == pytest.approx(1.0, abs=1e-5)


def test_rebuild_replaces_all_content(index: FaissIndex, embedder: FakeEmbedder) -> None:
    assert index.rebuild([("only", query(embedder, "only one left"))]) == 1
    assert index.memory_ids() == {"only"}
    assert index.rebuild([]) == 0
    assert len(index) == 0


def test_saved_and_reloaded_index_gives_equal_results(
    index: FaissIndex, embedder: FakeEmbedder
) -> None:
    index.remove(["mem_async"])
    path = index.save()
    reloaded = FaissIndex.load(path, DIM, embedder.model_id)
    for text in ("pytest fixtures", "docker deploy", "async handlers"):
        assert reloaded.search(query(embedder, text), 4) == index.search(query(embedder, text), 4)
    assert reloaded.memory_ids() == index.memory_ids()
    reloaded.upsert([("mem_new", query(embedder, "brand new memory"))])
    assert reloaded.search(query(embedder, "brand new memory"), 1)[0][0] == "mem_new"


def test_save_writes_the_index_where_the_spec_puts_it_and_leaves_no_temp_files(
    index: FaissIndex, tmp_path: Path
) -> None:
    path = index.save()
    assert path == tmp_path / ".ctx" / "index" / "memories.faiss"
    names = sorted(p.name for p in path.parent.iterdir())
    assert names == ["memories.faiss", "memories.int8", "memories.meta.json"]
    assert path.stat().st_mode & 0o777 == 0o600


def test_missing_file_is_reported_as_missing(tmp_path: Path, embedder: FakeEmbedder) -> None:
    with pytest.raises(IndexUnusableError) as caught:
        FaissIndex.load(tmp_path / INDEX_FILE_NAME, DIM, embedder.model_id)
    assert caught.value.problem is IndexProblem.MISSING
    assert isinstance(caught.value, FailedPreconditionError)


def test_corrupt_index_bytes_are_detected(index: FaissIndex, embedder: FakeEmbedder) -> None:
    path = index.save()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(IndexUnusableError) as caught:
        FaissIndex.load(path, DIM, embedder.model_id)
    assert caught.value.problem is IndexProblem.CORRUPT


def test_truncated_index_is_detected(index: FaissIndex, embedder: FakeEmbedder) -> None:
    path = index.save()
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(IndexUnusableError) as caught:
        FaissIndex.load(path, DIM, embedder.model_id)
    assert caught.value.problem is IndexProblem.CORRUPT


@pytest.mark.parametrize(
    "sidecar",
    [
        "not json{",
        "[]",
        json.dumps({"format": 1}),
        "\xff\xfe",
    ],
)
def test_damaged_sidecar_is_detected(
    index: FaissIndex, embedder: FakeEmbedder, sidecar: str
) -> None:
    path = index.save()
    meta_path_for(path).write_text(sidecar, encoding="latin-1")
    with pytest.raises(IndexUnusableError) as caught:
        FaissIndex.load(path, DIM, embedder.model_id)
    assert caught.value.problem is IndexProblem.CORRUPT


def test_sidecar_id_table_that_disagrees_with_the_index_is_detected(
    index: FaissIndex, embedder: FakeEmbedder
) -> None:
    path = index.save()
    meta = json.loads(meta_path_for(path).read_text())
    meta["ids"] = meta["ids"][:-1]
    meta["count"] = len(meta["ids"])
    meta_path_for(path).write_text(json.dumps(meta))
    with pytest.raises(IndexUnusableError) as caught:
        FaissIndex.load(path, DIM, embedder.model_id)
    assert caught.value.problem is IndexProblem.CORRUPT


def test_dimension_mismatch_is_detected(index: FaissIndex, embedder: FakeEmbedder) -> None:
    path = index.save()
    with pytest.raises(IndexUnusableError) as caught:
        FaissIndex.load(path, DIM * 2, embedder.model_id)
    assert caught.value.problem is IndexProblem.DIM_MISMATCH


def test_model_mismatch_is_detected(index: FaissIndex) -> None:
    path = index.save()
    with pytest.raises(IndexUnusableError) as caught:
        FaissIndex.load(path, DIM, "another-model")
    assert caught.value.problem is IndexProblem.MODEL_MISMATCH


def test_open_returns_an_empty_index_and_the_problem_so_the_caller_rebuilds(
    tmp_path: Path, embedder: FakeEmbedder
) -> None:
    path = tmp_path / INDEX_FILE_NAME
    opened, problem = FaissIndex.open(path, DIM, embedder.model_id)
    assert problem is IndexProblem.MISSING
    assert len(opened) == 0
    opened.rebuild([("m", query(embedder, "rebuilt from sqlite"))])
    opened.save()
    reopened, problem = FaissIndex.open(path, DIM, embedder.model_id)
    assert problem is None
    assert reopened.memory_ids() == {"m"}


@pytest.mark.parametrize(
    "vector",
    [
        np.ones(DIM + 1),
        np.full(DIM, np.nan),
        np.array([1.0] * (DIM - 1) + [-np.inf]),
        np.array(["a"] * DIM),
        np.ones((2, DIM)),
    ],
)
def test_malformed_vectors_are_rejected_and_change_nothing(
    index: FaissIndex, vector: np.ndarray
) -> None:
    """Vectors come from the service's own embedder: one refused is the service's fault, not a
    caller's argument (FAILED_PRECONDITION, so `sqrl` exits 1, not 2)."""
    before = index.memory_ids()
    with pytest.raises(VectorRefusedError) as refused:
        index.upsert([("mem_bad", vector)])
    assert not isinstance(refused.value, InvalidArgumentError)
    assert isinstance(refused.value, FailedPreconditionError)
    assert index.memory_ids() == before


def test_empty_memory_id_is_rejected(index: FaissIndex) -> None:
    with pytest.raises(InvalidArgumentError):
        index.upsert([("", np.ones(DIM))])


def test_non_positive_k_is_rejected(index: FaissIndex) -> None:
    with pytest.raises(InvalidArgumentError):
        index.search(np.ones(DIM), k=0)


def test_save_without_a_path_is_rejected(embedder: FakeEmbedder) -> None:
    with pytest.raises(InvalidArgumentError):
        FaissIndex(DIM, embedder.model_id).save()


def test_unnormalised_vectors_are_stored_as_unit_vectors(embedder: FakeEmbedder) -> None:
    index = FaissIndex(DIM, embedder.model_id)
    index.upsert([("m", 5 * np.ones(DIM))])
    assert np.linalg.norm(index.vector("m")) == pytest.approx(1.0, abs=1e-5)


def test_index_switches_to_ivf_above_the_threshold_and_keeps_working(
    embedder: FakeEmbedder, tmp_path: Path
) -> None:
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((400, DIM)).astype(np.float32)
    index = FaissIndex(DIM, embedder.model_id, tmp_path / INDEX_FILE_NAME, approximate_above=300)
    index.upsert((f"m{i}", v) for i, v in enumerate(vectors[:300]))
    assert kind_of(index) is IndexKind.FLAT
    index.upsert((f"m{i}", v) for i, v in enumerate(vectors[300:], start=300))
    assert kind_of(index) is IndexKind.IVF
    assert index.search(vectors[350], k=1)[0][0] == "m350"
    index.remove(["m350"])
    assert "m350" not in {m for m, _ in index.search(vectors[350], k=10)}
    index.upsert([("m10", vectors[399])])
    assert len(index) == 399
    path = index.save()
    reloaded = FaissIndex.load(path, DIM, embedder.model_id, approximate_above=300)
    assert reloaded.kind is IndexKind.IVF
    assert reloaded.search(vectors[5], k=3) == index.search(vectors[5], k=3)


def test_rebuild_below_the_threshold_returns_to_exact_search(embedder: FakeEmbedder) -> None:
    rng = np.random.default_rng(4)
    vectors = rng.standard_normal((50, DIM)).astype(np.float32)
    index = FaissIndex(DIM, embedder.model_id, approximate_above=20)
    index.rebuild((f"m{i}", v) for i, v in enumerate(vectors))
    assert kind_of(index) is IndexKind.IVF
    index.rebuild((f"m{i}", v) for i, v in enumerate(vectors[:10]))
    assert kind_of(index) is IndexKind.FLAT


def test_concurrent_upserts_and_searches_stay_consistent(embedder: FakeEmbedder) -> None:
    index = FaissIndex(DIM, embedder.model_id)
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((400, DIM)).astype(np.float32)
    errors: list[BaseException] = []

    def write(offset: int) -> None:
        try:
            for i in range(offset, 400, 4):
                index.upsert([(f"m{i}", vectors[i])])
        except BaseException as exc:  # collected for the assertion below
            errors.append(exc)

    def read() -> None:
        try:
            for i in range(200):
                for memory_id, _ in index.search(vectors[i], k=5):
                    assert memory_id.startswith("m")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(o,)) for o in range(4)]
    threads.append(threading.Thread(target=read))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert len(index) == 400


def test_index_file_and_sidecar_from_different_saves_are_detected(
    index: FaissIndex, embedder: FakeEmbedder
) -> None:
    path = index.save()
    older = path.read_bytes()
    index.upsert([("mem_late", query(embedder, "written after the first save"))])
    index.save()
    path.write_bytes(older)  # as if a crash fell between the two renames
    opened, problem = FaissIndex.open(path, DIM, embedder.model_id)
    assert problem is IndexProblem.CORRUPT
    assert len(opened) == 0


def test_the_sidecar_records_size_and_checksum_and_an_oversized_file_is_not_read(
    index: FaissIndex, embedder: FakeEmbedder
) -> None:
    path = index.save()
    meta = json.loads(meta_path_for(path).read_text())
    assert meta["size"] == path.stat().st_size and len(meta["sha256"]) == 64
    with path.open("ab") as handle:
        handle.write(b"\x00" * 10)
    with pytest.raises(IndexUnusableError) as caught:
        FaissIndex.load(path, DIM, embedder.model_id)
    assert "size" in str(caught.value)


def test_a_sidecar_of_the_previous_format_is_still_read(
    index: FaissIndex, embedder: FakeEmbedder
) -> None:
    path = index.save()
    meta = json.loads(meta_path_for(path).read_text())
    meta["format"] = 1
    del meta["size"]
    meta_path_for(path).write_text(json.dumps(meta))
    assert FaissIndex.load(path, DIM, embedder.model_id).memory_ids() == set(TEXTS)


@pytest.mark.parametrize("approximate_above", [50_000, 20])
def test_similarities_are_the_cosines_of_the_given_memories(approximate_above: int) -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(40, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = FaissIndex(8, "m", approximate_above=approximate_above)
    index.upsert((f"m{n}", v) for n, v in enumerate(vectors))
    index.remove(["m2"])
    assert kind_of(index) is (IndexKind.IVF if approximate_above == 20 else IndexKind.FLAT)
    query = vectors[0]
    got = index.similarities(query, ["m3", "m1", "unknown", "m2", "m3", "m39"])
    assert set(got) == {"m1", "m3", "m39"}
    for name in got:
        assert got[name] == pytest.approx(float(vectors[int(name[1:])] @ query), abs=1e-5)
    assert index.similarities(query, []) == {}
