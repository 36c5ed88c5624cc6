"""`sqrl doctor` on the 4-bit codes saved beside a large vector index, flat or IVF
(`memories.pq4`): checked as the memory service checks them on load; a file that does not
belong is a warning (the service trains the codes again at its next start), never a failure,
and no file adds no line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from squirrel_cli.commands.doctor import diagnose
from squirrel_cli.doctor_checks import Check
from squirrel_cli.main import main
from squirrel_core.codes_file import codes_path_for
from squirrel_core.settings import Settings
from squirrel_core.store_paths import meta_path_for
from squirrel_memory.index import INDEX_FILE_NAME, FaissIndex
from tests.doctor_home import installed, remembered_facts

DIM = 8
ABOVE = 16
MEMORIES = 40


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Settings, Path]:
    """A home with a token, user.db and one registered project."""
    return installed(tmp_path, monkeypatch)


def _memories(repo: Path) -> list[str]:
    return remembered_facts(repo, MEMORIES)


def _saved(
    path: Path,
    ids: list[str],
    *,
    seed: int = 3,
    above: int | None = ABOVE,
    ivf_above: int | None = None,
) -> Path:
    """The index of `ids` saved at `path` by the memory service's own code (IVF above
    `ivf_above` vectors when given)."""
    index = (
        FaissIndex(DIM, "test-model", path, compact_above=above)
        if above is not None
        else FaissIndex(DIM, "test-model", path)
    )
    if ivf_above is not None:
        index.approximate_above = ivf_above
    vectors = np.random.default_rng(seed).standard_normal((len(ids), DIM)).astype(np.float32)
    index.upsert(zip(ids, vectors, strict=True))
    return index.save()


def _codes_lines(checks: list[Check]) -> list[Check]:
    return [c for c in checks if c.name.endswith("vector index codes")]


def test_codes_that_belong_to_their_index_pass(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    index = _saved(repo / ".ctx" / "index" / INDEX_FILE_NAME, _memories(repo))
    assert codes_path_for(index).is_file()

    [check] = _codes_lines(diagnose(settings))

    assert check.ok and not check.warn and "belongs to" in check.detail


def test_a_truncated_codes_file_is_a_warning_not_a_failure(
    install: tuple[Settings, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    settings, repo = install
    codes = codes_path_for(_saved(repo / ".ctx" / "index" / INDEX_FILE_NAME, _memories(repo)))
    data = codes.read_bytes()
    codes.write_bytes(data[: len(data) // 2])

    checks = diagnose(settings)
    [check] = _codes_lines(checks)

    assert check.ok and check.warn
    assert "damaged" in check.detail and "next start" in check.detail
    assert [c.name for c in checks if not c.ok] == []
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "! project" in out and "1 warning(s)" in out and "✗" not in out


def test_codes_from_another_index_are_a_warning(
    install: tuple[Settings, Path], tmp_path: Path
) -> None:
    """A foreign file: well-formed codes, checksum and all, saved with another project's index."""
    settings, repo = install
    ids = _memories(repo)
    index = _saved(repo / ".ctx" / "index" / INDEX_FILE_NAME, ids)
    other = _saved(tmp_path / "other" / INDEX_FILE_NAME, ids, seed=9)
    codes_path_for(index).write_bytes(codes_path_for(other).read_bytes())

    [check] = _codes_lines(diagnose(settings))

    assert check.ok and check.warn and "another version of the index" in check.detail


def test_a_file_of_another_kind_is_a_warning(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    codes = codes_path_for(_saved(repo / ".ctx" / "index" / INDEX_FILE_NAME, _memories(repo)))
    codes.write_bytes(b"SQLite format 3\x00" + bytes(64))

    [check] = _codes_lines(diagnose(settings))

    assert check.ok and check.warn and "not a codes file" in check.detail


def test_an_index_at_or_below_the_default_threshold_has_no_codes_file_and_no_line(
    install: tuple[Settings, Path],
) -> None:
    """Must not fire: an index of 4,096 vectors or fewer keeps no codes (default threshold)."""
    settings, repo = install
    index = _saved(repo / ".ctx" / "index" / INDEX_FILE_NAME, _memories(repo), above=None)
    assert not codes_path_for(index).exists()

    checks = diagnose(settings)

    assert _codes_lines(checks) == []
    assert [c.name for c in checks if not c.ok or c.warn] == []


def test_the_codes_of_an_ivf_index_are_checked_too(install: tuple[Settings, Path]) -> None:
    """An IVF index keeps codes of its lists in the same file: one that belongs passes, one
    damaged is a warning."""
    settings, repo = install
    path = _saved(repo / ".ctx" / "index" / INDEX_FILE_NAME, _memories(repo), ivf_above=24)
    assert json.loads(meta_path_for(path).read_text())["kind"] == "ivf"
    codes = codes_path_for(path)
    assert codes.is_file()

    [check] = _codes_lines(diagnose(settings))
    assert check.ok and not check.warn and "belongs to" in check.detail

    data = bytearray(codes.read_bytes())
    data[-3] ^= 0xFF
    codes.write_bytes(bytes(data))
    [check] = _codes_lines(diagnose(settings))
    assert check.ok and check.warn and "damaged" in check.detail
