"""A file nested deeper than its parser can follow (`[[[[…]]]]` a hundred thousand deep: 200 KB,
under every size limit) is refused as a malformed one is, in one line naming it, never a
traceback: a host's settings.json that `sqrl hooks install` would edit, the home's config.toml
and projects.json. Python's JSON and TOML parsers raise RecursionError on it, which is no
ValueError."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from squirrel_cli import hook_client
from tests.conftest import private_env

DEPTH = 100_000


def _deep(path: Path, before: str = "", after: str = "") -> str:
    text = before + "[" * DEPTH + "]" * DEPTH + after
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return text


def _sqrl(
    home: Path, cwd: Path, *args: str, user_home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = private_env(home)
    if user_home is not None:
        env["HOME"] = str(user_home)
    return subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr, done.stderr[
        -500:
    ]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-500:]
    return lines[0]


def test_a_hosts_settings_file_nested_too_deep_is_left_untouched(
    tmp_path: Path, repo: Path
) -> None:
    settings = tmp_path / "user" / ".claude" / "settings.json"
    text = _deep(settings)
    done = _sqrl(
        tmp_path / "home",
        repo,
        "hooks",
        "install",
        "--hosts",
        "claude",
        "--hooks-scope",
        "user",
        user_home=tmp_path / "user",
    )
    assert done.returncode == 1
    assert _one_line(done) == (
        f"sqrl: error: {settings} is not valid JSON; fix it (or move it aside) and run again. "
        "It was left untouched."
    )
    assert settings.read_text() == text


def test_a_config_file_nested_too_deep_is_said_to_be_no_valid_toml(
    tmp_path: Path, repo: Path
) -> None:
    home = tmp_path / "home"
    _deep(home / "config.toml", "x = ")
    done = _sqrl(home, repo, "config", "list")
    assert done.returncode == 1  # as any config.toml that does not parse
    line = _one_line(done)
    assert line.startswith(f"sqrl: error: {home / 'config.toml'} is not valid TOML"), line
    # and `sqrl doctor --repair` sets the line aside, as it does a broken one
    repaired = _sqrl(home, repo, "doctor", "--repair")
    assert "Traceback" not in repaired.stderr, repaired.stderr[-500:]
    assert "[" * 100 not in (home / "config.toml").read_text()
    assert list(home.glob("config.toml.broken-*"))
    assert _sqrl(home, repo, "config", "list").returncode == 0


def test_a_project_list_nested_too_deep_is_said_to_be_no_valid_json(
    tmp_path: Path, repo: Path
) -> None:
    home = tmp_path / "home"
    assert _sqrl(home, repo, "init").returncode == 0
    _deep(home / "projects.json")
    done = _sqrl(home, repo, "memories")
    assert done.returncode == 1
    line = _one_line(done)
    assert line.startswith(f"sqrl: error: {home / 'projects.json'} is not valid JSON"), line


def test_the_hook_reads_a_config_nested_too_deep_as_no_setting(tmp_path: Path) -> None:
    """`sqrl hook` must answer a host whatever the home holds: the setting's default."""
    _deep(tmp_path / "config.toml", "# start_wait_ms\nx = ")
    assert hook_client.start_wait_ms(tmp_path) == hook_client.DEFAULT_START_WAIT_MS


def test_the_hook_reads_a_payload_nested_too_deep_as_none(tmp_path: Path) -> None:
    payload = ('{"cwd": ' + "[" * DEPTH + "]" * DEPTH + "}").encode()
    assert hook_client._kept("claude", "SessionStart", payload, tmp_path) is None


def test_a_repositorys_mcp_json_nested_too_deep_is_left_untouched(
    tmp_path: Path, repo: Path
) -> None:
    """A cloned repository is anyone's: its `.mcp.json` nested too deep made `sqrl init` a
    traceback. Now it registers the project, and `--mcp` says the file is no JSON."""
    mcp_json = repo / ".mcp.json"
    text = _deep(mcp_json)
    home = tmp_path / "home"
    done = _sqrl(home, repo, "init")
    assert done.returncode == 0, done.stderr[-500:]
    assert "Traceback" not in done.stderr and "Registered" in done.stdout
    offered = _sqrl(home, repo, "init", "--mcp")
    assert offered.returncode == 1
    line = _one_line(offered)
    assert line.startswith(f"sqrl: error: {mcp_json} is not valid JSON"), line
    assert mcp_json.read_text() == text
