"""`sqrl` commands given no project, a path registered nowhere or a folder name with a control
character: one clear line, nothing registered or stored; exit 2 for a path that cannot name a
project (a bad argument), 1 for one registered nowhere."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Sqrl = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def home_ready(sqrl: Sqrl, sqrl_home: Path, tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    done = sqrl("init", "--no-git", str(project))
    assert done.returncode == 0, done.stderr
    return sqrl_home


def _one_error_line(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert done.returncode == code
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    return lines[0]


def _registered(home: Path) -> list[str]:
    return list(json.loads((home / "projects.json").read_text())["projects"])


@pytest.mark.parametrize(
    "command",
    [
        ("memories",),
        ("remember", "Tests run with make check"),
        ("forget", "mem_1"),
        ("history", "mem_1"),
    ],
)
@pytest.mark.parametrize("project", ["", " "])
def test_an_empty_project_is_refused_not_taken_as_the_current_folder(
    sqrl: Sqrl, home_ready: Path, tmp_path: Path, command: tuple[str, ...], project: str
) -> None:
    done = sqrl(*command, "--project", project, cwd=tmp_path / "project")
    assert "project path is required" in _one_error_line(done)


@pytest.mark.parametrize("command", [("memories",), ("forget", "mem_1")])
def test_a_path_registered_nowhere_is_refused_with_how_to_register_it(
    sqrl: Sqrl, home_ready: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = sqrl(*command, "--project", str(elsewhere))
    assert "sqrl init" in _one_error_line(done, code=1)


@pytest.mark.parametrize("name", ["two\nlines", "bell\x07"])
def test_a_folder_with_a_control_character_is_not_registered(
    sqrl: Sqrl, home_ready: Path, tmp_path: Path, name: str
) -> None:
    folder = tmp_path / name
    folder.mkdir()
    before = _registered(home_ready)

    _one_error_line(sqrl("init", "--no-git", str(folder)))
    _one_error_line(sqrl("memories", "--project", str(folder)))

    assert _registered(home_ready) == before
    assert not (folder / ".ctx").exists()
