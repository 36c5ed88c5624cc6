"""Commands that only look change nothing: they are never the change a reported problem's
lesson names, nor a set-up step that fixed a failure. Every ecosystem alike."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.evidence.state_looks import only_looks
from squirrel_memory.extractors.reported import changing_commands

ROOT = "/home/dev/devmap"


@pytest.mark.parametrize(
    "command",
    [
        "git rev-parse --show-toplevel",
        "git -C . status --short",
        "git log --oneline -5",
        "cargo metadata --format-version 1 --no-deps",
        "pkg-config --libs libpq",
        "brew --prefix libpq",
        "kubectl get pods",
        "gh pr list",
        "sha256sum dist/app.tar.gz",
        "node --version",
        # behind a prefix program the project runs every command through
        "shx ps aux",
        "tkproxy lsof -i :8080",
        "qx git status",
        "qx cat .git/index.lock",
    ],
)
def test_a_command_that_only_looks_is_no_change(command: str) -> None:
    assert only_looks(command.split())
    assert changing_commands(command, ROOT) == []


@pytest.mark.parametrize(
    "command",
    [
        "cargo fmt",
        "npm install zod",
        "git config core.hooksPath .githooks",
        "make generate",
        "shx git config core.hooksPath .githooks",
        "wr pkill -f uvicorn",
    ],
)
def test_a_command_that_changes_something_is_still_a_change(command: str) -> None:
    assert not only_looks(command.split())
    assert changing_commands(command, ROOT) == [command]
