"""`sqrl mcp` with a Squirrel home it cannot create or write (a read-only disk, a file where the
folder should be): one line on stderr saying which path and why, exit 1, no traceback; the
host shows that line. Root ignores permission bits, so the home is put below a regular file,
which fails the same way a read-only file system does (an OSError from the real disk)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import private_env
from tests.mcp_host import INITIALIZE


@pytest.mark.parametrize("args", [["mcp"], ["mcp", "--no-autostart"]])
def test_a_home_that_cannot_be_made_is_one_clear_line(tmp_path: Path, args: list[str]) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the home's parent folder should be\n")
    home = blocker / "sqrl"

    done = subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args],
        input=json.dumps(INITIALIZE) + "\n",
        env=private_env(home),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert str(home) in line and line.startswith("sqrl mcp:")
    assert done.stdout == ""
    assert blocker.read_text().startswith("a file")
