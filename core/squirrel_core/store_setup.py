"""Creating and migrating the memory service's SQLite files while no service runs (`sqrl init`,
`sqrl up`, `sqrl doctor --repair`): the memory service's own set-up program
(`python -m squirrel_memory.bootstrap`) does it, so the schema stays the service's alone and the
command line knows only this contract: its arguments and the one JSON object it prints."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from squirrel_core.errors import FailedPreconditionError, error_named

SETUP_MODULE = "squirrel_memory.bootstrap"
SETUP_TIMEOUT = 120.0
"""A migration of a large store may take a while; a set-up that hangs longer is reported."""


class StoreSetupError(FailedPreconditionError):
    """The set-up program failed on a database file (`sqlite`, `os`) or did not answer."""


@dataclass(frozen=True, slots=True)
class Schemas:
    """The schema versions this installation's memory service creates."""

    data: int
    user: int


def _run(*args: str) -> dict[str, object]:
    try:
        done = subprocess.run(
            [sys.executable, "-m", SETUP_MODULE, *args],
            capture_output=True,
            text=True,
            timeout=SETUP_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise StoreSetupError(f"the store set-up did not finish in {SETUP_TIMEOUT:.0f} s") from None
    try:
        reply = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        reply = None
    if not isinstance(reply, dict):
        tail = done.stderr.strip().splitlines()[-1:] or ["no answer"]
        raise StoreSetupError(f"the store set-up failed ({tail[0]})")
    error = reply.get("error")
    if error is None:
        return reply
    message = str(reply.get("message", ""))
    if error == "permission":
        raise PermissionError(message)
    if error in ("sqlite", "os"):
        raise StoreSetupError(message)
    raise error_named(str(error), message)


def latest_schemas() -> Schemas:
    reply = _run("schemas")
    return Schemas(data=int(str(reply["data"])), user=int(str(reply["user"])))


def init_user_db(path: Path) -> int:
    """Creates or upgrades the global `user.db`; returns its schema version."""
    return int(str(_run("user-db", str(path))["version"]))


def init_project_files(root: Path, store_dir: Path) -> None:
    """Creates the project's store folder (0700) and its `data.db` (0600) at the latest schema.
    Idempotent. Whether the folder is trusted is decided before (`store_placement`)."""
    _run("project", str(root), str(store_dir))
