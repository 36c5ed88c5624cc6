"""What the real-host tests share: git and `sqrl` in a test's environment, the stored events."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def sqrl(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def stored_events(repo: Path) -> list[tuple[str, str, dict[str, Any]]]:
    with sqlite3.connect(repo / ".ctx" / "data.db") as conn:
        rows = conn.execute(
            "SELECT event_type, origin, content_json FROM events"
            " WHERE session_id IS NOT NULL ORDER BY timestamp, rowid"
        ).fetchall()
    return [(str(kind), str(origin), json.loads(content)) for kind, origin, content in rows]
