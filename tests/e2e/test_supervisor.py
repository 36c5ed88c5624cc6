"""The real `sqrl` in a subprocess with a private home: up, status, restart after kill -9, down."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.conftest import PATIENCE_SECONDS, wait_until

pytestmark = pytest.mark.e2e

SERVICES = ("memory", "ingest", "gateway")
Sqrl = Callable[..., subprocess.CompletedProcess[str]]


def _status(sqrl: Sqrl) -> dict[str, Any]:
    result = sqrl("status", "--json")
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _services(sqrl: Sqrl) -> dict[str, dict[str, Any]]:
    return {s["service"]: s for s in _status(sqrl)["services"]}


def _all_serving(sqrl: Sqrl) -> dict[str, dict[str, Any]] | None:
    services = _services(sqrl)
    ok = all(s["health"] == "SERVING" and s["state"] == "serving" for s in services.values())
    return services if ok else None


def _supervisor_says_serving(home: Path) -> bool:
    """Whether the supervisor has recorded every service as serving: read from its file, so the
    wait costs no CPU the starting services need (each `sqrl status` is a Python process)."""
    try:
        recorded = json.loads((home / "run" / "supervisor.json").read_text())["services"]
    except (OSError, ValueError, KeyError):
        return False
    return all(recorded.get(name, {}).get("state") == "serving" for name in SERVICES)


def _bind(sock: socket.socket, port: int) -> bool:
    try:
        sock.bind(("127.0.0.1", port))
    except OSError:
        return False
    return True


def _squirrel_processes(home: Path) -> list[psutil.Process]:
    """Every live process whose environment or command line points at this test's home."""
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            cmdline = " ".join(proc.info["cmdline"] or [])
            if "squirrel_" not in cmdline:
                continue
            if proc.environ().get("SQRL_HOME") == str(home):
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


@pytest.fixture
def up(
    sqrl: Sqrl, sqrl_env: dict[str, str], sqrl_home: Path, repo: Path
) -> Iterator[subprocess.Popen[str]]:
    """`sqrl up` in the foreground, as a user runs it, stopped at the end whatever happened."""
    assert sqrl("init", cwd=repo).returncode == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "squirrel_cli", "up"],
        env=sqrl_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: _supervisor_says_serving(sqrl_home) or proc.poll() is not None)
        wait_until(lambda: _all_serving(sqrl))
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=PATIENCE_SECONDS)
            except subprocess.TimeoutExpired:
                proc.kill()
        for leftover in _squirrel_processes(sqrl_home):
            leftover.kill()


def test_up_brings_every_service_to_serving_and_status_shows_them(
    up: subprocess.Popen[str], sqrl: Sqrl, repo: Path
) -> None:
    status = _status(sqrl)
    assert status["supervisor_pid"] == up.pid
    assert {s["service"] for s in status["services"]} == set(SERVICES)
    for service in status["services"]:
        assert service["pid"] and service["port"] and service["restarts"] == 0
        assert psutil.Process(service["pid"]).ppid() == up.pid
    [project] = status["projects"]
    assert project["project"] == str(repo) and project["initialised"] is True
    table = sqrl("status")
    assert table.returncode == 0 and "SERVING" in table.stdout


@pytest.mark.parametrize("victim", SERVICES)
def test_a_killed_service_is_restarted(up: subprocess.Popen[str], sqrl: Sqrl, victim: str) -> None:
    before = _services(sqrl)[victim]
    os.kill(before["pid"], signal.SIGKILL)

    def restarted() -> dict[str, Any] | None:
        now = _services(sqrl)[victim]
        ok = now["restarts"] == 1 and now["pid"] != before["pid"] and now["health"] == "SERVING"
        return now if ok else None

    after = wait_until(restarted)
    assert isinstance(after, dict)
    assert after["port"] == before["port"]
    assert up.poll() is None


def test_a_restarted_service_whose_port_was_taken_meanwhile_serves_on_another(
    up: subprocess.Popen[str], sqrl: Sqrl
) -> None:
    before = _services(sqrl)["memory"]
    # The supervisor is paused while the service dies and another program takes its port, so
    # the restart (half a second later) cannot win that race.
    os.kill(up.pid, signal.SIGSTOP)
    try:
        os.kill(before["pid"], signal.SIGKILL)
        squatter = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past TIME_WAIT
        wait_until(lambda: _bind(squatter, before["port"]))
    finally:
        os.kill(up.pid, signal.SIGCONT)
    with squatter:
        squatter.listen()

        def restarted() -> dict[str, Any] | None:
            now = _services(sqrl)["memory"]
            return now if now["restarts"] == 1 and now["health"] == "SERVING" else None

        after = wait_until(restarted)
    assert isinstance(after, dict)
    assert after["port"] not in (0, before["port"])
    assert up.poll() is None


def test_down_leaves_no_squirrel_process(
    up: subprocess.Popen[str], sqrl: Sqrl, sqrl_home: Path
) -> None:
    pids = [s["pid"] for s in _services(sqrl).values()]
    result = sqrl("down")
    assert result.returncode == 0, result.stderr
    assert up.wait(timeout=PATIENCE_SECONDS) == 0
    assert not any(psutil.pid_exists(p) and psutil.Process(p).status() != "zombie" for p in pids)
    assert _squirrel_processes(sqrl_home) == []
    assert sqrl("down").stdout.strip() == "Squirrel is not running."


