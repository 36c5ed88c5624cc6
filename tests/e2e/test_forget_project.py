"""`sqrl projects --forget` with the real `sqrl` and services: the services stop serving the
project at once and its memories are kept (registering it again brings them back), and its
store is deleted only with the services stopped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

FACT = "The billing service answers on port 8081."


@dataclass
class Install:
    env: dict[str, str]
    home: Path

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
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env.update(
        SQRL_HOME=str(tmp_path / "home"),
        SQRL_INGEST_CLAUDE_ROOTS=str(tmp_path / "no-claude"),
        SQRL_INGEST_CODEX_ROOTS=str(tmp_path / "no-codex"),
        SQRL_INGEST_GEMINI_ROOTS=str(tmp_path / "no-gemini"),
        SQRL_INGEST_CURSOR_ROOTS=str(tmp_path / "no-cursor"),
        SQRL_INGEST_GIT_POLL_SECONDS="3600",
        SQRL_PROCESSOR_MIN_EVENTS="100000000",
        SQRL_PROCESSOR_INTERVAL_SECONDS="3600",
    )
    made = Install(env, tmp_path / "home")
    try:
        yield made
    finally:
        made.sqrl("down", cwd=tmp_path)


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


def _registered(install: Install) -> list[str]:
    return list(json.loads((install.home / "projects.json").read_text())["projects"])


def test_a_forgotten_project_is_not_served_and_comes_back_with_its_memories(
    install: Install, tmp_path: Path
) -> None:
    shop = (tmp_path / "shop").resolve()
    shop.mkdir()
    subprocess.run(["git", "init", "-q", str(shop)], check=True)
    assert install.sqrl("init", "--no-mcp", cwd=shop).returncode == 0
    assert install.sqrl("up", "--detach", cwd=shop).returncode == 0
    made = install.sqrl("remember", FACT, "--type", "project_fact", "--json", cwd=shop)
    assert made.returncode == 0, made.stderr

    # The store is never deleted while the services run: one line, nothing changed.
    refused = install.sqrl("projects", "--forget", str(shop), "--delete-store", "--yes", cwd=shop)
    assert refused.returncode == 1
    assert "sqrl down" in _one_line(refused)
    assert _registered(install) == [str(shop)]

    forgot = install.sqrl("projects", "--forget", str(shop), cwd=shop)
    assert forgot.returncode == 0, forgot.stderr
    assert f"its memories stay in {shop / '.ctx'}" in forgot.stdout
    assert _registered(install) == []
    unserved = install.sqrl("memories", "--json", cwd=shop)  # the running services, at once
    assert unserved.returncode != 0
    assert "registered" in _one_line(unserved)

    again = install.sqrl("init", "--no-mcp", cwd=shop)
    assert again.returncode == 0, again.stderr
    listed = install.sqrl("memories", "--json", cwd=shop)
    assert listed.returncode == 0, listed.stderr
    assert FACT in [m["content"] for m in json.loads(listed.stdout)["memories"]]

    assert install.sqrl("down", cwd=shop).returncode == 0
    deleted = install.sqrl("projects", "--forget", "shop", "--delete-store", "--yes", cwd=tmp_path)
    assert deleted.returncode == 0, deleted.stderr
    assert f"deleted its store {shop / '.ctx'}" in deleted.stdout
    assert not (shop / ".ctx").exists() and (shop / ".git").is_dir()
    assert _registered(install) == []
