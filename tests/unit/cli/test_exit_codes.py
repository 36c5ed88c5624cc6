"""`sqrl`'s exit codes (docs/cli.md): a bad argument exits 2, whether argparse refuses it or the
command refuses its value; a refusal that is not the argument's fault (a path registered
nowhere, services down) exits 1. Each is one line on stderr, without a traceback."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Sqrl = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def project(sqrl: Sqrl, sqrl_home: Path, tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    done = sqrl("init", "--no-git", str(root))
    assert done.returncode == 0, done.stderr
    return root


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ("remember", "Tests run with make check", "--importance", "2"),
        ("remember", "Tests run with make check", "--importance", "-0.5"),
        ("context", "add a login page", "--budget", "0"),
        ("search", "login", "--budget", "-3"),
        ("memories", "--project", ""),
        ("hooks", "install", "--hosts", "emacs"),
    ],
)
def test_a_value_the_command_refuses_exits_2_like_a_usage_error(
    sqrl: Sqrl, project: Path, sqrl_home: Path, args: tuple[str, ...]
) -> None:
    before = json.loads((sqrl_home / "projects.json").read_text())

    done = sqrl(*args, cwd=project)

    assert done.returncode == 2, done.stderr
    assert _one_line(done).startswith("sqrl")
    assert json.loads((sqrl_home / "projects.json").read_text()) == before


def test_argparse_usage_errors_still_exit_2(sqrl: Sqrl, project: Path) -> None:
    done = sqrl("remember", "x", "--type", "gossip", cwd=project)
    assert done.returncode == 2
    assert "invalid choice" in done.stderr and "Traceback" not in done.stderr


def test_a_path_registered_nowhere_is_not_a_bad_argument(
    sqrl: Sqrl, project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = sqrl("memories", "--project", str(elsewhere))
    assert done.returncode == 1
    assert "sqrl init" in _one_line(done)


def test_a_projects_file_that_does_not_parse_is_not_a_bad_argument(
    sqrl: Sqrl, project: Path, sqrl_home: Path
) -> None:
    """The registry is the home's state, not a value the user gave: exit 1, saying the file."""
    (sqrl_home / "projects.json").write_text("{not json")

    done = sqrl("memories", cwd=project)

    assert done.returncode == 1, done.stderr
    assert "projects.json" in _one_line(done)
