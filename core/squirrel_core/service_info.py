"""Where a running service listens: `<home>/run/<name>-service.json`, read by every client.

Kept apart from `rpc.py` (the server side) so that clients load neither the server machinery
nor its logging.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from squirrel_core.files import write_private_file
from squirrel_core.process_alive import pid_alive

LOOPBACK = "127.0.0.1"
MAX_MESSAGE_BYTES = 32 * 1024 * 1024
"""Largest gRPC message either side sends or accepts."""


@dataclass(frozen=True, slots=True)
class ServiceInfo:
    """What `<home>/run/<name>-service.json` records about a running service."""

    name: str
    pid: int
    host: str
    port: int
    started_at: float

    @property
    def target(self) -> str:
        return f"{self.host}:{self.port}"


def write_service_info(path: Path, info: ServiceInfo) -> None:
    payload = {
        "name": info.name,
        "pid": info.pid,
        "host": info.host,
        "port": info.port,
        "started_at": info.started_at,
    }
    write_private_file(path, (json.dumps(payload) + "\n").encode())


def read_service_info(path: Path) -> ServiceInfo | None:
    """The recorded service, or None when the file is missing or unreadable."""
    try:
        data = json.loads(path.read_text())
        return ServiceInfo(
            name=str(data["name"]),
            pid=int(data["pid"]),
            host=str(data["host"]),
            port=int(data["port"]),
            started_at=float(data["started_at"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_starting(path: Path, text: str) -> None:
    """Records how far this process's start is (`<home>/run/<name>-starting.json`)."""
    payload = {"pid": os.getpid(), "text": text}
    write_private_file(path, (json.dumps(payload) + "\n").encode())


def read_starting(path: Path) -> str | None:
    """How far a running service's start is, or None: no record, an unreadable one, or one a
    process that is gone left behind."""
    try:
        data = json.loads(path.read_text())
        pid, text = int(data["pid"]), str(data["text"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return text if pid_alive(pid) else None


def clear_starting(path: Path) -> None:
    """Removes this process's record of its start (another process's is left alone)."""
    try:
        data = json.loads(path.read_text())
        mine = int(data["pid"]) == os.getpid()
    except (OSError, ValueError, KeyError, TypeError):
        return
    if mine:
        path.unlink(missing_ok=True)


def wait_service_info(path: Path, *, writer: Path, timeout: float) -> ServiceInfo | None:
    """The record at `path`, waiting up to `timeout` seconds for it while the service that
    writes it is recorded at `writer` and running (the gateway starts its HTTP endpoint a
    moment after it reports SERVING); None at once when neither is there."""
    deadline = time.monotonic() + timeout
    while True:
        info = read_service_info(path)
        if info is not None or not _running(writer) or time.monotonic() >= deadline:
            return info
        time.sleep(0.02)


def _running(record: Path) -> bool:
    """Whether the process recorded at `record` is alive (a crash leaves its record behind)."""
    info = read_service_info(record)
    return info is not None and pid_alive(info.pid)


__all__ = [
    "LOOPBACK",
    "MAX_MESSAGE_BYTES",
    "ServiceInfo",
    "pid_alive",
    "read_service_info",
    "wait_service_info",
    "write_service_info",
]
