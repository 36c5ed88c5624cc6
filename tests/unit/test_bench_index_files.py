"""bench/index_files.py: every way runs every round, on the files it names."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bench.index_costs import baseline_index
from bench.index_files import INDEX_NAME, SizeFiles, _files_ways, _timed, format_files
from squirrel_memory.index import FaissIndex
from squirrel_memory.index.fast_scan import FastScanCopy
from squirrel_memory.index.first_pass import COMPACT_ABOVE

DIM = 8
REPO = Path(__file__).resolve().parents[2]


def test_each_way_runs_on_its_files_and_the_codes_are_read_or_trained(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((COMPACT_ABOVE + 200, DIM)).astype(np.float32)
    index = FaissIndex(DIM, "test-model")
    index.rebuild((f"mem_{n}", v) for n, v in enumerate(vectors))
    index.save(tmp_path / "this" / INDEX_NAME)
    ways, sizes = _files_ways(tmp_path, DIM, "test-model", None)
    assert sizes.keys() == {"memories.faiss", "memories.meta.json", "memories.pq4"}
    assert list(ways) == [
        "load",
        "load, codes file aside",
        "save",
        "int8 copy: write",
        "int8 copy: read",
        "codes: write",
        "codes: read",
    ]
    loaded = ways["load"]()
    assert isinstance(loaded, FaissIndex) and loaded.codes_restored
    trained = ways["load, codes file aside"]()
    assert isinstance(trained, FaissIndex) and not trained.codes_restored
    codes = ways["codes: read"]()
    assert isinstance(codes, FastScanCopy) and len(codes) == len(vectors)
    times = _timed(ways, 2)
    assert all(len(t.wall) == len(t.cpu) == 2 for t in times.values())
    table = format_files([SizeFiles(len(vectors), "flat", times, sizes, "1", "2")])
    assert "codes file aside" in table and "memories.pq4" in table


def test_a_baseline_tree_loads_and_saves_its_own_files(tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    vectors = rng.standard_normal((300, DIM)).astype(np.float32)
    index = FaissIndex(DIM, "test-model")
    index.rebuild((f"mem_{n}", v) for n, v in enumerate(vectors))
    index.save(tmp_path / "this" / INDEX_NAME)
    ways, _ = _files_ways(tmp_path, DIM, "test-model", baseline_index(REPO))
    assert "load, baseline" in ways and "save, baseline" in ways
    assert "codes: read" not in ways  # no codes at this size
    assert len(ways["load, baseline"]()) == len(vectors)  # type: ignore[arg-type]
