"""`sqrl up`: start memory, ingest, gateway; wait for SERVING; restart crashes; stop in reverse."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from squirrel_cli.crash_loop import CrashLoop, exit_way, given_up_line
from squirrel_cli.home_lock import HomeLock
from squirrel_cli.kept_records import KeptRecords
from squirrel_cli.refusal import refusal_reason, refused_line
from squirrel_cli.service_process import service_command, spawn_service
from squirrel_cli.supervisor_state import (
    EARLIER_LOCK,
    RECORDS_CHECK_SECONDS,
    ServiceState,
    SupervisorState,
    earlier_lock_held,
    read_supervisor_state,
    squirrel_version,
)
from squirrel_core.errors import FailedPreconditionError, UnavailableError
from squirrel_core.files import write_private_file
from squirrel_core.home import SERVICES, HomeLayout
from squirrel_core.port_in_use import (
    PORT_IN_USE_EXIT_CODE,
    PORT_SETTINGS,
    port_in_use_line,
    taken_setting,
)
from squirrel_core.service_info import (
    LOOPBACK,
    ServiceInfo,
    pid_alive,
    read_service_info,
    read_starting,
    write_service_info,
)
from squirrel_core.settings import Settings
from squirrel_core.team_in_use import LINKED_SERVICES, team_in_use_path


def _log() -> Any:
    """The supervisor's logger (structlog is loaded only by the commands that supervise)."""
    import structlog  # noqa: PLC0415

    return structlog.get_logger()


STABLE_AFTER_SECONDS = 30.0
RETRY_SIGNAL = signal.SIGUSR1
"""Sent by `sqrl up` to a running supervisor: start again the services it gave up on."""
FIRST_BACKOFF_SECONDS = 0.5
SERVING_POLL_SECONDS = 0.05
"""How often a starting service's file is read (health is asked once it is written, at SERVING)."""


