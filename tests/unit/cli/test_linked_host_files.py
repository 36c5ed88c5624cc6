"""A host's settings file that is a link (a repository's `.claude/settings.local.json` or
`.mcp.json` pointing elsewhere, a dotfiles link) is never written through or replaced: one clear
error, the link and the file it points at left as they were. Writing replaced the link with a
copy holding the other file's settings, and the file the user linked stopped being used."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from squirrel_cli import hook_config
from squirrel_cli.hosts import McpCommand, register_claude_code
from squirrel_core.errors import FailedPreconditionError

PROGRAM = "/opt/squirrel/bin/sqrl"
ELSEWHERE = {"permissions": {"allow": ["Bash(make)"]}, "mcpServers": {}}


def _linked(path: Path, tmp_path: Path) -> Path:
    """`path` made a link to a settings file outside the repository; returns that file."""
    outside = tmp_path / "dotfiles" / "settings.json"
    outside.parent.mkdir(parents=True)
    outside.write_text(json.dumps(ELSEWHERE))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(outside)
    return outside


@pytest.mark.parametrize("host", hook_config.HOSTS)
def test_hooks_are_not_written_through_a_linked_settings_file(host: str, tmp_path: Path) -> None:
    target = hook_config.target(host, repo=tmp_path / "repo", home=tmp_path / "home")
    outside = _linked(target.path, tmp_path)

    with pytest.raises(FailedPreconditionError):
        hook_config.install(target, PROGRAM)

    assert target.path.is_symlink() and target.path.resolve() == outside.resolve()
    assert json.loads(outside.read_text()) == ELSEWHERE


def test_the_mcp_server_is_not_written_through_a_linked_mcp_json(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    outside = _linked(repo / ".mcp.json", tmp_path)

    with pytest.raises(FailedPreconditionError):
        register_claude_code(repo, McpCommand(PROGRAM, ["mcp"]))

    assert (repo / ".mcp.json").is_symlink()
    assert json.loads(outside.read_text()) == ELSEWHERE


def test_a_plain_settings_file_still_gets_the_hooks(tmp_path: Path) -> None:
    """Must not fire: a regular file (and a missing one) is written as before."""
    target = hook_config.target("claude", repo=tmp_path / "repo", home=tmp_path / "home")
    assert hook_config.install(target, PROGRAM) == "added"
    assert not target.path.is_symlink()
    assert register_claude_code(tmp_path / "repo", McpCommand(PROGRAM, ["mcp"])) == "added"


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_settings_file_that_is_not_a_regular_file_is_refused_unread(
    tmp_path: Path, kind: str
) -> None:
    """A FIFO in its place blocked `sqrl init --mcp` and `sqrl hooks install` forever on the
    read (nothing writes to it); a directory was an `Is a directory` error. Both are one clear
    refusal, the path left as it was."""
    repo = tmp_path / "repo"
    target = hook_config.target("claude", repo=repo, home=tmp_path / "home")
    for path in (repo / ".mcp.json", target.path):
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "fifo":
            os.mkfifo(path)
        else:
            path.mkdir()

    with pytest.raises(FailedPreconditionError, match="not a regular file"):
        register_claude_code(repo, McpCommand(PROGRAM, ["mcp"]))
    with pytest.raises(FailedPreconditionError, match="not a regular file"):
        hook_config.install(target, PROGRAM)

    assert (repo / ".mcp.json").exists() and not (repo / ".mcp.json").is_file()