def test_sigterm_to_up_stops_services_in_reverse_order(
    up: subprocess.Popen[str], sqrl: Sqrl, sqrl_home: Path
) -> None:
    up.send_signal(signal.SIGTERM)
    assert up.wait(timeout=PATIENCE_SECONDS) == 0
    assert _squirrel_processes(sqrl_home) == []
    stopped_at = {}
    for name in SERVICES:
        lines = (sqrl_home / "logs" / f"{name}.log").read_text().splitlines()
        events = [json.loads(line) for line in lines if line.startswith("{")]
        stamps = [e["timestamp"] for e in events if e["event"] == "service_stopped"]
        # Compared as times: as text, a stamp on a whole second ("…:05Z") sorts after "…:05.3Z".
        stopped_at[name] = datetime.fromisoformat(stamps[-1])
    assert stopped_at["gateway"] <= stopped_at["ingest"] <= stopped_at["memory"]


def test_services_exit_when_the_supervisor_is_killed(
    up: subprocess.Popen[str], sqrl: Sqrl, sqrl_home: Path
) -> None:
    pids = [s["pid"] for s in _services(sqrl).values()]
    up.kill()
    up.wait(timeout=PATIENCE_SECONDS)
    wait_until(
        lambda: (
            not any(psutil.pid_exists(p) and psutil.Process(p).status() != "zombie" for p in pids)
        ),
        timeout=PATIENCE_SECONDS,  # a service's stop took 11 s at load 24
    )
    assert _squirrel_processes(sqrl_home) == []


def test_detached_up_returns_once_serving_and_down_stops_it(
    sqrl: Sqrl, repo: Path, sqrl_home: Path
) -> None:
    assert sqrl("init", cwd=repo).returncode == 0
    try:
        started = sqrl("up", "--detach")
        assert started.returncode == 0, started.stderr
        assert _all_serving(sqrl)
        again = sqrl("up", "--detach")
        assert again.returncode == 0 and "already running" in again.stdout
    finally:
        assert sqrl("down").returncode == 0
    assert _squirrel_processes(sqrl_home) == []


def test_detached_up_returns_once_the_gateway_answers_hooks_too(
    sqrl: Sqrl, repo: Path, sqrl_home: Path
) -> None:
    """The gateway's HTTP endpoint (hooks, quick reads) starts a moment after its SERVING: `up`
    waits for it, so a session started right after `sqrl up` finds it answering."""
    assert sqrl("init", cwd=repo).returncode == 0
    try:
        started = sqrl("up", "--detach")
        assert started.returncode == 0, started.stderr
        run = sqrl_home / "run"
        endpoint = json.loads((run / "gateway-mcp.json").read_text())
        gateway = json.loads((run / "gateway-service.json").read_text())
        assert endpoint["pid"] == gateway["pid"]
    finally:
        assert sqrl("down").returncode == 0


def _refused_up(sqrl: Sqrl) -> str:
    """The one line of a `sqrl up --detach` that fails (the services stopped after it)."""
    try:
        refused = sqrl("up", "--detach", timeout=2 * PATIENCE_SECONDS)
    finally:
        sqrl("down")
    assert refused.returncode != 0
    [line] = refused.stderr.splitlines()
    return line


def test_a_configured_port_in_use_stops_up_with_one_line_naming_the_setting(
    sqrl: Sqrl, sqrl_env: dict[str, str], repo: Path, sqrl_home: Path, server_port: int
) -> None:
    assert sqrl("init", cwd=repo).returncode == 0
    port = server_port  # held for the test: once the squatter goes, no one else takes it
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # beside the holder
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        sqrl_env["SQRL_MEMORY_PORT"] = str(port)
        line = _refused_up(sqrl)
        assert f"127.0.0.1:{port}" in line and "`memory.port`" in line and "memory service" in line
        wait_until(lambda: _squirrel_processes(sqrl_home) == [])
        memory_log = (sqrl_home / "logs" / "memory.log").read_text()
        assert "Traceback" not in memory_log
        events = [json.loads(line) for line in memory_log.splitlines()]  # every line is JSON
        refusal = [e for e in events if e["event"] == "port_in_use"]
        assert [(e["port"], e["setting"]) for e in refusal] == [(port, "memory.port")]
        status = _status(sqrl)
        assert status["supervisor_pid"] is None and status["up_failure"] == line.split(": ", 2)[2]
        assert status["up_failure"] in sqrl("status").stdout
    # Must not fire once the port is free: `up` starts, and status forgets the old failure.
    try:
        started = sqrl("up", "--detach", timeout=2 * PATIENCE_SECONDS)
        assert started.returncode == 0, started.stderr
        status = _status(sqrl)
        assert status["up_failure"] is None
        assert all(s["problem"] is None for s in status["services"])
        assert "failed" not in sqrl("status").stdout
    finally:
        assert sqrl("down").returncode == 0
    assert _squirrel_processes(sqrl_home) == []


def test_a_refused_configuration_stops_up_with_its_reason_and_the_log(
    sqrl: Sqrl, sqrl_env: dict[str, str], repo: Path, sqrl_home: Path
) -> None:
    assert sqrl("init", cwd=repo).returncode == 0
    memory_log = sqrl_home / "logs" / "memory.log"
    earlier = {"event": "config_refused", "service": "memory", "reason": "an earlier start's"}
    with memory_log.open("a") as fh:  # a refusal of an earlier start is not this one's reason
        fh.write(json.dumps(earlier) + "\n")
    sqrl_env["SQRL_SERVE_ADDRESS"] = "0.0.0.0:7999"  # plain text off loopback: refused
    line = _refused_up(sqrl)
    events = [json.loads(line) for line in memory_log.read_text().splitlines()]
    reason = [e["reason"] for e in events if e["event"] == "config_refused"][-1]
    assert "0.0.0.0:7999" in reason
    assert line.endswith(f"The memory service did not start: {reason}; see {memory_log}")
    wait_until(lambda: _squirrel_processes(sqrl_home) == [])
    assert _status(sqrl)["up_failure"] == line.split(": ", 2)[2]
