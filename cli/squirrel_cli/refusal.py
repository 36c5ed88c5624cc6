"""Why a service refused its configuration, read back from the `config_refused` event it logged."""

from __future__ import annotations

import json
import os
from pathlib import Path

REFUSED_EVENT = "config_refused"
MAX_READ_BYTES = 256 * 1024
"""How much of a log's end is read for the event: a refused start writes a few lines."""


def refusal_reason(log_path: Path, start: int) -> str | None:
    """The reason of the last `config_refused` event written to a service's JSON log past byte
    `start` (where the log ended when the service was spawned), or None when there is none."""
    try:
        with log_path.open("rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(start, size - MAX_READ_BYTES))
            written = fh.read()
    except OSError:
        return None
    reason = None
    for line in written.splitlines():
        if REFUSED_EVENT.encode() not in line:
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("event") == REFUSED_EVENT:
            found = event.get("reason")
            reason = found if isinstance(found, str) and found else reason
    return reason


def refused_line(service: str, reason: str, log_path: Path) -> str:
    """What `sqrl up` and `sqrl status` say about a service that refused its configuration."""
    return f"The {service} service did not start: {reason}; see {log_path}"
