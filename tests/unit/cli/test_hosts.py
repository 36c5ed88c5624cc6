"""Registering `ctx-memory` in a project's `.mcp.json`: merged, never clobbered, asked politely."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from squirrel_cli.console import Console
from squirrel_cli.hosts import (
    SERVER_NAME,
    McpCommand,
    mcp_command,
    offer_claude_code,
    register_claude_code,
)
from squirrel_core.errors import FailedPreconditionError

COMMAND = McpCommand("/opt/sqrl/bin/sqrl", ["mcp"])


def servers(root: Path) -> dict[str, object]:
    data = json.loads((root / ".mcp.json").read_text())
    assert isinstance(data, dict)
    found = data["mcpServers"]
    assert isinstance(found, dict)
    return found


def test_a_missing_file_is_created_with_the_server(tmp_path: Path) -> None:
    assert register_claude_code(tmp_path, COMMAND) == "added"
    assert servers(tmp_path)[SERVER_NAME] == {
        "type": "stdio",
        "command": "/opt/sqrl/bin/sqrl",
        "args": ["mcp"],
    }
    assert stat.S_IMODE((tmp_path / ".mcp.json").stat().st_mode) == 0o644


def test_other_servers_and_keys_are_kept(tmp_path: Path) -> None:
    other = {"type": "stdio", "command": "npx", "args": ["-y", "some-server"], "env": {"K": "v"}}
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"other": other}, "note": "keep me"})
    )
    assert register_claude_code(tmp_path, COMMAND) == "added"
    data = json.loads((tmp_path / ".mcp.json").read_text())
    assert data["note"] == "keep me"
    assert data["mcpServers"]["other"] == other
    assert SERVER_NAME in data["mcpServers"]


def test_registering_twice_changes_nothing(tmp_path: Path) -> None:
    register_claude_code(tmp_path, COMMAND)
    before = (tmp_path / ".mcp.json").stat().st_mtime_ns
    assert register_claude_code(tmp_path, COMMAND) == "unchanged"
    assert (tmp_path / ".mcp.json").stat().st_mtime_ns == before


def test_a_moved_interpreter_updates_the_entry_and_keeps_the_file_mode(tmp_path: Path) -> None:
    register_claude_code(tmp_path, COMMAND)
    (tmp_path / ".mcp.json").chmod(0o600)
    moved = McpCommand("/new/bin/sqrl", ["mcp"], {"SQRL_HOME": "/data/sqrl"})
    assert register_claude_code(tmp_path, moved) == "updated"
    entry = servers(tmp_path)[SERVER_NAME]
    assert entry == {
        "type": "stdio",
        "command": "/new/bin/sqrl",
        "args": ["mcp"],
        "env": {"SQRL_HOME": "/data/sqrl"},
    }
    assert stat.S_IMODE((tmp_path / ".mcp.json").stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "content",
    ["{not json", "[1, 2]", '"text"', '{"mcpServers": []}', '{"mcpServers": "x"}'],
)
def test_a_file_it_cannot_merge_into_is_refused_and_left_untouched(
    tmp_path: Path, content: str
) -> None:
    (tmp_path / ".mcp.json").write_text(content)
    with pytest.raises(FailedPreconditionError):
        register_claude_code(tmp_path, COMMAND)
    assert (tmp_path / ".mcp.json").read_text() == content
    assert [p.name for p in tmp_path.iterdir()] == [".mcp.json"], "no temporary files left"


def test_an_empty_file_is_treated_as_no_servers(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text("  \n")
    assert register_claude_code(tmp_path, COMMAND) == "added"


def test_a_huge_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text('{"pad": "' + "x" * (1024 * 1024 + 10) + '"}')
    with pytest.raises(FailedPreconditionError):
        register_claude_code(tmp_path, COMMAND)


def test_the_command_is_the_sqrl_beside_the_interpreter(tmp_path: Path) -> None:
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    python.write_text("")
    sqrl = python.parent / "sqrl"
    sqrl.write_text("#!/bin/sh\n")
    sqrl.chmod(0o755)
    command = mcp_command(Path("~/.sqrl").expanduser(), interpreter=python, absolute=True)
    assert command == McpCommand(str(sqrl), ["mcp"])


def test_by_default_the_command_is_sqrl_on_path_so_it_works_on_every_machine(
    tmp_path: Path,
) -> None:
    command = mcp_command(Path("~/.sqrl").expanduser(), interpreter=tmp_path / "bin" / "python")
    assert command == McpCommand("sqrl", ["mcp"])
    assert command.claude_entry() == {"type": "stdio", "command": "sqrl", "args": ["mcp"]}


def test_without_a_sqrl_script_the_command_runs_the_module(tmp_path: Path) -> None:
    python = tmp_path / "bin" / "python"
    command = mcp_command(tmp_path / "home", interpreter=python, absolute=True)
    assert command.command == str(python)
    assert command.args == ["-m", "squirrel_cli", "mcp"]
    assert command.env == {"SQRL_HOME": str(tmp_path / "home")}


def test_the_default_home_is_not_written_into_the_entry(tmp_path: Path) -> None:
    command = mcp_command(Path("~/.sqrl").expanduser(), interpreter=tmp_path / "python")
    assert command.env == {}


# --- the offer made by `sqrl init` -------------------------------------------------------------


def never_asked(question: str) -> bool:
    raise AssertionError(f"asked {question!r}")


@pytest.mark.parametrize(
    ("choice", "assume_yes", "interactive"),
    [(False, True, True), (False, False, True), (None, False, False)],
)
def test_no_mcp_or_no_terminal_leaves_the_project_alone(
    tmp_path: Path, choice: bool | None, assume_yes: bool, interactive: bool
) -> None:
    outcome = offer_claude_code(
        tmp_path,
        tmp_path / "home",
        Console(),
        choice=choice,
        assume_yes=assume_yes,
        interactive=interactive,
        confirm=never_asked,
    )
    assert outcome is None
    assert not (tmp_path / ".mcp.json").exists()


@pytest.mark.parametrize(("choice", "assume_yes"), [(True, False), (None, True), (True, True)])
def test_mcp_or_yes_registers_without_asking(
    tmp_path: Path, choice: bool | None, assume_yes: bool
) -> None:
    outcome = offer_claude_code(
        tmp_path,
        tmp_path / "home",
        Console(),
        choice=choice,
        assume_yes=assume_yes,
        interactive=False,
        confirm=never_asked,
    )
    assert outcome == "added"
    assert SERVER_NAME in servers(tmp_path)


@pytest.mark.parametrize("answer", [True, False])
def test_a_terminal_is_asked_first(tmp_path: Path, answer: bool) -> None:
    questions: list[str] = []

    def confirm(question: str) -> bool:
        questions.append(question)
        return answer

    outcome = offer_claude_code(
        tmp_path,
        tmp_path / "home",
        Console(),
        choice=None,
        assume_yes=False,
        interactive=True,
        confirm=confirm,
    )
    assert len(questions) == 1
    assert (outcome == "added") is answer
    assert (tmp_path / ".mcp.json").exists() is answer


def run_sqrl(env: dict[str, str], cwd: Path, *args: str) -> CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.e2e
def test_sqrl_init_hints_then_merges_the_server_then_stays_quiet(
    sqrl_env: dict[str, str], repo: Path, sqrl_home: Path
) -> None:
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}}))
    hinted = run_sqrl(sqrl_env, repo, "init")
    assert hinted.returncode == 0 and "sqrl init --mcp" in hinted.stdout
    assert set(servers(repo)) == {"other"}
    result = run_sqrl(sqrl_env, repo, "init", "--mcp")
    assert result.returncode == 0, result.stderr
    found = servers(repo)
    assert set(found) == {"other", SERVER_NAME}
    entry = found[SERVER_NAME]
    assert isinstance(entry, dict)
    assert entry["env"] == {"SQRL_HOME": str(sqrl_home)}
    assert entry["command"] == "sqrl" and entry["args"] == ["mcp"]
    quiet = run_sqrl(sqrl_env, repo, "init", "--yes")
    assert quiet.returncode == 0 and SERVER_NAME not in quiet.stdout
    assert servers(repo) == found
    pinned = run_sqrl(sqrl_env, repo, "init", "--mcp", "--mcp-absolute")
    assert pinned.returncode == 0, pinned.stderr
    assert Path(str(servers(repo)[SERVER_NAME]["command"])).is_absolute()  # type: ignore[index]


def test_a_project_that_lists_the_server_is_not_asked_again(tmp_path: Path) -> None:
    register_claude_code(tmp_path, COMMAND)
    outcome = offer_claude_code(
        tmp_path,
        tmp_path / "home",
        Console(),
        choice=None,
        assume_yes=True,
        interactive=True,
        confirm=never_asked,
    )
    assert outcome is None
    assert servers(tmp_path)[SERVER_NAME] == COMMAND.claude_entry()
