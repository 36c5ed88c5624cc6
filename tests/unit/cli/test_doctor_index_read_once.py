"""`sqrl doctor` reads the vector index file once to hold it to its sidecar's digest: the index's
own check, its int8 copy's and its codes' all need that digest, and a large index is hundreds of
megabytes. A file saved again in between (another stat) is read again."""

from __future__ import annotations

import builtins
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_doctor_codes import ABOVE, _memories, _saved, install  # noqa: F401 (a fixture)

from squirrel_cli import doctor_project
from squirrel_cli.commands.doctor import diagnose
from squirrel_core.codes_file import codes_path_for
from squirrel_core.int8_copy_file import copy_path_for
from squirrel_core.settings import Settings
from squirrel_memory.index import INDEX_FILE_NAME


def _count_reads(monkeypatch: pytest.MonkeyPatch, target: Path) -> list[str]:
    """Every opening of `target` for reading, from here on (`open`, `Path.open`/`read_bytes`)."""
    opened: list[str] = []
    real = builtins.open

    def counting(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "r" in mode and isinstance(file, str | Path) and Path(file) == target:
            opened.append(mode)
        return real(file, mode, *args, **kwargs)

    opener: Callable[..., Any] = counting
    monkeypatch.setattr(builtins, "open", opener)
    monkeypatch.setattr(io, "open", opener)
    return opened


@pytest.mark.parametrize(
    ("above", "beside"), [(None, " int8 copy"), (ABOVE, " codes")], ids=["int8-copy", "codes"]
)
def test_the_index_is_read_once_for_its_own_check_and_the_file_beside_it(
    install: tuple[Settings, Path],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    above: int | None,
    beside: str,
) -> None:
    settings, repo = install
    index = _saved(repo / ".ctx" / "index" / INDEX_FILE_NAME, _memories(repo), above=above)
    kept = copy_path_for(index) if above is None else codes_path_for(index)
    assert kept.is_file()
    monkeypatch.setattr(doctor_project, "_DIGESTS", {}, raising=False)
    opened = _count_reads(monkeypatch, index)

    checks = diagnose(settings)

    lines = {c.name.rsplit(" vector index", 1)[-1]: c for c in checks if "vector index" in c.name}
    assert set(lines) == {"", beside}
    assert all(c.ok and not c.warn for c in lines.values()), lines
    assert len(opened) == 1


def test_an_index_saved_again_is_read_again(tmp_path: Path) -> None:
    """Must not hold a stale digest: a file rewritten (new inode, size) is hashed anew."""
    index = tmp_path / INDEX_FILE_NAME
    index.write_bytes(b"first")
    first = doctor_project.index_digest(index)
    replacement = tmp_path / "next"
    replacement.write_bytes(b"second version")
    replacement.replace(index)

    assert doctor_project.index_digest(index) != first
    assert doctor_project.index_digest(index) == doctor_project.index_digest(index)
