"""`sqrl up` while the supervisor runs and has given up on a service (`supervisor.crash_limit`):
it asks that supervisor to start the service again (`RETRY_SIGNAL`), waits for it to serve or
to be given up on again, and says which in one line."""

from __future__ import annotations

import os
import signal
import time

from squirrel_cli.console import Console
from squirrel_cli.supervisor_state import SupervisorState, failed_services, read_supervisor_state
from squirrel_core.errors import FailedPreconditionError
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings

POLL_SECONDS = 0.05


def _named(names: list[str]) -> str:
    services = " and ".join(names)
    return f"the {services} service" + ("s" if len(names) > 1 else "")


def retry_failed(
    settings: Settings, layout: HomeLayout, running: SupervisorState, console: Console
) -> int:
    """Starts again the services `running` gave up on; 0 once they serve (or are still
    starting at the deadline: they join once they serve). Raises with the supervisor's line when
    one is given up on again, or when this supervisor cannot be asked."""
    failed = failed_services(running)
    which = _named(failed)
    if not running.retry_signal:
        raise FailedPreconditionError(
            f"Squirrel is running (supervisor pid {running.pid}) but gave up on {which}, and this"
            " supervisor cannot be asked to start it again; run `sqrl down`, then `sqrl up -d`."
        )
    before = {name: running.services[name].started_at for name in failed}
    os.kill(running.pid, signal.Signals[running.retry_signal])
    # Each start may take the start timeout, and a crash loop its restarts' backoff first.
    timeout = settings.float_("supervisor.start_timeout_seconds") * (
        1 + settings.int_("supervisor.crash_limit")
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = read_supervisor_state(layout.supervisor_file)
        if state is None or state.pid != running.pid:
            raise FailedPreconditionError(
                f"the supervisor (pid {running.pid}) stopped while starting {which} again;"
                f" see {layout.log_file('supervisor')}"
            )
        now = {name: state.services[name] for name in failed if name in state.services}
        fresh = {n: s for n, s in now.items() if s.started_at > before[n]}
        again = [s for s in fresh.values() if s.state == "failed"]
        if again:
            raise FailedPreconditionError(" ".join(s.problem for s in again))
        if len(fresh) == len(failed) and all(s.state == "serving" for s in fresh.values()):
            ports = ", ".join(f"{s.name} :{s.port}" for s in fresh.values())
            console.line(
                f"Started {which} again under the running supervisor (pid {running.pid}; {ports})."
            )
            return 0
        time.sleep(POLL_SECONDS)
    console.line(
        f"Started {which} again under the running supervisor (pid {running.pid}); not serving"
        " yet: it joins once it serves (`sqrl status` says when)."
    )
    return 0
