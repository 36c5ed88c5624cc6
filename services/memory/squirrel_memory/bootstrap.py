"""Creating a project's `.ctx/` (schema included) and the global `user.db`, without a service."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from squirrel_core.errors import SquirrelError
from squirrel_core.store_paths import ProjectPaths, ensure_private_file, secure_sqlite_files
from squirrel_memory.storage.sqlite.connection import connect
from squirrel_memory.storage.sqlite.migrator import Migration, migrate
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS, USER_MIGRATIONS


def _migrate_file(path: Path, migrations: Sequence[Migration]) -> int:
    ensure_private_file(path)
    with contextlib.closing(connect(path, migrations=migrations)) as conn:
        version = migrate(conn, migrations)
    secure_sqlite_files(path)
    return version


def init_project_files(root: Path, store_dir: Path | None = None) -> ProjectPaths:
    """Creates the store folder (default `<root>/.ctx/`, 0700) and `data.db` (0600) at the
    latest schema. Idempotent. Whether the folder is trusted is decided before (`provenance`)."""
    paths = ProjectPaths.for_project(str(root), store_dir).ensure()
    _migrate_file(paths.data_db, DATA_MIGRATIONS)
    return paths


def init_user_db(path: Path) -> int:
    """Creates or upgrades the global `user.db`; returns its schema version."""
    return _migrate_file(path, USER_MIGRATIONS)


SETUP_USAGE = (
    "python -m squirrel_memory.bootstrap (schemas | user-db PATH | project ROOT STORE_DIR)"
)


def setup_main(argv: Sequence[str]) -> int:
    """The store set-up as a program, for the command line (`squirrel_core.store_setup`), which
    creates and checks stores while no service runs. Prints one JSON object: the latest schema
    versions (`schemas`), or the version reached; a failure prints `{"error": kind, ...}` and
    exits 1 (`kind` is `permission`, `sqlite`, `os`, or the status name of a Squirrel error)."""
    try:
        if list(argv) == ["schemas"]:
            reply: dict[str, object] = {
                "data": DATA_MIGRATIONS[-1].version,
                "user": USER_MIGRATIONS[-1].version,
            }
        elif len(argv) == 2 and argv[0] == "user-db":
            reply = {"version": init_user_db(Path(argv[1]))}
        elif len(argv) == 3 and argv[0] == "project":
            init_project_files(Path(argv[1]), Path(argv[2]))
            reply = {"version": DATA_MIGRATIONS[-1].version}
        else:
            reply = {"error": "INVALID_ARGUMENT", "message": f"usage: {SETUP_USAGE}"}
    except PermissionError as exc:
        reply = {"error": "permission", "message": str(exc)}
    except SquirrelError as exc:
        reply = {"error": exc.status, "message": str(exc)}
    except sqlite3.Error as exc:
        reply = {"error": "sqlite", "message": f"{type(exc).__name__}: {exc}"}
    except OSError as exc:
        reply = {"error": "os", "message": f"{type(exc).__name__}: {exc}"}
    sys.stdout.write(json.dumps(reply) + "\n")
    return 1 if "error" in reply else 0


if __name__ == "__main__":
    sys.exit(setup_main(sys.argv[1:]))
