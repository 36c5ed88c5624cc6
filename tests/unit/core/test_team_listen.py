"""The team address: TLS off loopback, or refused with a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError
from squirrel_core.settings import Settings, load_settings
from squirrel_core.team_listen import is_loopback, team_listener


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
