"""`sqrl team join` as a user meets it, against a real TLS team server on 127.0.0.1: a token
that may only read says so (before, the join read like any other, and the laptop's sessions
and remembers then stayed local without a word); the join names the user the server takes the
token for, the name teammates see beside what this laptop contributes. A revoked, unknown or
mistyped token and a server that is down each stop the join with one line, and nothing is
saved."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

import pytest

from squirrel_cli.doctor_team import team_checks
from squirrel_cli.main import main
from squirrel_core.home import HomeLayout
from squirrel_core.settings import load_settings
from squirrel_core.team_grants import Role
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


async def test_a_join_names_the_user_and_says_when_the_token_may_only_read(
    tmp_path: Path,
    homes: Homes,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in [k for k in os.environ if k.startswith("SQRL_")]:
        monkeypatch.delenv(name)
    server_settings, _, link = homes()
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    _, reader = tokens.issue("bob", ["github.com/acme/*"], Role.READ)
    gone_record, gone = tokens.issue("carol", ["github.com/acme/*"], Role.WRITE)
    tokens.revoke(gone_record.id)
    home = tmp_path / "laptop-joining"
    monkeypatch.setenv("SQRL_HOME", str(home))
    ca = ("--ca-file", str(link.ca_file))
    async with serving(server_settings) as server:
        target = f"localhost:{server.service.team_port}"
        for refused in (gone, "sqt_unknown_" + "x" * 40):
            code, said = await asyncio.to_thread(_join, monkeypatch, capsys, refused, target, *ca)
            assert code != 0 and "refused this laptop's token" in said, said
            assert len(said.strip().splitlines()) == 1 and refused not in said
            assert "nothing was saved" in said and "--no-check" not in said
        code, said = await asyncio.to_thread(_join, monkeypatch, capsys, "two words", target, *ca)
        assert code != 0 and "malformed" in said
        assert not (home / "team" / "token").exists()

        code, said = await asyncio.to_thread(_join, monkeypatch, capsys, reader, target, *ca)
        assert code == 0, said
        assert "the server accepted the token of bob (read;" in said
        assert "may only read" in said and "--role write" in said
        assert reader not in said
        settings = load_settings({"SQRL_HOME": str(home)})
        checks = await asyncio.to_thread(team_checks, settings, False)
        [check] = [c for c in checks if c.name == "team server"]
        assert check.ok and check.warn and "bob, read" in check.detail, check
        assert "may only read" in check.detail

        code, said = await asyncio.to_thread(_join, monkeypatch, capsys, link.token, target)
        assert code == 0, said
        assert "the server accepted the token of alice (admin;" in said
        assert "may only read" not in said


def test_a_join_to_a_server_that_is_down_saves_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    refused_port: int,
) -> None:
    for name in [k for k in os.environ if k.startswith("SQRL_")]:
        monkeypatch.delenv(name)
    home = tmp_path / "laptop-joining"
    monkeypatch.setenv("SQRL_HOME", str(home))
    code, said = _join(monkeypatch, capsys, "sqt_abc_" + "y" * 40, f"127.0.0.1:{refused_port}")
    assert code != 0 and "unreachable" in said, said
    assert "nothing was saved (`--no-check` saves it" in said
    assert not (home / "team" / "token").exists()
    assert "team" not in load_settings({"SQRL_HOME": str(home)}).str_("team.server")
