"""Commands that run or inspect the services: up, down, status."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from typing import Any

from squirrel_cli import read_args
from squirrel_cli.console import Console
from squirrel_cli.status_view import print_status, service_rows, status_data, up_failure
from squirrel_cli.supervisor_state import (
    SupervisorState,
    failed_services,
    other_version,
    read_supervisor_state,
    running_supervisor,
    supervisor_running,
)
from squirrel_core.auth import load_token
from squirrel_core.errors import FailedPreconditionError, SquirrelError, UnavailableError
from squirrel_core.home import SERVICES, HomeLayout
from squirrel_core.service_info import pid_alive, read_service_info
from squirrel_core.settings import Settings

DOWN_TIMEOUT_SECONDS = 30.0


def add_commands(sub: Any) -> None:
    up = sub.add_parser("up", help="start memory, ingest and gateway and keep them running")
    up.add_argument(
        "--detach", "-d", action="store_true", help="run in the background and return once serving"
    )
    up.set_defaults(handler=cmd_up)

    down = sub.add_parser("down", help="stop the services started by `sqrl up`")
    # A config.toml broken while the services run must not keep them from being stopped.
    down.set_defaults(handler=cmd_down, lenient_settings=True)

    read_args.add_status(sub).set_defaults(handler=cmd_status)


def cmd_up(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    from squirrel_cli.commands.local import prepare_home  # noqa: PLC0415 - storage only here

    layout = prepare_home(settings)
    running = running_supervisor(layout)
    if running is not None and (elsewhere := other_version(running)) is not None:
        raise FailedPreconditionError(elsewhere)
    if running is not None and failed_services(running):
        from squirrel_cli.service_retry import retry_failed  # noqa: PLC0415

        return retry_failed(settings, layout, running, console)
    if running is not None:  # in the foreground as with --detach: nothing to do is no failure
        console.line(f"Squirrel is already running (supervisor pid {running.pid}).")
        return 0
    if args.detach:
        return _up_detached(settings, layout, console)
    import asyncio  # noqa: PLC0415 - not for --detach (which starts `supervise`)

    from squirrel_cli.supervisor import Supervisor  # noqa: PLC0415
    from squirrel_core.logs import configure_logging  # noqa: PLC0415

    configure_logging("supervisor", settings.str_("general.log_level"))
    return asyncio.run(Supervisor(settings, os.environ).run())


def _up_detached(settings: Settings, layout: HomeLayout, console: Console) -> int:
    log_path = layout.log_file("supervisor")
    layout.up_failure_file.unlink(missing_ok=True)
    with log_path.open("ab") as log_fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "squirrel_cli.supervise"],
            stdin=subprocess.DEVNULL,
            stdout=log_fh,
            stderr=log_fh,
            start_new_session=True,
            env={**os.environ, "SQRL_HOME": str(settings.home)},
        )
    try:
        return _wait_up(settings, layout, console, proc)
    except KeyboardInterrupt:  # the supervisor, in a session of its own, goes on
        if proc.poll() is None:
            sys.stderr.write(
                f"sqrl: interrupted; the services go on starting (supervisor pid {proc.pid}):"
                " `sqrl status` shows them, `sqrl down` stops them\n"
            )
        raise


def _wait_up(
    settings: Settings, layout: HomeLayout, console: Console, proc: subprocess.Popen[bytes]
) -> int:
    """Waits for the supervisor `proc` to say every service serves (or is late); 0, or an
    error saying why not."""
    log_path = layout.log_file("supervisor")
    timeout = settings.float_("supervisor.start_timeout_seconds") * len(SERVICES)
    deadline = time.monotonic() + timeout
    pid = proc.pid
    while time.monotonic() < deadline:
        code = proc.poll()
        if code is not None and pid == proc.pid:
            failure = up_failure(layout)
            if failure:
                raise FailedPreconditionError(failure)
            other = running_supervisor(layout)
            if other is None:
                raise UnavailableError(f"`sqrl up` exited with code {code}; see {log_path}")
            # Another `sqrl up` (a second host's `sqrl mcp`) took the home a moment before
            # ours: its services are the ones to wait for.
            pid = other.pid
        state = read_supervisor_state(layout.supervisor_file)
        if pid != proc.pid and (state is None or not pid_alive(pid)):
            raise UnavailableError(f"`sqrl up` (supervisor pid {pid}) stopped; see {log_path}")
        if state is not None and state.pid == pid and _all_serving(state):
            ports = ", ".join(f"{s.name} :{s.port}" for s in state.services.values())
            console.line(f"Squirrel is up (supervisor pid {pid}; {ports}).")
            return 0
        if state is not None and state.pid == pid and _up_but_late(state):
            console.line(_late_line(pid, state))
            return 0
        time.sleep(0.05)
    raise UnavailableError(f"services did not reach SERVING within {timeout:.0f}s; see {log_path}")


def _all_serving(state: SupervisorState) -> bool:
    return all(
        name in state.services and state.services[name].state == "serving" for name in SERVICES
    )


def _up_but_late(state: SupervisorState) -> bool:
    """Every service serves or is late (running past the start timeout, joining once it
    serves), and one is late."""
    services = [state.services.get(name) for name in SERVICES]
    return any(s is not None and s.late for s in services) and all(
        s is not None and (s.state == "serving" or s.late) for s in services
    )


def _late_line(pid: int, state: SupervisorState) -> str:
    serving = ", ".join(f"{s.name} :{s.port}" for s in state.services.values() if not s.late)
    late = "; ".join(
        f"the {s.name} service is still starting (waiting for {s.waits_for})"
        for s in state.services.values()
        if s.late
    )
    return (
        f"Squirrel is up (supervisor pid {pid}; {serving}) but {late}; it joins once it serves"
        " (`sqrl status` says when)."
    )


def cmd_down(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    layout = HomeLayout(settings.home)
    grace = settings.float_("supervisor.stop_grace_seconds")
    state = running_supervisor(layout)
    pids = [s.pid for s in state.services.values()] if state else []
    if state is None:
        strays = _stray_services(layout)
        if not strays:
            console.line("Squirrel is not running.")
            return 0
        pids = strays
    else:
        # The supervisor stops the services one by one, each given the stop grace.
        os.kill(state.pid, signal.SIGTERM)
        _wait_gone([state.pid], grace * len(SERVICES) + DOWN_TIMEOUT_SECONDS)
    for pid in pids:
        if pid_alive(pid):
            os.kill(pid, signal.SIGTERM)
    if not _wait_gone(pids, max(grace, DOWN_TIMEOUT_SECONDS)):
        for pid in pids:
            if pid_alive(pid):
                os.kill(pid, signal.SIGKILL)
    console.line("Squirrel stopped.")
    return 0


def _stray_services(layout: HomeLayout) -> list[int]:
    """Services whose supervisor is gone but which still run (e.g. after `kill -9` of `sqrl up`)."""
    pids = []
    for name in SERVICES:
        info = read_service_info(layout.service_file(name))
        if info is not None and pid_alive(info.pid):
            pids.append(info.pid)
    return pids


def _wait_gone(pids: list[int], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(pid_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return not any(pid_alive(p) for p in pids)


def cmd_status(args: argparse.Namespace, console: Console) -> int:
    import asyncio  # noqa: PLC0415 - not for `sqrl up --detach`

    from squirrel_core.status_probe import probe  # noqa: PLC0415 - gRPC: not for `sqrl up`

    sessions = read_args.outcome_sessions(args)
    settings: Settings = args.settings
    layout = HomeLayout(settings.home)
    state = supervisor_running(layout)
    services, ports = service_rows(layout, state)
    counts: dict[str, dict[str, Any]] = {}
    ingest: dict[str, Any] | None = None
    if ports or state is not None:
        try:
            token = load_token(layout.token)
        except SquirrelError:
            token = ""
        health, counts, ingest = asyncio.run(
            probe(
                layout,
                token,
                ports,
                counts=state is not None and bool(token),
                sessions=sessions,
            )
        )
        for row in services:
            row["health"] = health.get(row["service"], "DOWN")
    data = status_data(settings, state, services, counts, ingest)
    if args.json:
        console.json(data)
    else:
        print_status(data, counts, console)
    return 0
