"""A plain-text client refused by the team server's TLS port is one structlog JSON event on the
memory service's stderr (gRPC's own text line no longer shows), on a real memory service."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import grpc
import pytest

from squirrel_core.native_log import event_of
from tests.conftest import PATIENCE_SECONDS, wait_until
from tests.tls_certs import make_tls_files


def _events(log: Path) -> list[dict[str, Any]]:
    """Every line written so far, each parsed as JSON (a line that is not JSON fails)."""
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def test_plain_text_to_the_team_port_is_one_json_event(tmp_path: Path) -> None:
    tls = make_tls_files(tmp_path / "tls")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.update(
        {
            "SQRL_HOME": str(tmp_path / "home"),
            "SQRL_SERVE_ADDRESS": "127.0.0.1:0",
            "SQRL_SERVE_TLS_CERT": str(tls.cert),
            "SQRL_SERVE_TLS_KEY": str(tls.key),
        }
    )
    log = tmp_path / "memory.log"
    with log.open("w") as stderr:
        service = subprocess.Popen(
            [sys.executable, "-m", "squirrel_memory"], env=env, stderr=stderr
        )
    try:
        wait_until(lambda: "service_serving" in log.read_text())
        (listening,) = [e for e in _events(log) if e["event"] == "team_listening"]
        with grpc.insecure_channel(f"127.0.0.1:{listening['port']}") as channel:
            call = channel.unary_unary("/squirrel.v1.MemoryService/ListProjects")
            with pytest.raises(grpc.RpcError) as refused:
                call(b"", timeout=PATIENCE_SECONDS)
        assert refused.value.code() is grpc.StatusCode.UNAVAILABLE
        wait_until(lambda: "tls_handshake_refused" in log.read_text())
    finally:
        service.send_signal(signal.SIGTERM)
        service.wait(PATIENCE_SECONDS)
    events = _events(log)  # all JSON: gRPC's text line is gone
    refusals = [e for e in events if e["event"] == "tls_handshake_refused"]
    assert refusals and all(
        e == {**e, "reason": "WRONG_VERSION_NUMBER", "process": "memory"} for e in refusals
    )
    assert "service_stopped" in [e["event"] for e in events]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "I1129 15:34:01.000914   19242 ssl_transport_security.cc:2563] Handshake failed "
            "with error SSL_ERROR_SSL: error:100000f7:SSL routines:OPENSSL_internal:"
            "WRONG_VERSION_NUMBER: Invalid certificate verification context",
            (
                "tls_handshake_refused",
                "info",
                {"error": "SSL_ERROR_SSL", "reason": "WRONG_VERSION_NUMBER"},
            ),
        ),
        (
            "E0101 00:00:00.000001 7 chttp2_server.cc:1053] bind failed",
            (
                "grpc_core_log",
                "error",
                {"source": "chttp2_server.cc:1053", "message": "bind failed"},
            ),
        ),
        ("Traceback (most recent call last):", None),
        ('{"event": "service_serving"}', None),
        ("I1129 is not a gRPC line", None),
    ],
)
def test_only_grpc_lines_become_events(line: str, expected: object) -> None:
    assert event_of(line) == expected
