"""`sqrl team join` again with a new token, against a real TLS team server on 127.0.0.1: the
saved CA is the one tried, and the line says what the services need (nothing, a restart or a
start)."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

import pytest

from squirrel_cli.main import main
from squirrel_core.home import HomeLayout
from squirrel_core.settings import load_settings
from squirrel_core.team_grants import Role
from squirrel_core.team_in_use import record_team_in_use
from squirrel_core.team_tokens import TeamTokens
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.test_team_away import Homes
from tests.integration.test_team_delivery import serving

homes = delivery_tests.homes


def _join(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], token: str, *args: str
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(token + "\n"))
    code = main(["team", "join", *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


async def test_a_new_token_joined_without_the_ca_is_checked_with_the_saved_one(
    tmp_path: Path,
    homes: Homes,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in [k for k in os.environ if k.startswith("SQRL_")]:
        monkeypatch.delenv(name)
    server_settings, _, link = homes()
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    _, second = tokens.issue("alice", ["github.com/acme/*"], Role.WRITE)
    home = tmp_path / "laptop-joined"
    monkeypatch.setenv("SQRL_HOME", str(home))
    async with serving(server_settings) as server:
        target = f"localhost:{server.service.team_port}"
        first = await asyncio.to_thread(
            _join, monkeypatch, capsys, link.token, target, "--ca-file", str(link.ca_file)
        )
        assert first[0] == 0, first[1]
        assert "sqrl up -d" in first[1]  # nothing runs yet: start it
        # The services run, sharing with this server: a new token needs no restart.
        settings = load_settings({"SQRL_HOME": str(home)})
        for service in ("memory", "gateway"):
            record_team_in_use(HomeLayout(home).run, service, settings)
        code, said = await asyncio.to_thread(_join, monkeypatch, capsys, second, target)
        assert code == 0, said  # the saved team.ca_file was tried, not the system's roots
        assert "no restart" in said and "sqrl down" not in said
        assert (home / "team" / "token").read_text().strip() == second
        assert str(link.ca_file) in (home / "config.toml").read_text()
        # Another server than the running services use: they need a restart.
        other = f"127.0.0.1:{server.service.team_port}"
        code, said = await asyncio.to_thread(_join, monkeypatch, capsys, second, other)
        assert code == 0, said
        assert "sqrl down && sqrl up -d" in said
