"""`sqrl init` refuses a folder that holds every project of the machine or of the user (the
filesystem's root, the home folder taken with --no-git): its store would take in every
session of every repository below it. A repository of the user's, or a plain folder in the
home, is registered as always."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import private_env


def _init(home: Path, user: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**private_env(home), "HOME": str(user)}
    return subprocess.run(
        [sys.executable, "-m", "squirrel_cli", "init", "--no-mcp", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _registered(home: Path) -> list[str]:
    listed = home / "projects.json"
    return json.loads(listed.read_text())["projects"] if listed.exists() else []


@pytest.mark.parametrize("spelled", ["{user}", "{user}/", "{user}/sub/.."])
def test_the_home_folder_without_git_is_refused_and_nothing_is_made(
    tmp_path: Path, spelled: str
) -> None:
    home, user = tmp_path / "sqrl", tmp_path / "user"
    (user / "sub").mkdir(parents=True)

    done = _init(home, user, "--no-git", spelled.format(user=user))

    assert done.returncode == 2  # a bad argument
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert _registered(home) == []
    assert not (user / ".ctx").exists()


def test_the_filesystem_root_is_refused(tmp_path: Path) -> None:
    home, user = tmp_path / "sqrl", tmp_path / "user"
    user.mkdir()
    existed = Path("/.ctx").exists()

    done = _init(home, user, "--no-git", "/")

    assert done.returncode == 2  # a bad argument and "Traceback" not in done.stderr
    assert _registered(home) == []
    assert Path("/.ctx").exists() == existed


def test_a_folder_in_the_home_and_a_repository_at_the_home_are_registered(
    tmp_path: Path,
) -> None:
    """Must not fire: a plain folder below the home, and a home that is itself a repository
    (the user's own dotfiles, chosen with git), are the user's to register."""
    home, user = tmp_path / "sqrl", tmp_path / "user"
    (user / "notes").mkdir(parents=True)
    assert _init(home, user, "--no-git", str(user / "notes")).returncode == 0
    subprocess.run(["git", "init", "-q", str(user)], check=True)
    assert _init(home, user, str(user)).returncode == 0

    assert _registered(home) == [str((user / "notes").resolve()), str(user.resolve())]
