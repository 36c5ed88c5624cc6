"""`sqrl status` on a registered project whose folder was deleted: it says the folder is gone and
what to do, never "run `sqrl init` there" (there is no there)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

Sqrl = Callable[..., subprocess.CompletedProcess[str]]


def test_a_deleted_project_folder_is_said_to_be_gone(sqrl: Sqrl, tmp_path: Path) -> None:
    kept, gone = tmp_path / "kept", tmp_path / "gone"
    for root in (kept, gone):
        root.mkdir()
        done = sqrl("init", "--no-git", str(root))
        assert done.returncode == 0, done.stderr
    shutil.rmtree(gone)

    done = sqrl("status", "--json", cwd=kept)
    rows = {row["project"]: row for row in json.loads(done.stdout)["projects"]}

    assert rows[str(gone.resolve())]["initialised"] is False
    assert "gone" in rows[str(gone.resolve())]["notice"]
    assert rows[str(kept.resolve())]["initialised"] is True
    table = sqrl("status", cwd=kept).stdout
    [line] = [x for x in table.splitlines() if x.startswith(str(gone.resolve()))]
    assert "sqrl init" not in line and "gone" in line
