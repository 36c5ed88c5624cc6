"""When the supervisor stops restarting a service: it exited the same way (the same exit code, or
the same signal) `supervisor.crash_limit` times within `supervisor.crash_window_seconds`. A
restart would meet the same cause; the line it leaves says how the service exited, what that
usually means and what to do."""

from __future__ import annotations

import signal
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

#: What an exit by a signal usually means for a Squirrel service, and where to look.
_SIGNAL_HINTS = {
    "SIGBUS": (
        "a bus error: a file it had mapped into memory changed under it, such as a store's"
        " data.db-shm cut short or made immutable (`sqrl doctor` checks the stores' files)"
    ),
    "SIGSEGV": "a crash in native code (SQLite, FAISS, the embedding runtime)",
    "SIGKILL": "killed from outside: the system ran out of memory, or another program",
    "SIGABRT": "aborted by native code",
}


def exit_way(code: int) -> str:
    """How a process exited, as a person reads it: "exit code 1", "signal SIGBUS"."""
    if code >= 0:
        return f"exit code {code}"
    try:
        return f"signal {signal.Signals(-code).name}"
    except ValueError:
        return f"signal {-code}"


@dataclass
class CrashLoop:
    """The recent exits of one service, and whether it has now exited the same way too often."""

    limit: int
    window: float
    exits: deque[tuple[float, str]] = field(default_factory=deque)

    def exited(self, code: int, at: float) -> int:
        """Notes an exit at monotonic time `at`; how many exits the same way the window holds
        (this one included)."""
        way = exit_way(code)
        self.exits.append((at, way))
        while self.exits and at - self.exits[0][0] > self.window:
            self.exits.popleft()
        return sum(1 for _, w in self.exits if w == way)

    def span(self, code: int) -> float:
        """Seconds between the first and the last exit the same way as `code` in the window."""
        way = exit_way(code)
        times = [t for t, w in self.exits if w == way]
        return times[-1] - times[0] if times else 0.0


def given_up_line(name: str, code: int, times: int, seconds: float, log: Path) -> str:
    """The line `sqrl status` shows for a service no longer restarted."""
    way = exit_way(code)
    hint = _SIGNAL_HINTS.get(way.removeprefix("signal "), "")
    why = f" ({hint})" if hint else ""
    return (
        f"The {name} service exited {times} times in {seconds:.0f} s the same way, {way}{why};"
        f" it is no longer restarted. See the end of {log}, fix the cause, then run `sqrl up`"
        " (it starts the service again under the running supervisor)."
    )
