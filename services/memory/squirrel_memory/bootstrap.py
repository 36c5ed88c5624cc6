"""Creating a project's `.ctx/` (schema included) and the global `user.db`, without a service."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

from squirrel_memory.paths import ProjectPaths, ensure_private_file, secure_sqlite_files
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
