"""`sqrl doctor` with a Squirrel home it cannot write: one clear line saying what to do.

Root ignores permission bits, so two real disks are used: a home below a regular file (it can
never be made: the same OSError a read-only parent gives), and, where user namespaces allow it,
a home that `sqrl init` made on a file system then remounted read-only.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import private_env


def _doctor(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "squirrel_cli", "doctor", *args],
        env=private_env(home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("args", [(), ("--repair",)])
def test_a_home_below_a_file_is_one_line_saying_to_set_sqrl_home(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the home's parent folder should be\n")
    home = blocker / "sqrl"

    done = _doctor(home, *args)

    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    said = done.stdout + done.stderr
    [line] = [x for x in said.splitlines() if str(home) in x]
    assert "SQRL_HOME" in line and "sqrl init" not in line
    assert blocker.read_text().startswith("a file")


def test_a_writable_home_is_not_flagged(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = tmp_path / "project"
    project.mkdir()
    made = subprocess.run(
        [sys.executable, "-m", "squirrel_cli", "init", "--no-git", str(project)],
        env=private_env(home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    done = _doctor(home)
    [line] = [x for x in done.stdout.splitlines() if "home:" in x]
    assert line.startswith("✓") and "SQRL_HOME" not in line


READ_ONLY = """
set -e
mount -t tmpfs none "$ROOT"
mkdir "$ROOT/project"
"$PY" -m squirrel_cli init --no-git "$ROOT/project" > /dev/null
mount -o remount,ro,bind "$ROOT"
set +e
"$PY" -m squirrel_cli doctor
echo "exit=$?"
"""


def _namespaces_work() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-Urm", "true"], capture_output=True, timeout=30, check=False
    )
    return probe.returncode == 0


@pytest.mark.skipif(not _namespaces_work(), reason="no user namespaces to mount a read-only disk")
def test_a_home_on_a_read_only_disk_is_one_line_saying_what_to_do(tmp_path: Path) -> None:
    root = tmp_path / "disk"
    root.mkdir()
    env = private_env(root / "home")
    env.update(ROOT=str(root), PY=sys.executable)
    done = subprocess.run(
        ["unshare", "-Urm", "bash", "-c", READ_ONLY],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "exit=1" in done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    [line] = [x for x in done.stdout.splitlines() if x.startswith("✗ home:")]
    assert "read-only" in line.lower() and "SQRL_HOME" in line
