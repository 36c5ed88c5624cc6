"""`sqrl init` from a subprocess: idempotent set-up, clear one-line failures."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

Sqrl = Callable[..., subprocess.CompletedProcess[str]]

SPEC_TABLES = {"events", "episodes", "memory_items", "view_meta"}


def test_init_creates_home_and_ctx_and_is_idempotent(
    sqrl: Sqrl, repo: Path, sqrl_home: Path
) -> None:
    (repo / "src").mkdir()
    first = sqrl("init", cwd=repo / "src")
    assert first.returncode == 0, first.stderr
    second = sqrl("init", cwd=repo)
    assert second.returncode == 0, second.stderr
    assert "Already registered" in second.stdout
    with sqlite3.connect(repo / ".ctx" / "data.db") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables >= SPEC_TABLES
    assert (repo / ".ctx").stat().st_mode & 0o777 == 0o700
    assert (repo / ".ctx" / "data.db").stat().st_mode & 0o777 == 0o600
    for name in ("token", "projects.json", "config.toml", "user.db"):
        assert (sqrl_home / name).stat().st_mode & 0o777 == 0o600, name
    assert sqrl_home.stat().st_mode & 0o777 == 0o700
    assert f'"{repo}"' in (sqrl_home / "projects.json").read_text()


def git_status(repo: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.mark.parametrize(
    "steps",
    [
        [["init", "--no-mcp"], ["hooks", "install", "--hosts", "claude"]],
        [["init", "--no-mcp", "--hooks", "claude"]],
    ],
    ids=["init-then-hooks-install", "init-hooks"],
)
def test_init_and_hooks_leave_git_status_clean(
    sqrl: Sqrl, repo: Path, steps: list[list[str]]
) -> None:
    for step in steps:
        done = sqrl(*step, cwd=repo)
        assert done.returncode == 0, done.stderr
    assert (repo / ".claude" / "settings.local.json").is_file()
    assert git_status(repo) == ""


def test_init_outside_a_repository_fails_with_one_line(sqrl: Sqrl, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    result = sqrl("init", cwd=plain)
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("sqrl: error:")
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_init_in_an_unwritable_repository_fails_with_one_line(sqrl: Sqrl, repo: Path) -> None:
    repo.chmod(0o555)
    try:
        result = sqrl("init", cwd=repo)
    finally:
        repo.chmod(0o755)
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_init_sets_aside_a_ctx_file_it_did_not_make(sqrl: Sqrl, repo: Path) -> None:
    (repo / ".ctx").write_text("a file where the folder should be")
    result = sqrl("init", "--no-mcp", cwd=repo)
    assert result.returncode == 0, result.stderr
    [aside] = repo.glob(".ctx.foreign-*")
    assert aside.read_text() == "a file where the folder should be"
    assert (repo / ".ctx" / "data.db").is_file()
    assert sum("not made by this Squirrel home" in line for line in result.stdout.splitlines()) == 1


def test_init_of_a_missing_path_fails_with_one_line(sqrl: Sqrl, tmp_path: Path) -> None:
    result = sqrl("init", str(tmp_path / "nope"))
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1


def test_config_set_get_and_unknown_key(sqrl: Sqrl, sqrl_home: Path) -> None:
    assert sqrl("config", "set", "processor.min_events", "5").returncode == 0
    assert sqrl("config", "get", "processor.min_events").stdout.strip() == "5"
    bad = sqrl("config", "set", "processor.min_events", "lots")
    assert bad.returncode != 0 and bad.stderr.count("\n") == 1
    unknown = sqrl("config", "get", "no.such")
    assert unknown.returncode != 0 and unknown.stderr.count("\n") == 1
    key = sqrl("config", "set", "anthropic.api_key", "sk-ant-api03-made-up-key-for-tests-000000")
    assert key.returncode == 0 and "made-up-key" not in key.stdout
    assert (sqrl_home / "config.toml").stat().st_mode & 0o777 == 0o600
