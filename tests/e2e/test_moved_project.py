"""A registered repository renamed while its store is kept under the home
(`storage.location=home`), through the real `sqrl` and services: nothing is lost, `status` and
`doctor` say in one line where its memories are and what to run, `sqrl init --moved-from`
carries them (refused while the services hold the store open), and a session started in the new
folder before that is read once the folder is registered."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from squirrel_core.home import HomeLayout
from squirrel_core.store_placement import home_store_dir
from tests.conftest import wait_until
from tests.transcripts import FIXTURES, place_claude

pytestmark = pytest.mark.e2e

TURN_1 = FIXTURES / "claude" / "incremental-simple" / "turn-1.jsonl"
FACT = "The billing service answers on port 8081."


@dataclass
class Install:
    env: dict[str, str]
    home: Path
    claude: Path

    def sqrl(self, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "squirrel_cli", *args],
            env=self.env,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=300,
        )


@pytest.fixture
def install(tmp_path: Path) -> Iterator[Install]:
    claude = tmp_path / "claude" / "projects"
    claude.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env.update(
        SQRL_HOME=str(tmp_path / "home"),
        SQRL_STORAGE_LOCATION="home",
        SQRL_INGEST_CLAUDE_ROOTS=str(claude),
        SQRL_INGEST_CODEX_ROOTS=str(tmp_path / "no-codex"),
        SQRL_INGEST_GEMINI_ROOTS=str(tmp_path / "no-gemini"),
        SQRL_INGEST_CURSOR_ROOTS=str(tmp_path / "no-cursor"),
        SQRL_INGEST_BATCH_AGE_SECONDS="0.1",
        SQRL_INGEST_RESCAN_SECONDS="1",
        SQRL_INGEST_GIT_POLL_SECONDS="3600",
        SQRL_PROCESSOR_MIN_EVENTS="100000000",
        SQRL_PROCESSOR_INTERVAL_SECONDS="3600",
    )
    made = Install(env, tmp_path / "home", claude)
    try:
        yield made
    finally:
        made.sqrl("down", cwd=tmp_path)


def _events(db: Path, project: str) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as conn:
        row = conn.execute("SELECT count(*) FROM events WHERE project_id = ?", (project,))
        return int(row.fetchone()[0])


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


def test_a_renamed_project_keeps_its_memories_and_says_what_to_run(
    install: Install, tmp_path: Path
) -> None:
    old = (tmp_path / "shop").resolve()
    old.mkdir()
    subprocess.run(["git", "init", "-q", str(old)], check=True)
    assert install.sqrl("init", "--no-mcp", cwd=old).returncode == 0
    assert install.sqrl("up", "--detach", cwd=old).returncode == 0
    made = install.sqrl("remember", FACT, "--type", "project_fact", "--json", cwd=old)
    assert made.returncode == 0, made.stderr
    old_store = home_store_dir(HomeLayout(install.home), str(old))

    new = tmp_path / "shop-renamed"
    old.rename(new)
    new = new.resolve()
    # A session started in the new folder before anything is done about it.
    place_claude(TURN_1, install.claude, str(new), "moved.jsonl")

    # Refused while the services hold the store open: one line, nothing moved.
    refused = install.sqrl("init", "--no-mcp", "--moved-from", str(old), cwd=new)
    assert refused.returncode != 0
    assert "sqrl down" in _one_line(refused)
    assert (old_store / "data.db").is_file()

    status = install.sqrl("status", cwd=new)
    assert status.returncode == 0, status.stderr
    assert f"`sqrl init --moved-from {old}`" in status.stdout
    assert str(old_store) in status.stdout

    # `sqrl init` in the new folder alone, the services up: a store of its own, the session run
    # there read into it, and a line saying what the old one holds.
    plain = install.sqrl("init", "--no-mcp", cwd=new)
    assert plain.returncode == 0, plain.stderr
    assert f"`sqrl init --moved-from {old}`" in plain.stdout
    new_db = home_store_dir(HomeLayout(install.home), str(new)) / "data.db"
    wait_until(lambda: _events(new_db, str(new)) > 0)
    session_events = _events(new_db, str(new))
    assert install.sqrl("down", cwd=new).returncode == 0

    doctor = install.sqrl("doctor", cwd=new)
    assert doctor.returncode != 0
    assert f"--moved-from {old}" in doctor.stdout

    moved = install.sqrl("init", "--no-mcp", "--moved-from", str(old), cwd=new)
    assert moved.returncode == 0, moved.stderr
    assert f"Moved here from {old}: 1 memories" in moved.stdout
    assert f"{session_events} of them from sessions run here since" in moved.stdout
    assert not old_store.exists()
    registered = json.loads((install.home / "projects.json").read_text())["projects"]
    assert registered == [str(new)]

    assert install.sqrl("up", "--detach", cwd=new).returncode == 0
    listed = install.sqrl("memories", "--json", cwd=new)
    assert listed.returncode == 0, listed.stderr
    assert FACT in [m["content"] for m in json.loads(listed.stdout)["memories"]]
    # The session's events are there once, its cursor carried with them: not read again.
    place_claude(TURN_1, install.claude, str(new), "later.jsonl", "-later")
    wait_until(lambda: _events(new_db, str(new)) > session_events)
    assert _events(new_db, str(new)) == 2 * session_events
    status = install.sqrl("status", cwd=new)
    assert "gone" not in status.stdout


def test_moved_from_a_folder_that_still_exists_is_refused(install: Install, tmp_path: Path) -> None:
    first = (tmp_path / "one").resolve()
    second = (tmp_path / "two").resolve()
    for folder in (first, second):
        folder.mkdir()
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
    assert install.sqrl("init", "--no-mcp", cwd=first).returncode == 0
    done = install.sqrl("init", "--no-mcp", "--moved-from", str(first), cwd=second)
    assert done.returncode != 0
    assert "copy, not a move" in _one_line(done)
    unknown = install.sqrl("init", "--no-mcp", "--moved-from", str(tmp_path / "never"), cwd=second)
    assert unknown.returncode != 0
    assert "not a registered project" in _one_line(unknown)
