"""`sqrl doctor` on a project whose vector index holds 4-bit codes and so no int8 copy: every
check passes, none names an int8 copy, and the index loads back with its codes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from squirrel_cli.commands.doctor import diagnose
from squirrel_core.int8_copy_file import copy_path_for
from squirrel_memory.index import INDEX_FILE_NAME, FaissIndex
from squirrel_memory.index.codes_file import codes_path_for
from tests.doctor_home import installed, remembered_facts

DIM = 8
ABOVE = 16
MEMORIES = 40


def test_doctor_passes_an_index_with_codes_and_no_int8_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings, repo = installed(tmp_path, monkeypatch)
    path = repo / ".ctx" / "index" / INDEX_FILE_NAME
    index = FaissIndex(DIM, "test-model", path, compact_above=ABOVE)
    copy_path_for(path).parent.mkdir(parents=True, exist_ok=True)
    copy_path_for(path).write_bytes(b"an int8 copy left by an earlier save")
    vectors = np.random.default_rng(3).standard_normal((MEMORIES, DIM)).astype(np.float32)
    index.upsert(zip(remembered_facts(repo, MEMORIES), vectors, strict=True))
    index.save()
    assert codes_path_for(path).is_file() and not copy_path_for(path).exists()

    checks = diagnose(settings)

    assert [c.name for c in checks if not c.ok] == []
    assert not [c for c in checks if c.name.endswith("int8 copy")]
    loaded = FaissIndex.load(path, DIM, "test-model", compact_above=ABOVE)
    assert loaded.codes_restored and loaded._coarse is None
    assert loaded.search(vectors[3], 1)[0][1] == pytest.approx(1.0, abs=1e-5)
