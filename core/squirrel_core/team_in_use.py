"""Which team server a running service was started with: `<home>/run/<name>-team.json`.

The gateway (reads, writes) and the memory service (delivery) read `team.server` once, at their
start; `sqrl team join` or `leave` while they run changes the setting, not them. `sqrl doctor`
compares the setting with these records to say when a restart is still needed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from squirrel_core.files import write_private_file
from squirrel_core.service_info import pid_alive
from squirrel_core.settings import Settings

LINKED_SERVICES = ("gateway", "memory")
"""The services that talk to the team server (ingest never does)."""


@dataclass(frozen=True, slots=True)
class TeamInUse:
    """A running service and the team server it uses ("" for local memory only)."""

    service: str
    server: str


def team_in_use_path(run_dir: Path, service: str) -> Path:
    return run_dir / f"{service}-team.json"


def record_team_in_use(run_dir: Path, service: str, settings: Settings) -> None:
    """Records, for this process, the team server `settings` name (a team server itself,
    which serves rather than joins, records "")."""
    server = settings.str_("team.server").strip()
    payload = {"pid": os.getpid(), "server": server}
    write_private_file(team_in_use_path(run_dir, service), (json.dumps(payload) + "\n").encode())


def clear_team_in_use(run_dir: Path, service: str) -> None:
    """Removes this process's record as it stops (another process's is left alone)."""
    path = team_in_use_path(run_dir, service)
    try:
        mine = int(json.loads(path.read_text())["pid"]) == os.getpid()
    except (OSError, ValueError, KeyError, TypeError):
        return
    if mine:
        path.unlink(missing_ok=True)


def teams_in_use(run_dir: Path) -> list[TeamInUse]:
    """What each running linked service uses; a record without a live process (a crash left
    it, or the service was stopped) or an unreadable one says nothing."""
    found: list[TeamInUse] = []
    for service in LINKED_SERVICES:
        try:
            data = json.loads(team_in_use_path(run_dir, service).read_text())
            pid, server = int(data["pid"]), str(data["server"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if pid_alive(pid):
            found.append(TeamInUse(service, server))
    return found


__all__ = [
    "LINKED_SERVICES",
    "TeamInUse",
    "clear_team_in_use",
    "record_team_in_use",
    "team_in_use_path",
    "teams_in_use",
]
