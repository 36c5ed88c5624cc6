"""The life of a service process: settings, logging, token, serve, SERVING, stop on SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import inspect
import os
from collections.abc import Awaitable, Callable

import structlog

from squirrel_core.auth import ensure_token
from squirrel_core.collector import settle_collector
from squirrel_core.errors import SquirrelError
from squirrel_core.home import HomeLayout
from squirrel_core.logs import configure_logging
from squirrel_core.native_log import NativeStderr
from squirrel_core.port_in_use import PORT_IN_USE_EXIT_CODE, PortInUseError, port_setting
from squirrel_core.rpc import GrpcService, install_stop_signals
from squirrel_core.settings import Settings, load_settings
from squirrel_core.team_listen import team_listener
from squirrel_core.team_tokens import TeamTokens

log = structlog.get_logger()

Cleanup = Callable[[], Awaitable[None]]
Ready = Callable[[], Awaitable[Awaitable[None] | None]]
"""Awaited after the port is bound and before SERVING is announced. It may return the rest of
the start-up, which then runs after SERVING, beside the RPCs (the gateway's HTTP endpoint, whose
libraries take longer to load than everything else): if that fails, the service stops and exits
non-zero, as a failed start would."""
# Registers servicers on the service, starts background work; returns (ready, cleanup).
Setup = Callable[[Settings, GrpcService], Awaitable[tuple[Ready, Cleanup]]]


def failure_reason(error: BaseException) -> str:
    """What went wrong, in one line: an OS error's description and the file it concerns, else
    the exception's own message (its type's name when it has none)."""
    if isinstance(error, OSError) and error.strerror:
        files = [str(f) for f in (error.filename, error.filename2) if f is not None]
        return error.strerror + (f": {' -> '.join(files)}" if files else "")
    text = " ".join(str(error).split())
    return text or type(error).__name__


class StartFailedError(Exception):
    """The start-up finished after SERVING failed; the service stopped because of it."""


def _finish_start(later: Awaitable[None] | None, stop: asyncio.Event) -> asyncio.Task[None] | None:
    """Runs what `ready` left for after SERVING; its failure stops the service."""
    if later is None:
        return None

    async def finish() -> None:
        await later

    def done(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            # One event with the reason (a file that cannot be written, a setting refused…),
            # never a traceback: the line is read by `sqrl up` and by people.
            log.error("start_failed", error=type(error).__name__, reason=failure_reason(error))
            stop.set()

    task = asyncio.create_task(finish(), name="finish-start")
    task.add_done_callback(done)
    return task


PARENT_POLL_SECONDS = 1.0


async def _watch_parent(parent_pid: int, stop: asyncio.Event) -> None:
    """Stops the service when the supervisor that started it is gone (no orphans)."""
    while not stop.is_set():
        if os.getppid() != parent_pid:
            log.warning("supervisor_gone", parent_pid=parent_pid)
            stop.set()
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), PARENT_POLL_SECONDS)


async def run_service(
    name: str,
    setup: Setup,
    settings: Settings | None = None,
    parent_pid: int | None = None,
    preferred_port: int = 0,
) -> None:
    """Runs one service until SIGTERM/SIGINT (or its supervisor dies), then stops gracefully."""
    settings = settings or load_settings()
    configure_logging(name, settings.str_("general.log_level"))
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    # Only the memory service is served to a team; the others stay on loopback.
    team = team_listener(settings) if name == "memory" else None
    service = GrpcService(
        name,
        token,
        settings.int_(f"{name}.port"),
        layout.service_file(name),
        team=team,
        team_tokens=TeamTokens(layout.team_tokens) if team is not None else None,
        preferred_port=preferred_port,
    )
    stop = asyncio.Event()
    install_stop_signals(stop)
    watcher = (
        asyncio.create_task(_watch_parent(parent_pid, stop)) if parent_pid is not None else None
    )
    ready, cleanup = await setup(settings, service)
    finishing: asyncio.Task[None] | None = None
    later: Awaitable[None] | None = None
    try:
        await service.start()
        later = await ready()
        await service.set_serving()
        settle_collector()  # what the start made lives on: out of the collector's scans
        finishing = _finish_start(later, stop)
        await stop.wait()
        log.info("service_stopping", service=name)
    finally:
        stop.set()
        if watcher is not None:
            await watcher
        if finishing is None and inspect.iscoroutine(later):
            later.close()  # SERVING was never reached
        if finishing is not None and not finishing.done():
            finishing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await finishing
        await service.stop()
        await cleanup()
    if finishing is not None and not finishing.cancelled() and finishing.exception() is not None:
        raise StartFailedError(f"{name} did not finish starting") from finishing.exception()


def main_for(name: str, setup: Setup, argv: list[str] | None = None) -> None:
    """Entry point body of `python -m squirrel_<name> [--parent-pid PID]`."""
    parser = argparse.ArgumentParser(prog=f"python -m squirrel_{name}")
    parser.add_argument(
        "--parent-pid", type=int, default=None, help="stop when this process is gone"
    )
    parser.add_argument(
        "--preferred-port",
        type=int,
        default=0,
        help="with no port configured: bind this one when it is free, else any free one",
    )
    args = parser.parse_args(argv)
    # gRPC's own lines (a refused TLS handshake…) become JSON events like every other line.
    NativeStderr.capture(name)
    try:
        asyncio.run(
            run_service(name, setup, parent_pid=args.parent_pid, preferred_port=args.preferred_port)
        )
    except PortInUseError as exc:
        # The configured port is taken: one event naming the setting to change, no traceback.
        setting = exc.setting or port_setting(name)
        log.error("port_in_use", service=name, port=exc.port, setting=setting)
        raise SystemExit(PORT_IN_USE_EXIT_CODE) from None
    except SquirrelError as exc:
        # A refused configuration (e.g. plain text off loopback): one event with the reason,
        # no traceback; logging is set up first when the settings were refused before it was.
        if not structlog.is_configured():
            configure_logging(name)
        structlog.contextvars.bind_contextvars(process=name)  # bound in the loop's context only
        log.error(
            "config_refused", service=name, error=type(exc).__name__, reason=failure_reason(exc)
        )
        raise SystemExit(2) from None
    except StartFailedError:
        raise SystemExit(1) from None  # logged as `start_failed`, with its reason
