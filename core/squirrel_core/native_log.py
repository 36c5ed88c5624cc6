"""gRPC's own log lines as structlog JSON events, so a service's stderr is JSON lines only.

gRPC's C core writes its messages straight to file descriptor 2, in its own text format
(`I1129 15:34:01.000914  19242 ssl_transport_security.cc:2563] Handshake failed ...`): a
plain-text client refused by the team server's TLS port, for one. `NativeStderr.capture()`
points descriptor 2 at a pipe and gives Python's `sys.stderr` (and so structlog, which is
configured after it) the real stderr. A thread reads the pipe: a TLS handshake refused becomes
one `tls_handshake_refused` event (the TLS library's reason, e.g. `WRONG_VERSION_NUMBER` for
plain text; no peer data, nothing of the bytes sent), any other gRPC line a `grpc_core_log`
event with its level, source and message; what is not a gRPC line (another library's output)
is passed through as it came. `close()` (at exit) restores descriptor 2 and writes what is
still in the pipe. A crash's own report (faulthandler) goes to the real stderr directly.
"""

from __future__ import annotations

import atexit
import contextlib
import faulthandler
import os
import re
import sys
import threading
from typing import IO

import structlog

# gRPC (absl) lines: severity letter, date, time, thread id, source file:line, message.
_GRPC_LINE = re.compile(
    r"^(?P<level>[IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+(?P<source>[\w./-]+:\d+)\] "
    r"(?P<message>.*)$"
)
_HANDSHAKE = re.compile(r"Handshake failed with (?:fatal )?error (?P<error>\w+)(?P<rest>.*)$")
_TLS_REASON = re.compile(r":(?P<reason>[A-Z][A-Z0-9_]{3,})(?::|$)")
_LEVELS = {"I": "info", "W": "warning", "E": "error", "F": "critical"}
_CLOSE_WAIT_SECONDS = 2.0


def event_of(line: str) -> tuple[str, str, dict[str, str]] | None:
    """The event (name, level, fields) of one gRPC log line, or None when it is not one."""
    found = _GRPC_LINE.match(line)
    if found is None:
        return None
    level = _LEVELS[found["level"]]
    message = found["message"].strip()
    handshake = _HANDSHAKE.search(message)
    if handshake is not None:
        reasons = _TLS_REASON.findall(handshake["rest"])
        fields = {"error": handshake["error"], "reason": reasons[0] if reasons else "unknown"}
        return "tls_handshake_refused", "info", fields
    return "grpc_core_log", level, {"source": found["source"], "message": message}


class NativeStderr:
    """Descriptor 2 read through a pipe by one thread (see the module docstring)."""

    def __init__(self, process: str, stream: IO[str], read_fd: int, saved_fd: int) -> None:
        self._process = process
        self._stream = stream
        self._read_fd = read_fd
        self._saved_fd = saved_fd
        self._thread = threading.Thread(target=self._pump, name="native-stderr", daemon=True)

    @classmethod
    def capture(cls, process: str) -> NativeStderr | None:
        """Starts reading descriptor 2 (None, nothing changed, when stderr is a terminal:
        the console shows gRPC's lines as they are)."""
        if sys.stderr is None or sys.stderr.isatty():
            return None
        sys.stderr.flush()
        saved = os.dup(2)
        stream = os.fdopen(os.dup(saved), "w", buffering=1, errors="backslashreplace")
        read_fd, write_fd = os.pipe()
        os.dup2(write_fd, 2)
        os.close(write_fd)
        sys.stderr = stream
        faulthandler.enable(stream)
        native = cls(process, stream, read_fd, saved)
        native._thread.start()
        atexit.register(native.close)
        return native

    def _pump(self) -> None:
        structlog.contextvars.bind_contextvars(process=self._process)
        log = structlog.get_logger()
        with os.fdopen(self._read_fd, "r", errors="backslashreplace") as pipe:
            for line in pipe:
                # The pipe is drained whatever happens to one line: a writer blocked on a
                # full pipe would stop the service's native threads.
                with contextlib.suppress(Exception):
                    found = event_of(line.rstrip("\n"))
                    if found is None:
                        self._stream.write(line)
                    else:
                        name, level, fields = found
                        getattr(log, level)(name, **fields)

    def close(self) -> None:
        """Descriptor 2 back to the real stderr; what the pipe still holds is written."""
        if self._saved_fd >= 0:
            os.dup2(self._saved_fd, 2)  # the pipe's last writer closed: the thread ends
            os.close(self._saved_fd)
            self._saved_fd = -1
        self._thread.join(_CLOSE_WAIT_SECONDS)
