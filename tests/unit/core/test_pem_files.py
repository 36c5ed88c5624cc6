"""The team's PEM files are read only when they are regular files of a sane size: a FIFO would
block `sqrl team join` and `sqrl serve` forever."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from squirrel_cli.main import main
from squirrel_core.errors import FailedPreconditionError
from squirrel_core.pem_files import MAX_PEM_BYTES, read_pem
from squirrel_core.team_listen import TeamListener

PEM = b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "ca.pem"
    path.write_bytes(PEM)
    assert read_pem(path) == PEM


@pytest.mark.parametrize("kind", ["fifo", "directory", "too large", "missing"])
def test_what_is_not_a_pem_file_is_an_os_error_naming_it(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "ca.pem"
    if kind == "fifo":
        os.mkfifo(path)  # nothing writes to it: a plain read would wait forever
    elif kind == "directory":
        path.mkdir()
    elif kind == "too large":
        path.write_bytes(PEM + b"x" * MAX_PEM_BYTES)
    with pytest.raises(OSError) as caught:
        read_pem(path)
    assert caught.value.filename == str(path)
    assert caught.value.strerror


def test_a_server_certificate_that_is_a_fifo_is_a_precondition_error(tmp_path: Path) -> None:
    fifo = tmp_path / "server.pem"
    os.mkfifo(fifo)
    listener = TeamListener("127.0.0.1", 0, fifo, fifo)
    with pytest.raises(FailedPreconditionError, match="not a regular file"):
        listener.credentials()


def test_joining_with_a_ca_file_that_is_a_fifo_is_one_line_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in [k for k in os.environ if k.startswith("SQRL_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("SQRL_HOME", str(tmp_path / "home"))
    fifo = tmp_path / "ca.pem"
    os.mkfifo(fifo)
    monkeypatch.setattr("sys.stdin", io.StringIO("sqt_0123456789ab_" + "s" * 43 + "\n"))

    assert main(["team", "join", "127.0.0.1:1", "--ca-file", str(fifo)]) == 1

    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "team.ca_file" in line and "not a regular file" in line
    assert not (tmp_path / "home" / "team" / "token").exists()
