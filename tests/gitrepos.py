"""Real git repositories for tests: `git` with a fixed identity, and a repository with a commit."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(repo: Path, *args: str) -> str:
    """Runs git in `repo` (identity fixed, so commits work anywhere) and returns its stdout."""
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def make_repo(path: Path) -> Path:
    """A repository on branch `main` with one commit; returns its resolved root."""
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("hello\n")
    git(path, "add", ".")
    git(path, "commit", "-q", "-m", "first")
    return path.resolve()
