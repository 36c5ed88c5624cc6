"""What `sqrl up` records of the services it runs (`<home>/run/supervisor.json`), and reading it.

Only the standard library is imported: `sqrl status` reads this without loading the supervisor
(asyncio, gRPC).
"""

from __future__ import annotations

import importlib.metadata
import json
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from squirrel_cli.home_lock import home_in_use, locked_elsewhere
from squirrel_core.errors import FailedPreconditionError
from squirrel_core.home import SERVICES, HomeLayout
from squirrel_core.service_info import pid_alive

RECORDS_CHECK_SECONDS = 1.0
"""How often a running supervisor looks whether its records under `<home>/run` are still there
(and writes again those that were deleted)."""
RECORD_WAIT_SECONDS = 5 * RECORDS_CHECK_SECONDS
"""How long `sqrl up` and `sqrl down` wait for a running supervisor to write its deleted record
again."""
EARLIER_LOCK = "supervisor.lock"
"""The file under `<home>/run` a supervisor older than the home lock (`home_lock`) locked for its
life: one still running after an upgrade holds it, and not the home."""


@dataclass
class ServiceState:
    """What the supervisor knows of one service; mirrored into `supervisor.json`."""

    name: str
    pid: int = 0
    port: int = 0
    state: str = "starting"
    started_at: float = 0.0
    restarts: int = 0
    last_exit_code: int | None = None
    next_restart_in: float = 0.0
    problem: str = ""
    """Why its last start failed, when the user can fix it (a configured port in use)."""
    waits_for: str = ""
    """While it starts: what the supervisor is waiting for before it counts as serving."""
    late: bool = False
    """It has not served within `supervisor.start_timeout_seconds`: the others run without it,
    and it joins them once it serves."""


@dataclass
class SupervisorState:
    """The content of `<home>/run/supervisor.json`."""

    pid: int
    started_at: float
    services: dict[str, ServiceState] = field(default_factory=dict)
    retry_signal: str = ""
    """The signal that makes it start again the services it gave up on (`sqrl up` sends it);
    "" for a supervisor that does not take one."""
    version: str = ""
    """The Squirrel version the supervisor runs (`squirrel_version`); "" for one older than this
    field."""

    def to_json(self) -> bytes:
        return (json.dumps(asdict(self), indent=2) + "\n").encode()


def read_supervisor_state(path: Path) -> SupervisorState | None:
    """The running supervisor's state, or None when no supervisor has written one."""
    try:
        data = json.loads(path.read_text())
        known = {f.name for f in fields(ServiceState)}
        # A field another version writes (or no longer writes) must not hide a running one.
        services = {
            k: ServiceState(**{n: x for n, x in v.items() if n in known})
            for k, v in data.get("services", {}).items()
        }
        return SupervisorState(
            pid=int(data["pid"]),
            started_at=float(data["started_at"]),
            services=services,
            retry_signal=str(data.get("retry_signal", "")),
            version=str(data.get("version", "")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def squirrel_version() -> str:
    """The installed Squirrel's version ("unknown" when its metadata cannot be read)."""
    try:
        return importlib.metadata.version("squirrel")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def other_version(state: SupervisorState) -> str | None:
    """A line saying that `state`'s supervisor runs another Squirrel version than this one, and
    what to do; None when it runs this one."""
    ours = squirrel_version()
    if state.version == ours:
        return None
    theirs = f"Squirrel {state.version}" if state.version else "an earlier Squirrel"
    return (
        f"{theirs} is still running for this home (supervisor pid {state.pid}); this sqrl is"
        f" {ours}. Run `sqrl down`, then `sqrl up -d`, to run {ours}."
    )


def earlier_lock_held(layout: HomeLayout) -> bool:
    """Whether a supervisor older than the home lock runs for this home: it holds
    `<home>/run/supervisor.lock`."""
    return locked_elsewhere(layout.run / EARLIER_LOCK)


def services_run(state: SupervisorState | None) -> tuple[str, ...]:
    """The services the supervisor runs, in start order: a team server's (`sqrl serve`) run no
    ingest. All of them when no supervisor has said which yet."""
    if state is None or not state.services:
        return SERVICES
    return tuple(name for name in SERVICES if name in state.services)


def failed_services(state: SupervisorState) -> list[str]:
    """The services the supervisor gave up on (`supervisor.crash_limit`), in start order."""
    return [
        name
        for name in SERVICES
        if name in state.services and state.services[name].state == "failed"
    ]


def supervisor_running(layout: HomeLayout) -> SupervisorState | None:
    """The state of a live supervisor for this home, or None."""
    state = read_supervisor_state(layout.supervisor_file)
    if state is None or not pid_alive(state.pid):
        return None
    return state


def running_supervisor(
    layout: HomeLayout, wait: float = RECORD_WAIT_SECONDS
) -> SupervisorState | None:
    """The state of the supervisor running for this home, or None when none runs. One holds the
    home (`home_lock`) whatever became of `<home>/run`: when its record is gone (`run/` deleted
    while it runs), it writes it again within `RECORDS_CHECK_SECONDS`, which is waited for (up
    to `wait` seconds); one that does not is named in a `FailedPreconditionError`, and so is a
    supervisor of an earlier version that holds `EARLIER_LOCK` with no record to read."""
    state = supervisor_running(layout)
    if state is None and earlier_lock_held(layout):
        raise FailedPreconditionError(
            f"a Squirrel supervisor of an earlier version holds {layout.run / EARLIER_LOCK} but"
            f" has no record in {layout.run}; stop that `sqrl up` process (Ctrl-C, or `kill` the"
            f" pid `fuser {layout.run / EARLIER_LOCK}` names), then run `sqrl up` again"
        )
    deadline = time.monotonic() + wait
    while state is None and home_in_use(layout.root):
        if time.monotonic() >= deadline:
            raise FailedPreconditionError(
                f"a Squirrel supervisor holds {layout.root}, but its record"
                f" {layout.supervisor_file} is gone and did not come back within {wait:.0f}s;"
                " stop that `sqrl up` process (Ctrl-C, or `kill` it), then run `sqrl up` again"
            )
        time.sleep(0.05)
        state = supervisor_running(layout)
    return state
