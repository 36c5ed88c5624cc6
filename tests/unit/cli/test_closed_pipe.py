"""`sqrl … | head -1`: a reader that stops early is no error; nothing is said on stderr."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import private_env


@pytest.mark.parametrize("command", ["status", "doctor"])
def test_a_reader_that_closes_the_pipe_early_gets_no_error_line(
    tmp_path: Path, command: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    env = private_env(tmp_path / "home")
    made = subprocess.run(
        [sys.executable, "-m", "squirrel_cli", "init", "--no-git", str(project)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    done = subprocess.Popen(
        [sys.executable, "-m", "squirrel_cli", command],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert done.stdout is not None and done.stderr is not None
    done.stdout.close()  # the reader is gone before anything is written
    said = done.stderr.read()
    done.wait(timeout=120)
    assert said == "", said