class Supervisor:
    """Runs the three services as child processes of this one and keeps them up."""

    def __init__(
        self,
        settings: Settings,
        environ: Mapping[str, str],
        services: Sequence[str] = SERVICES,
        command: Callable[[str], Sequence[str]] = service_command,
    ) -> None:
        self._settings = settings
        self._command = command
        self._services = tuple(services)
        self._layout = HomeLayout(settings.home).ensure()
        self._environ = dict(environ)
        self._procs: dict[str, asyncio.subprocess.Process] = {}
        self._log_starts: dict[str, int] = {}
        """Where each service's log ended when it was last spawned: what it wrote since."""
        self._state = SupervisorState(
            pid=os.getpid(),
            started_at=time.time(),
            retry_signal=RETRY_SIGNAL.name,
            version=squirrel_version(),
        )
        self._stopping = asyncio.Event()
        self._watchers: list[asyncio.Task[None]] = []
        self._lock = HomeLock(self._layout.root)
        self._http_record: ServiceInfo | None = None
        self._kept = KeptRecords(
            [
                *(team_in_use_path(self._layout.run, name) for name in LINKED_SERVICES),
                self._layout.team_server_file,
                self._layout.serve_file,
            ]
        )
        """The records the services (and `sqrl serve`) write once: written again if deleted."""
        """The gateway's HTTP endpoint record, as it wrote it: written again if deleted."""

    # -- state -----------------------------------------------------------------------------------
    def _save(self) -> None:
        write_private_file(self._layout.supervisor_file, self._state.to_json())

    # -- processes -------------------------------------------------------------------------------
    async def _spawn(self, name: str) -> asyncio.subprocess.Process:
        # No port configured (the default): the service binds a free one itself and names it in
        # its service file. A port picked here and bound there a moment later could be taken in
        # between (by any outgoing connection's ephemeral port), and the service would fail to
        # start. A restarted service asks for the port it had, and takes another if it is gone.
        port = self._settings.int_(f"{name}.port")
        earlier = self._state.services.get(name)
        preferred = earlier.port if earlier is not None and not port else 0
        proc, self._log_starts[name] = await spawn_service(
            self._command,
            name,
            home=self._settings.home,
            layout=self._layout,
            environ=self._environ,
            port=port,
            preferred=preferred,
        )
        state = self._state.services.setdefault(name, ServiceState(name=name))
        state.pid = proc.pid
        state.port = port or preferred  # the port bound, once serving
        state.state = "starting"
        state.started_at = time.time()
        state.late = False
        state.waits_for = self._first_wait(name)
        self._procs[name] = proc
        self._save()
        _log().info(
            "service_spawned",
            service=name,
            pid=proc.pid,
            port=port or preferred,
            waits_for=state.waits_for,
            late_after_s=self._settings.float_("supervisor.start_timeout_seconds"),
        )
        return proc

    def _first_wait(self, name: str) -> str:
        return f"its record {self._layout.service_file(name).name} (written once it listens)"

    async def _wait_serving(
        self, name: str, proc: asyncio.subprocess.Process, *, bounded: bool = True
    ) -> bool:
        """Waits for `name` to serve: True once it does; False once it has exited, or (when
        `bounded`) once `supervisor.start_timeout_seconds` passed since it was spawned. What it
        waits for at each step is kept in its state (`waits_for`), for `sqrl status`."""
        # gRPC loads here, once the services are spawned: their start-up overlaps with it.
        from squirrel_core.clients import health_status  # noqa: PLC0415

        state = self._state.services[name]
        timeout = self._settings.float_("supervisor.start_timeout_seconds")
        deadline = time.monotonic() + max(0.0, timeout - (time.time() - state.started_at))
        service_file = self._layout.service_file(name)
        while not bounded or time.monotonic() < deadline:
            if self._stopping.is_set():  # `sqrl down` (or Ctrl-C) while it starts
                return False
            if proc.returncode is not None:
                self._note_exit(name, proc.returncode)
                return False
            info = read_service_info(service_file)
            waits_for = self._first_wait(name)
            if info is not None and info.pid == proc.pid:
                health = await health_status(info.target, timeout=1.0)
                waits_for = f"SERVING from its health check on {info.target} (answered {health})"
                if health == "SERVING":
                    waits_for = self._http_wait(name, proc)
                if not waits_for:
                    return self._serving(name, proc, info.port)
            if waits_for != state.waits_for:
                state.waits_for = waits_for
                self._save()
            await asyncio.sleep(SERVING_POLL_SECONDS)
        return False

    def _serving(self, name: str, proc: asyncio.subprocess.Process, port: int) -> bool:
        state = self._state.services[name]
        late, state.late = state.late, False
        state.state = "serving"
        state.port = port
        state.problem = ""
        state.waits_for = ""
        self._save()
        waited = round(time.time() - state.started_at, 1)
        _log().info(
            "service_ready", service=name, pid=proc.pid, port=port, waited_s=waited, late=late
        )
        return True

    def _http_wait(self, name: str, proc: asyncio.subprocess.Process) -> str:
        """What the gateway still lacks to count as up ("" when nothing): its loopback HTTP
        endpoint answers too (it starts a moment after SERVING). Hooks and the quick CLI reads
        go there, so a session started right after `sqrl up` is not left waiting for it within
        its hook's deadline."""
        if name != "gateway":
            return ""
        http = read_service_info(self._layout.gateway_http_file)
        if http is not None and http.pid == proc.pid:
            self._http_record = http
            return ""
        return f"its HTTP endpoint's record {self._layout.gateway_http_file.name}"

    def _note_late(self, name: str, proc: asyncio.subprocess.Process) -> None:
        """`name` runs but has not served within the start timeout: it is kept, and joins the
        others once it serves (a loaded machine, a long migration); its state and one log line
        say what it is waiting for."""
        state = self._state.services[name]
        state.late = True
        self._save()
        _log().warning(
            "service_late",
            service=name,
            pid=proc.pid,
            waited_s=round(time.time() - state.started_at, 1),
            waits_for=state.waits_for,
            its_start=read_starting(self._layout.starting_file(name)),
            keeps_waiting=True,
        )

    async def _join(self, name: str, proc: asyncio.subprocess.Process) -> None:
        """Waits for `name` to serve, past the start timeout if it is still running then."""
        if not await self._wait_serving(name, proc):
            await self._join_late(name, proc)

    async def _join_late(self, name: str, proc: asyncio.subprocess.Process) -> None:
        """Waits, without a deadline, for a service past its start timeout to serve (or exit)."""
        if proc.returncode is None and not self._stopping.is_set():
            self._note_late(name, proc)
            await self._wait_serving(name, proc, bounded=False)

    def _note_exit(self, name: str, code: int) -> None:
        """Records why `name` exited when the user can fix it: its configured port is taken, or
        it refused its configuration (the reason of the `config_refused` event it logged)."""
        state = self._state.services[name]
        before, state.problem = state.problem, ""
        if code != PORT_IN_USE_EXIT_CODE:
            log_path = self._layout.log_file(name)
            reason = refusal_reason(log_path, self._log_starts.get(name, 0))
            if reason is not None:
                state.problem = refused_line(name, reason, log_path)
            return
        configured = {
            setting: port
            for setting in PORT_SETTINGS.get(name, ())
            if (port := self._settings.int_(setting))
        }
        # The service named the port in its log; here it is found again, still taken.
        taken = taken_setting(configured) or next(iter(configured.items()), None)
        if taken is not None:
            setting, port = taken
            state.problem = port_in_use_line(name, port, setting)
            if state.problem != before:  # once, not at every restart (or twice for one exit)
                _log().error("service_port_in_use", service=name, port=port, setting=setting)

    async def _terminate(self, name: str) -> None:
        proc = self._procs.get(name)
        if proc is None or proc.returncode is not None:
            return
        grace = self._settings.float_("supervisor.stop_grace_seconds")
        _log().info(
            "service_stopping",
            service=name,
            pid=proc.pid,
            waits_for="exit after SIGTERM",
            kills_after_s=grace,
        )
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            _log().warning("service_killed", service=name, pid=proc.pid, waited_s=grace)
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        state = self._state.services.get(name)
        if state is not None:
            state.state = "stopped"
            self._save()

    def _give_up(self, name: str, code: int, times: int, seconds: float) -> None:
        """`name` exited the same way too often (`CrashLoop`): it is left stopped, its state
        says why (after the cause found for its last exit, if one was), and one line is logged."""
        state = self._state.services[name]
        log_path = self._layout.log_file(name)
        line = given_up_line(name, code, times, seconds, log_path)
        state.problem = f"{state.problem} {line}" if state.problem else line
        state.state = "failed"
        state.next_restart_in = 0.0
        self._save()
        _log().error(
            "service_given_up",
            service=name,
            exit=exit_way(code),
            times=times,
            within_s=round(seconds, 1),
            log=str(log_path),
        )

    async def _watch(self, name: str, *, late: bool = False) -> None:
        """Restarts `name` with exponential backoff whenever it exits, until stopping or until
        it exited the same way `supervisor.crash_limit` times within
        `supervisor.crash_window_seconds` (then it is left stopped, saying why); a `late` one
        is first waited for until it serves (or exits)."""
        if late:
            await self._join_late(name, self._procs[name])
        backoff = FIRST_BACKOFF_SECONDS
        max_backoff = self._settings.float_("supervisor.max_backoff_seconds")
        crashes = CrashLoop(
            self._settings.int_("supervisor.crash_limit"),
            self._settings.float_("supervisor.crash_window_seconds"),
        )
        while not self._stopping.is_set():
            proc = self._procs[name]
            code = await proc.wait()
            if self._stopping.is_set():
                return
            state = self._state.services[name]
            uptime = time.time() - state.started_at
            if uptime >= STABLE_AFTER_SECONDS:
                backoff = FIRST_BACKOFF_SECONDS
            self._note_exit(name, code)
            state.last_exit_code = code
            times = crashes.exited(code, time.monotonic())
            if times >= crashes.limit:
                self._give_up(name, code, times, crashes.span(code))
                return
            state.state = "restarting"
            state.next_restart_in = backoff
            self._save()
            _log().warning("service_exited", service=name, exit_code=code, restart_in_s=backoff)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), backoff)
            if self._stopping.is_set():
                return
            backoff = min(backoff * 2, max_backoff)
            state.restarts += 1
            await self._join(name, await self._spawn(name))

    def _retry_failed(self) -> None:
        """Starts again, each with a fresh crash count, the services given up on (`_give_up`):
        `sqrl up` asks for it (`RETRY_SIGNAL`) once the user has fixed the cause."""
        if self._stopping.is_set():
            return
        for name, state in self._state.services.items():
            if state.state != "failed":
                continue
            state.state = "starting"  # a second signal meanwhile starts no second one
            state.problem = ""
            self._save()
            last = exit_way(state.last_exit_code) if state.last_exit_code is not None else ""
            _log().info("service_retried", service=name, last_exit=last)
            self._watchers.append(asyncio.create_task(self._retry(name), name=f"retry-{name}"))

    async def _retry(self, name: str) -> None:
        self._state.services[name].restarts += 1
        await self._join(name, await self._spawn(name))
        await self._watch(name)

    # -- records ---------------------------------------------------------------------------------
    async def _keep_records(self) -> None:
        """Writes again, every `RECORDS_CHECK_SECONDS`, the records under `<home>/run` deleted
        while the services run (the folder removed by hand, a cleaner of temporary files):
        without them `sqrl down` found nothing to stop, `sqrl up` started a second set of
        services, and the CLI, hooks and the services themselves could not reach one another."""
        while not self._stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), RECORDS_CHECK_SECONDS)
            if not self._stopping.is_set():
                self._restore_records()

    def _restore_records(self) -> None:
        """Writes the supervisor's state and the record of each serving service (and the
        gateway's HTTP endpoint, the team server each uses, a team server's address:
        `KeptRecords`) where they are missing; one log line names what was."""
        restored = []
        if not self._layout.supervisor_file.exists():
            self._layout.ensure()
            self._save()
            restored.append(self._layout.supervisor_file.name)
        for name, state in self._state.services.items():
            if state.state != "serving" or not pid_alive(state.pid):
                continue
            record = self._layout.service_file(name)
            if not record.exists():
                info = ServiceInfo(name, state.pid, LOOPBACK, state.port, state.started_at)
                write_service_info(record, info)
                restored.append(record.name)
            http = self._http_record
            gone = not self._layout.gateway_http_file.exists()
            if name == "gateway" and http is not None and http.pid == state.pid and gone:
                write_service_info(self._layout.gateway_http_file, http)
                restored.append(self._layout.gateway_http_file.name)
        serving = [s.pid for s in self._state.services.values() if s.state == "serving"]
        restored += self._kept.restore({os.getpid(), *(p for p in serving if pid_alive(p))})
        if restored:
            _log().warning("run_records_restored", records=restored)

    # -- life ------------------------------------------------------------------------------------
    async def run(self) -> int:
        """Starts everything, supervises until SIGINT/SIGTERM, stops in reverse order."""
        if not self._lock.acquire():
            current = read_supervisor_state(self._layout.supervisor_file)
            pid = current.pid if current else "?"
            raise FailedPreconditionError(
                f"Squirrel is already running for {self._layout.root} (supervisor pid {pid})"
            )
        if earlier_lock_held(self._layout):  # one of an earlier version: it holds no home lock
            self._lock.release()
            raise FailedPreconditionError(
                f"a Squirrel supervisor of an earlier version is running for {self._layout.root}"
                f" (it holds {self._layout.run / EARLIER_LOCK}); run `sqrl down`, then `sqrl up`"
            )
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self._stopping.set)
        loop.add_signal_handler(RETRY_SIGNAL, self._retry_failed)
        watchers = self._watchers
        try:
            self._layout.up_failure_file.unlink(missing_ok=True)
            self._save()
            # All at once: none needs another to reach SERVING (ingest and the gateway reach
            # the memory service lazily, with retries), so start-up costs the slowest, not
            # the sum.
            procs = {name: await self._spawn(name) for name in self._services}
            ready = await asyncio.gather(
                *(self._wait_serving(name, proc) for name, proc in procs.items())
            )
            if self._stopping.is_set():  # asked to stop before all served: stopped below
                return 0
            late: list[str] = []
            for name, serving in zip(self._services, ready, strict=True):
                problem = self._state.services[name].problem
                if not serving and problem:
                    write_private_file(self._layout.up_failure_file, (problem + "\n").encode())
                    raise FailedPreconditionError(problem)
                if not serving and procs[name].returncode is not None:
                    raise UnavailableError(
                        f"the {name} service did not start; see {self._layout.log_file(name)}"
                    )
                if not serving:  # still starting: the others go on, it joins once it serves
                    late.append(name)
            for name in self._services:
                watch = self._watch(name, late=name in late)
                watchers.append(asyncio.create_task(watch, name=f"watch-{name}"))
            watchers.append(asyncio.create_task(self._keep_records(), name="keep-records"))
            serving_now = [name for name in self._services if name not in late]
            _log().info("services_up", services=serving_now, still_starting=late)
            await self._stopping.wait()
            return 0
        finally:
            self._stopping.set()
            loop.remove_signal_handler(RETRY_SIGNAL)
            for task in watchers:
                task.cancel()
            for name in reversed(self._services):
                await self._terminate(name)
            self._layout.supervisor_file.unlink(missing_ok=True)
            self._lock.release()
            _log().info("services_down")


def state_as_dict(state: SupervisorState) -> dict[str, Any]:
    return asdict(state)
