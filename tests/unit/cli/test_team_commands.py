"""`sqrl team token …`, `sqrl team join/leave` and `sqrl serve`'s refusal of plain text."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path

import pytest

from squirrel_cli.main import main


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    for name in [k for k in os.environ if k.startswith("SQRL_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("SQRL_HOME", str(home))
    return home


def test_tokens_are_printed_once_listed_without_secrets_and_revoked(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grant = ["--projects", "github.com/acme/*", "--role", "write"]
    assert main(["team", "token", "add", "alice", *grant, "--json"]) == 0
    issued = json.loads(capsys.readouterr().out)
    assert issued["user"] == "alice" and issued["token"].startswith("sqt_")
    assert main(["team", "token", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(t["id"], t["user"], t["role"], t["projects"], t["revoked_at"]) for t in listed] == [
        (issued["id"], "alice", "write", ["github.com/acme/*"], None)
    ]
    assert issued["token"] not in (home / "team" / "tokens.json").read_text()
    assert main(["team", "token", "revoke", issued["id"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["revoked_at"]
    assert main(["team", "token", "revoke", "unknown"]) == 1
    assert "sqrl team token list" in capsys.readouterr().err


def test_token_grants_are_shown_changed_and_checked(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add = ["team", "token", "add", "bob", "--projects", "github.com/acme/shop,github.com/b/*"]
    assert main([*add, "--json"]) == 0
    issued = json.loads(capsys.readouterr().out)
    assert (issued["role"], issued["projects"], issued["max_projects"]) == (
        "read",
        ["github.com/acme/shop", "github.com/b/*"],
        20,
    )
    assert main(["team", "token", "list"]) == 0
    table = capsys.readouterr().out
    assert "github.com/acme/shop, github.com/b/*" in table and "read" in table
    assert issued["token"] not in table
    change = ["team", "token", "grant", issued["id"], "--role", "admin", "--max-projects", "2"]
    assert main([*change, "--json"]) == 0
    changed = json.loads(capsys.readouterr().out)
    assert (changed["role"], changed["max_projects"]) == ("admin", 2)
    assert changed["projects"] == issued["projects"]
    for bad in ("/etc", "../../x", "github.com/*/shop"):
        assert main(["team", "token", "add", "eve", "--projects", bad]) == 2  # bad argument
        err = capsys.readouterr().err
        assert "is not a project pattern" in err and len(err.strip().splitlines()) == 1
    assert main(["team", "token", "grant", "unknown", "--role", "read"]) == 1
    assert "sqrl team token list" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["team", "token", "add", "eve"])  # --projects is required
    assert main(["team", "token", "add", "eve", "--projects", ""]) == 0
    assert "read on no project (shown once" in capsys.readouterr().out  # not "read on  (…"


def test_the_server_creates_only_team_id_forms(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for bad in ("/etc", "../../x"):
        assert main(["team", "project", "add", bad]) == 2  # a bad argument
        err = capsys.readouterr().err
        assert "is not a team project id" in err and len(err.strip().splitlines()) == 1


def test_joining_keeps_the_token_private_and_out_of_config_list(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    token = "sqt_0123456789ab_" + "s" * 43
    monkeypatch.setattr("sys.stdin", io.StringIO(token + "\n"))
    joining = ["team", "join", "team.example.org:7443", "--ca-file", "ca.pem", "--no-check"]
    assert main(joining) == 0
    token_file = home / "team" / "token"
    assert token_file.read_text().strip() == token
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    capsys.readouterr()
    assert main(["config", "list", "--json"]) == 0
    shown = capsys.readouterr().out
    assert token not in shown and "team.example.org:7443" in shown
    assert token not in (home / "config.toml").read_text()
    assert main(["team", "leave"]) == 0
    assert not token_file.exists()


def test_joining_with_an_empty_token_is_refused(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert main(["team", "join", "h:1"]) == 1
    assert "token" in capsys.readouterr().err
    assert not (home / "team" / "token").exists()


def test_serve_refuses_plain_text_off_loopback_before_starting_anything(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--address", "0.0.0.0:7443"]) == 1
    err = capsys.readouterr().err
    assert "only loopback may be served without TLS" in err
    assert not (home / "run" / "supervisor.json").exists()


@pytest.mark.parametrize("kind", ["missing", "not PEM"])
def test_serve_refuses_an_unreadable_certificate_before_starting_anything(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """The services started (half a minute on a laptop) before the memory service found it."""
    cert = tmp_path / "server.pem"
    if kind == "not PEM":
        cert.write_text("not a certificate\n")
    tls = ["--tls-cert", str(cert), "--tls-key", str(cert)]

    assert main(["serve", "--address", "127.0.0.1:0", *tls]) == 1

    captured = capsys.readouterr()
    assert "Team server on" not in captured.out
    (line,) = captured.err.strip().splitlines()
    assert "serve.tls_cert" in line
    assert not (home / "run" / "up-failed.txt").exists()


def test_leaving_says_what_stays_queued_and_whether_a_restart_is_needed(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, leaving always said to restart (nothing ran) and nothing of the remembers still
    queued for the team: they stay, in local memory and in the queue for a join again."""
    from squirrel.v1 import memory_service_pb2 as pb  # noqa: PLC0415
    from squirrel_core.home import HomeLayout  # noqa: PLC0415
    from squirrel_core.settings import load_settings  # noqa: PLC0415
    from squirrel_core.team_in_use import record_team_in_use  # noqa: PLC0415
    from squirrel_gateway.team_outbox import TeamOutbox  # noqa: PLC0415

    token = "sqt_0123456789ab_" + "s" * 43
    monkeypatch.setattr("sys.stdin", io.StringIO(token + "\n"))
    assert main(["team", "join", "team.example.org:7443", "--no-check"]) == 0
    layout = HomeLayout(home)
    outbox = TeamOutbox(layout.team_outbox)
    for text in ("deploy with make ship", "the cart tests need redis"):
        outbox.put("/home/alice/shop", pb.RememberRequest(content=text))
    capsys.readouterr()

    assert main(["team", "leave"]) == 0
    said = capsys.readouterr().out
    assert "2 remembers queued for the team server stay queued" in said
    assert "restart" not in said  # nothing runs
    assert outbox.pending() == 2

    monkeypatch.setattr("sys.stdin", io.StringIO(token + "\n"))
    assert main(["team", "join", "team.example.org:7443", "--no-check"]) == 0
    record_team_in_use(layout.run, "memory", load_settings({"SQRL_HOME": str(home)}))
    capsys.readouterr()
    assert main(["team", "leave"]) == 0
    said = capsys.readouterr().out
    assert "sqrl down && sqrl up -d" in said
