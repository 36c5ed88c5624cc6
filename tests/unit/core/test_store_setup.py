"""The command line creates stores through the memory service's set-up program, and gets its
failures back as the errors they are."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from pathlib import Path

import pytest

from squirrel_core.errors import (
    FailedPreconditionError,
    InvalidArgumentError,
    SquirrelError,
    error_named,
)
from squirrel_core.sqlite_files import current_version
from squirrel_core.store_setup import (
    StoreSetupError,
    init_project_files,
    init_user_db,
    latest_schemas,
)
from squirrel_memory.bootstrap import setup_main
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS, USER_MIGRATIONS


def _version(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return current_version(conn)


def test_the_latest_schemas_are_the_services_own() -> None:
    schemas = latest_schemas()
    assert (schemas.data, schemas.user) == (
        DATA_MIGRATIONS[-1].version,
        USER_MIGRATIONS[-1].version,
    )


def test_a_project_store_and_the_user_db_are_created_private_at_the_latest_schema(
    tmp_path: Path,
) -> None:
    store = tmp_path / "repo" / ".ctx"
    (tmp_path / "repo").mkdir()
    init_project_files(tmp_path / "repo", store)
    assert _version(store / "data.db") == DATA_MIGRATIONS[-1].version
    assert (store / "data.db").stat().st_mode & 0o777 == 0o600
    assert store.stat().st_mode & 0o777 == 0o700
    user_db = tmp_path / "user.db"
    assert init_user_db(user_db) == USER_MIGRATIONS[-1].version
    assert init_user_db(user_db) == USER_MIGRATIONS[-1].version  # idempotent


def test_a_file_that_is_no_database_is_refused_and_kept(tmp_path: Path) -> None:
    user_db = tmp_path / "user.db"
    user_db.write_bytes(b"not a database at all, " * 100)
    with pytest.raises(FailedPreconditionError, match="not a Squirrel database"):
        init_user_db(user_db)
    assert user_db.read_bytes() == b"not a database at all, " * 100


def test_a_folder_in_the_way_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "user.db").mkdir()
    with pytest.raises(StoreSetupError, match=r"IsADirectoryError|unable to open"):
        init_user_db(tmp_path / "user.db")


def test_the_program_answers_wrong_arguments_with_its_usage() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert setup_main(["user-db"]) == 1
    reply = json.loads(out.getvalue())
    assert reply["error"] == "INVALID_ARGUMENT"
    assert "usage" in reply["message"]


def test_a_status_name_comes_back_as_its_error() -> None:
    assert type(error_named("INVALID_ARGUMENT", "x")) is InvalidArgumentError
    assert type(error_named("NO_SUCH_STATUS", "x")) is SquirrelError
