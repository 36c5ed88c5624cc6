"""Bringing a SQLite database to the code's schema version, and refusing one it must not touch
(newer, foreign or altered); the versions themselves are in `schema`."""

from __future__ import annotations

import contextlib
import functools
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from squirrel_core.errors import FailedPreconditionError
from squirrel_core.sqlite_files import current_version, table_exists
from squirrel_memory.storage.formats import to_db_time
from squirrel_memory.storage.sqlite.transaction import immediate

Step = str | Callable[[sqlite3.Connection], None]


class SchemaVersionError(FailedPreconditionError):
    """The database was written by a newer Squirrel; it is left untouched."""

    def __init__(self, *, found: int, supported: int) -> None:
        super().__init__(
            f"database schema version {found} is newer than this Squirrel supports "
            f"({supported}); upgrade Squirrel to open it"
        )
        self.found = found
        self.supported = supported


class ForeignDatabaseError(FailedPreconditionError):
    """The file is not a Squirrel database of a known shape; it is refused and left untouched."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"not a Squirrel database of a known shape ({reason}); it was not changed")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema version: the statements (or functions) that take the previous version to it."""

    version: int
    description: str
    steps: tuple[Step, ...]
    spec_table: str | None = None
    """On version 1: the table by which a database made from the spec's SQL alone (with no
    `schema_version`) is recognised."""


_VERSION_TABLE = (
    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
    "description TEXT NOT NULL, applied_at TEXT NOT NULL)"
)
Shape = dict[str, tuple[str, ...]]


def _run_steps(conn: sqlite3.Connection, steps: Sequence[Step]) -> None:
    """A migration's steps on `conn`, in order: a statement executed, a function called."""
    for step in steps:
        if isinstance(step, str):
            conn.execute(step)
        else:
            step(conn)


def shape_of(conn: sqlite3.Connection) -> Shape:
    """Tables, triggers and views as `"<type> <name>"`, with a table's column names (SQLite's own
    `sqlite_*` tables and indexes, which change no result, left out). Reading a hostile file's
    columns may fail: the caller refuses it."""
    shape: Shape = {}
    rows = conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type != 'index' "
        "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).fetchall()
    for kind, name in rows:
        columns: tuple[str, ...] = ()
        if kind == "table":
            found = conn.execute("SELECT name FROM pragma_table_info(?)", (name,)).fetchall()
            columns = tuple(str(c[0]) for c in found)
        shape[f"{kind} {name}"] = columns
    return shape


@functools.lru_cache(maxsize=32)
def _expected(
    migrations: tuple[Migration, ...], version: int
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The shape a database has at `version`, made by replaying the migrations in memory."""
    with contextlib.closing(sqlite3.connect(":memory:", isolation_level=None)) as conn:
        conn.execute(_VERSION_TABLE)
        for migration in migrations:
            if migration.version > version:
                break
            _run_steps(conn, migration.steps)
        return tuple(sorted(shape_of(conn).items()))


def _differences(found: Shape, wanted: Shape) -> str:
    extra = sorted(set(found) - set(wanted))
    missing = sorted(set(wanted) - set(found))
    changed = sorted(k for k in set(found) & set(wanted) if found[k] != wanted[k])
    parts = []
    for label, names in (("unexpected", extra), ("missing", missing), ("different", changed)):
        if names:
            parts.append(f"{label}: {', '.join(names[:5])}" + (" …" if len(names) > 5 else ""))
    return "; ".join(parts)


def check_database(conn: sqlite3.Connection, migrations: Sequence[Migration]) -> int:
    """The version of a database this code may migrate, read without writing anything.

    Refuses (and so never migrates) a file whose `schema_version` is newer than the code
    (`SchemaVersionError`), one that sets `PRAGMA user_version` (Squirrel never does), and one
    whose tables, columns, triggers or views differ from what the migrations made at
    its version (`ForeignDatabaseError`). An empty file is version 0.
    """
    known = tuple(migrations)
    latest = known[-1].version
    try:
        user_version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        found_shape = shape_of(conn)
        has_versions = table_exists(conn, "schema_version")
        version = current_version(conn) if has_versions else 0
    except sqlite3.DatabaseError as exc:
        raise ForeignDatabaseError(f"its schema cannot be read: {exc}") from None
    if user_version != 0:
        raise ForeignDatabaseError(
            f"it declares user_version {user_version}, which Squirrel never sets"
        )
    if version > latest:
        raise SchemaVersionError(found=version, supported=latest)
    wanted = dict(_expected(known, version))
    if not has_versions:
        if not found_shape:
            return 0
        wanted = dict(_expected(known, 1))
        wanted.pop("table schema_version", None)
        marker = known[0].spec_table
        spec_made = marker is not None and f"table {marker}" in found_shape
        if not spec_made or found_shape != wanted:
            diff = (
                _differences(found_shape, wanted)
                if spec_made
                else (f"tables {', '.join(sorted(found_shape)[:5])} and no schema_version")
            )
            raise ForeignDatabaseError(diff)
        return 0
    if found_shape != wanted:
        raise ForeignDatabaseError(f"at schema {version}: {_differences(found_shape, wanted)}")
    return version


def migrate(
    conn: sqlite3.Connection,
    migrations: Sequence[Migration],
    *,
    target: int | None = None,
) -> int:
    """Bring `conn` (autocommit mode) up to `target` (default: latest); return the version reached.

    `check_database` runs first and writes nothing: a newer, foreign or altered database is
    refused, never migrated. Each step runs in its own IMMEDIATE transaction with its version
    row, so a failure leaves the database at the previous version.
    """
    latest = migrations[-1].version
    goal = latest if target is None else target
    check_database(conn, migrations)
    with immediate(conn):
        if not table_exists(conn, "schema_version"):
            conn.execute(_VERSION_TABLE)
            marker = migrations[0].spec_table
            if marker is not None and table_exists(conn, marker):
                conn.execute(
                    "INSERT INTO schema_version VALUES (1, ?, ?)",
                    ("found existing spec tables", to_db_time(datetime.now(UTC))),
                )
    found = current_version(conn)
    if found > latest:
        raise SchemaVersionError(found=found, supported=latest)
    for migration in migrations:
        if migration.version <= found or migration.version > goal:
            continue
        with immediate(conn):
            _run_steps(conn, migration.steps)
            conn.execute(
                "INSERT INTO schema_version VALUES (?, ?, ?)",
                (migration.version, migration.description, to_db_time(datetime.now(UTC))),
            )
        found = migration.version
    return found
