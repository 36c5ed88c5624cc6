"""The team address: TLS off loopback, or refused with a clear error; what a migrating server
answers, and what a laptop reads back from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError, UnavailableError
from squirrel_core.settings import Settings, load_settings
from squirrel_core.team_client import failure_reason
from squirrel_core.team_listen import (
    SERVER_STARTING,
    is_loopback,
    migration_progress,
    server_migrating,
    team_listener,
)


def _settings(tmp_path: Path, **values: str) -> Settings:
    env = {"SQRL_HOME": str(tmp_path)}
    env.update({f"SQRL_SERVE_{k.upper()}": v for k, v in values.items()})
    return load_settings(env)


def test_no_address_means_not_a_team_server(tmp_path: Path) -> None:
    assert team_listener(_settings(tmp_path)) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "10.0.0.5", "team.example.org", "[::]"])
def test_plain_text_off_loopback_is_refused(tmp_path: Path, host: str) -> None:
    with pytest.raises(FailedPreconditionError, match="only loopback may be served without TLS"):
        team_listener(_settings(tmp_path, address=f"{host}:7443"))


def test_loopback_may_be_plain_and_anything_may_be_tls(tmp_path: Path) -> None:
    plain = team_listener(_settings(tmp_path, address="127.0.0.1:0"))
    assert plain is not None and not plain.tls
    tls = team_listener(
        _settings(tmp_path, address="0.0.0.0:7443", tls_cert="/c.pem", tls_key="/k.pem")
    )
    assert tls is not None and tls.tls and tls.port == 7443


def test_half_a_tls_pair_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FailedPreconditionError, match="both"):
        team_listener(_settings(tmp_path, address="0.0.0.0:1", tls_cert="/c.pem"))


@pytest.mark.parametrize("address", ["7443", "host:", "host:99999", ":7443", "host:port"])
def test_a_malformed_address_is_refused(tmp_path: Path, address: str) -> None:
    with pytest.raises(InvalidArgumentError, match="host:port"):
        team_listener(_settings(tmp_path, address=address))


def test_unreadable_or_non_pem_files_are_clear_errors(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate")
    listener = team_listener(
        _settings(tmp_path, address="127.0.0.1:0", tls_cert=str(junk), tls_key=str(junk))
    )
    assert listener is not None
    with pytest.raises(FailedPreconditionError, match="PEM"):
        listener.credentials()
    missing = team_listener(
        _settings(tmp_path, address="127.0.0.1:0", tls_cert="/nope.pem", tls_key="/nope.key")
    )
    assert missing is not None
    with pytest.raises(FailedPreconditionError, match="cannot read"):
        missing.credentials()


@pytest.mark.parametrize(
    ("host", "loop"),
    [
        ("127.0.0.1", True),
        ("127.5.5.5", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("192.168.1.2", False),
        ("example.org", False),
    ],
)
def test_loopback_hosts(host: str, loop: bool) -> None:
    assert is_loopback(host) is loop


def test_a_migrating_server_says_how_far_it_counted_rounded_down() -> None:
    said = server_migrating(102_000, 250_000)
    assert said.startswith("the team server is migrating its store: 40 % (102,000 of 250,000 ")
    assert migration_progress(said) == "40 % (102,000 of 250,000 memories) counted"
    assert migration_progress(server_migrating(249_999, 250_000)) == (
        "99 % (249,999 of 250,000 memories) counted"
    )
    assert migration_progress(server_migrating(0, 0)) == "100 % (0 of 0 memories) counted"
    rehashing = server_migrating(30_000, 120_000, "events", "rehashed")
    assert migration_progress(rehashing) == "25 % (30,000 of 120,000 events) rehashed"
    assert "once every event is" in rehashing and "memor" not in rehashing
    assert migration_progress(SERVER_STARTING) is None
    assert failure_reason(UnavailableError(said), 3) == (
        "it is migrating its store: 40 % (102,000 of 250,000 memories) counted"
    )
    assert failure_reason(UnavailableError("connection refused"), 3) == "it is unreachable"
