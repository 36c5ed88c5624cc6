"""What the real-host tests share: git and `sqrl` in a test's environment, the stored events (and
waiting for a session's last turn to be stored), and when a scripted model calls a memory tool
again while the services start."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PATIENCE_SECONDS

STARTUP_RETRY_SECONDS = 150.0
"""How long a scripted session keeps calling a memory tool whose answer says the services are not
serving yet. They start on the session's first call; on a loaded machine that takes longer than
the 20 s after which `sqrl mcp` stops saying "still starting" (it then says they "did not start
within 20 s"; calling again works once they run)."""

NOT_SERVING_YET = ("still starting", "did not start within")

HOST_RUN_SECONDS = 600.0
"""How long one run of a host CLI (`claude -p`, `codex exec`, `gemini -p`) may take before the
test fails. Only a hung run gets near it: on a loaded machine (load 25 on 2 cores) the Gemini
CLI alone took 15 s to print its version at load 12 and over a minute at load 18, the services
start within the run, and a scripted session may call a memory tool for
`STARTUP_RETRY_SECONDS` while they do."""

HOST_SESSION_TIMEOUT = 2 * HOST_RUN_SECONDS + 3 * PATIENCE_SECONDS + 600
"""The pytest timeout of a real-host module, whose first test's setup runs the whole session:
its two host runs, the wait for storage, the services' start and stop for the seeded memories
and the `sqrl` calls of the setup. Above the sum of those bounds, so that one of them (which
says what it waited for) fails first, never the bare pytest timeout (pyproject's 300 s, which
a session's setup alone came within 70 s of at load 20)."""


class StartupRetries:
    """Whether a scripted model should call the memory tool again: while its answer says the
    services are not serving yet, a second apart, until `STARTUP_RETRY_SECONDS` after the first
    such answer. Bounded by time, not by a count, so the session does not depend on how fast the
    machine starts the services."""

    def __init__(self, seconds: float = STARTUP_RETRY_SECONDS) -> None:
        self.seconds = seconds
        self.deadline: float | None = None
        self.count = 0

    def again(self, answer: str) -> bool:
        if not any(phrase in answer for phrase in NOT_SERVING_YET):
            return False
        now = time.monotonic()
        if self.deadline is None:
            self.deadline = now + self.seconds
        if now >= self.deadline:
            return False
        self.count += 1
        time.sleep(1.0)
        return True


def host_version(binary: Path, env: Mapping[str, str] | None = None) -> str:
    """What a host CLI prints for `--version` (in `env`, default this process's), stripped. The
    Gemini CLI relaunches itself in a second Node process unless told not to, which doubles a
    start of seconds (tens of seconds on a loaded machine); the others ignore the variable."""
    done = subprocess.run(
        [str(binary), "--version"],
        capture_output=True,
        text=True,
        env={**(os.environ if env is None else env), "GEMINI_CLI_NO_RELAUNCH": "true"},
        timeout=HOST_RUN_SECONDS,
        check=False,
    )
    return done.stdout.strip()


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


#: A pitfall only the second prompt of the codex and gemini sessions asks about ("… with
#: coverage"), ranked below the others so the session start, which shows the top pitfalls within
#: its budget, leaves it out: the prompt's task context then has something the session does not
#: have yet (it never repeats what the session start gave).
TASK_ONLY_PITFALL = "Coverage needs the pytest-cov plugin; without it pytest rejects --cov."
_SESSION_START_FILLERS = 12


def remember_beyond_the_session_start(env: dict[str, str], repo: Path) -> None:
    """More pitfalls than a session start shows, the one a later prompt needs ranked last; the
    services are started for it and stopped again, so a session still begins with them down."""
    up = sqrl(env, repo, "up", "--detach")
    assert up.returncode == 0, up.stderr
    try:
        for n in range(_SESSION_START_FILLERS):
            text = (
                f"The generated file src/gen_{n}.py is rewritten by `make gen-{n}`, so an edit "
                f"made to it by hand is lost at the next generation run; edit "
                f"templates/gen_{n}.j2 instead."
            )
            done = sqrl(env, repo, "remember", "--type", "pitfall", "--importance", "0.9", text)
            assert done.returncode == 0, done.stderr
        done = sqrl(
            env, repo, "remember", "--type", "pitfall", "--importance", "0.2", TASK_ONLY_PITFALL
        )
        assert done.returncode == 0, done.stderr
    finally:
        down = sqrl(env, repo, "down")
        assert down.returncode == 0, down.stderr


def wait_for_services(env: dict[str, str], repo: Path, timeout: float = PATIENCE_SECONDS) -> None:
    """Until every service is serving (`sqrl status --json`); fails saying their states at the
    deadline. A host's session-start hook never waits for services that are still starting (it
    answers nothing at once), so a run that is to find them up waits for them first: whatever
    the run before it did, its own checks then test what they say."""
    deadline = time.monotonic() + timeout
    while True:
        done = sqrl(env, repo, "status", "--json")
        states = (
            {row["service"]: row["state"] for row in json.loads(done.stdout)["services"]}
            if done.returncode == 0
            else {}
        )
        if states and all(state == "serving" for state in states.values()):
            return
        if time.monotonic() >= deadline:
            pytest.fail(f"waited {timeout:.0f} s for the services to serve; saw {states or done}")
        time.sleep(1.0)


def stored_events(repo: Path) -> list[tuple[str, str, dict[str, Any]]]:
    with sqlite3.connect(repo / ".ctx" / "data.db") as conn:
        rows = conn.execute(
            "SELECT event_type, origin, content_json FROM events"
            " WHERE session_id IS NOT NULL ORDER BY timestamp, rowid"
        ).fetchall()
    return [(str(kind), str(origin), json.loads(content)) for kind, origin, content in rows]


def wait_for_storage(repo: Path, last_prompt: str, timeout: float = PATIENCE_SECONDS) -> None:
    """Until the session's last prompt and an answer after it are stored (the host's end-of-session
    hook asks for it); fails naming what it waited for and what was stored at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        seen = _storage_state(repo, last_prompt)
        if seen is None:
            return
        if time.monotonic() >= deadline:
            pytest.fail(
                f"waited {timeout:.0f} s for the last prompt ({last_prompt[:40]!r}) and an answer"
                f" after it to be stored in {repo / '.ctx' / 'data.db'}; saw {seen}"
            )
        time.sleep(0.5)


def _storage_state(repo: Path, last_prompt: str) -> str | None:
    """None once the last prompt is stored and the last stored event answers it; else what is
    stored, in a few words."""
    try:
        stored = stored_events(repo)
    except sqlite3.Error as error:  # the memory service has not made the database yet
        return f"no readable store ({error})"
    kinds = [kind for kind, _, _ in stored]
    prompts = [c.get("text") for kind, _, c in stored if kind == "user_message"]
    if last_prompt in prompts and kinds[-1] == "assistant_response":
        return None
    last = kinds[-1] if kinds else "none"
    found = "stored" if last_prompt in prompts else "not stored"
    return (
        f"{len(stored)} events ({len(prompts)} user messages, the last prompt {found});"
        f" the last event is {last}"
    )
