"""A session start while `sqrl up` is still starting the services waits for them (bounded by
`hooks.start_wait_ms`), so the first session after `sqrl up --detach` gets its start text; with
the services down (no live supervisor) it never waits. Real files in a home, a real loopback
HTTP server standing for the gateway's endpoint."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from squirrel_cli import hook_client
from squirrel_core.start_texts import change_mark, keep_start_text, mark_changed, start_folder

START_TEXT = b'{"hookSpecificOutput": {"additionalContext": "the brief"}}'


class _Gateway(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Length", str(len(START_TEXT)))
        self.end_headers()
        self.wfile.write(START_TEXT)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def gateway() -> Iterator[int]:
    server = HTTPServer(("127.0.0.1", 0), _Gateway)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def gone_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / "run").mkdir(parents=True)
    (home / "token").write_text("secret\n")
    monkeypatch.setenv("SQRL_HOME", str(home))
    monkeypatch.delenv("SQRL_HOOKS_START_WAIT_MS", raising=False)
    monkeypatch.delenv("SQRL_HOOKS_DEADLINE_MS", raising=False)
    return home


def _supervisor(home: Path, pid: int, **states: str) -> None:
    services = {name: {"name": name, "state": state} for name, state in states.items()}
    (home / "run" / "supervisor.json").write_text(json.dumps({"pid": pid, "services": services}))


def _gateway_serves(home: Path, port: int) -> None:
    """What the gateway and the supervisor write once the gateway serves."""
    record = {"name": "gateway", "pid": os.getpid(), "host": "127.0.0.1", "port": port}
    (home / "run" / "gateway-service.json").write_text(json.dumps({**record, "started_at": 0}))
    (home / "run" / "gateway-mcp.json").write_text(json.dumps({**record, "started_at": 0}))
    _supervisor(home, os.getpid(), memory="serving", ingest="serving", gateway="serving")


def _hook(
    monkeypatch: pytest.MonkeyPatch, event: str, cwd: str = "/nowhere"
) -> tuple[bytes, list[str]]:
    """`sqrl hook claude <event>` in this process: what it printed, and its stderr events."""
    stdin = json.dumps({"cwd": cwd, "hook_event_name": event}).encode()
    out, err = io.BytesIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, write_through=True))
    monkeypatch.setattr(sys, "stderr", err)
    assert hook_client.main(["claude", event]) == 0
    return out.getvalue(), [json.loads(line)["event"] for line in err.getvalue().splitlines()]


def test_a_session_started_while_the_services_start_gets_its_start_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gateway: int
) -> None:
    home = _home(tmp_path, monkeypatch)
    _supervisor(home, os.getpid(), memory="serving", ingest="starting", gateway="starting")
    pauses: list[float] = []

    def services_come_up(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 3:  # a few polls later the gateway serves
            _gateway_serves(home, gateway)

    monkeypatch.setattr(hook_client, "_pause", services_come_up)
    printed, said = _hook(monkeypatch, "SessionStart")
    assert printed.strip() == START_TEXT
    assert said == ["hook_waited_for_start"]
    assert len(pauses) == 3


def test_with_the_services_down_a_session_start_never_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gone_pid: int
) -> None:
    home = _home(tmp_path, monkeypatch)
    monkeypatch.setattr(hook_client, "_pause", pytest.fail)
    printed, said = _hook(monkeypatch, "SessionStart")  # no supervisor ever ran
    assert printed == b"" and said == ["hook_unanswered"]
    # a supervisor that is gone left its record, its services still "starting"
    _supervisor(home, gone_pid, memory="starting", ingest="starting", gateway="starting")
    assert not hook_client.services_starting(home)
    printed, said = _hook(monkeypatch, "SessionStart")
    assert printed == b"" and said == ["hook_unanswered"]


def test_only_a_session_start_waits_and_only_for_memory_and_the_gateway(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, monkeypatch)
    monkeypatch.setattr(hook_client, "_pause", pytest.fail)
    _supervisor(home, os.getpid(), memory="starting", ingest="starting", gateway="starting")
    assert hook_client.start_wait_s(home, "UserPromptSubmit") == 0.0
    _supervisor(home, os.getpid(), memory="serving", ingest="starting", gateway="serving")
    assert not hook_client.services_starting(home)  # a late ingest holds no session back
    assert hook_client.start_wait_s(home, "SessionStart") == 0.0


def test_the_wait_is_bounded_by_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, monkeypatch)
    _supervisor(home, os.getpid(), memory="starting", gateway="starting")
    monkeypatch.setenv("SQRL_HOOKS_START_WAIT_MS", "0")
    monkeypatch.setattr(hook_client, "_pause", pytest.fail)
    assert hook_client.start_wait_s(home, "SessionStart") == 0.0
    assert hook_client.wait_for_start(home, 0.0) == 0.0
    pauses: list[float] = []
    monkeypatch.setenv("SQRL_HOOKS_START_WAIT_MS", "60")
    assert hook_client.start_wait_s(home, "SessionStart") == 0.06
    monkeypatch.setattr(hook_client, "_pause", pauses.append)  # never comes up
    hook_client.wait_for_start(home, 0.06)
    assert pauses  # it polled, and returned although the services never served


def test_a_kept_start_text_is_printed_at_once_while_the_services_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, monkeypatch)
    run = home / "run"
    folder = tmp_path / "project"
    folder.mkdir()
    mark_changed(run)
    mark = change_mark(run)
    assert mark is not None
    keep = {"host": "claude", "event": "SessionStart", "folder": start_folder(run, str(folder))}
    keep_start_text(run, **keep, output="kept text", mark=mark, files=(), settings_key="k")
    _supervisor(home, os.getpid(), memory="starting", ingest="starting", gateway="starting")
    monkeypatch.setattr(hook_client, "_pause", pytest.fail)  # no wait: the kept text is valid
    printed, said = _hook(monkeypatch, "SessionStart", cwd=str(folder))
    assert printed.strip() == b"kept text"
    assert said == ["hook_answered_kept"]
    mark_changed(run)  # a memory changed since: the kept text is not printed, the hook waits
    pauses: list[float] = []
    monkeypatch.setenv("SQRL_HOOKS_START_WAIT_MS", "60")
    monkeypatch.setattr(hook_client, "_pause", pauses.append)
    printed, said = _hook(monkeypatch, "SessionStart", cwd=str(folder))
    assert printed == b"" and pauses
    assert said == ["hook_waited_for_start", "hook_unanswered"]


def test_the_start_wait_setting_is_read_like_the_deadline(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert hook_client.start_wait_ms(home) == hook_client.DEFAULT_START_WAIT_MS
    (home / "config.toml").write_text("[hooks]\nstart_wait_ms = 1200\n")
    assert hook_client.start_wait_ms(home) == 1200
    (home / "config.toml").write_text("[hooks]\nstart_wait_ms = 90000\n")  # past the bound
    assert hook_client.start_wait_ms(home) == hook_client.DEFAULT_START_WAIT_MS
