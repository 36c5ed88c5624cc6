"""`sqrl init` of a repository this user cannot write (a checkout on a read-only mount, one of
another user's): with `storage.location = home` the store does not go into the repository, so
it is registered, its store under the home. Before, it was refused all the same, saying the
data is kept in `<repo>/.ctx`. With the default (`repo`) it is refused in one line that says
how to keep the store under the home instead.

Run as root, `sqrl` is run without the capability that lets root write anywhere, so that the
folder's permissions hold for it as for any user."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

Sqrl = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def as_a_user(sqrl_env: dict[str, str]) -> Sqrl:
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("root ignores folder permissions, and setpriv is not here to drop that")
        prefix = [setpriv, "--bounding-set", "-dac_override,-dac_read_search"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*prefix, sys.executable, "-m", "squirrel_cli", *args],
            env=sqrl_env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    return run


@pytest.fixture
def unwritable(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "read-only-checkout"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        yield folder
    finally:
        folder.chmod(0o755)


def test_an_unwritable_repository_is_registered_with_its_store_under_the_home(
    as_a_user: Sqrl, unwritable: Path, sqrl_home: Path
) -> None:
    assert as_a_user("config", "set", "storage.location", "home").returncode == 0

    done = as_a_user("init", "--no-git", "--no-mcp", str(unwritable))

    assert done.returncode == 0, done.stderr
    assert str(sqrl_home / "projects") in done.stdout
    assert not (unwritable / ".ctx").exists()


def test_an_unwritable_repository_is_refused_saying_how_to_keep_its_store_elsewhere(
    as_a_user: Sqrl, unwritable: Path
) -> None:
    done = as_a_user("init", "--no-git", "--no-mcp", str(unwritable))

    assert done.returncode == 1, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"sqrl: error: cannot write to {unwritable}"), line
    assert "`sqrl config set storage.location home`" in line
