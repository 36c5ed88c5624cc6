"""What `sqrl doctor` reads of a project's data.db without a service, and its cursor repair."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from squirrel_core.store_health import (
    FullTextCounts,
    SourceCursorRow,
    forget_cursors,
    schema_and_integrity,
    store_facts,
)
from squirrel_memory.bootstrap import init_project_files
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS


@pytest.fixture
def data_db(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    init_project_files(repo)
    return repo / ".ctx" / "data.db"


def execute(db: Path, *statements: str) -> None:
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        for sql in statements:
            conn.execute(sql)


def cursor_sql(tool: str, path: str, offset: int) -> str:
    return (
        "INSERT INTO source_cursors VALUES "
        f"('/repo', '{tool}', '{path}', 1, {offset}, '{{}}', '2026-01-01')"
    )


def letter_sql(kind: str, error: str) -> str:
    return (
        "INSERT INTO dead_letters (kind, payload_ref, error, attempts, created_at, updated_at) "
        f"VALUES ('{kind}', 'ep', '{error}', 1, '2026-01-01', '2026-01-01')"
    )


def test_a_fresh_store_is_at_the_latest_schema_and_in_step(data_db: Path) -> None:
    assert schema_and_integrity(data_db, thorough=True) == (len(DATA_MIGRATIONS), "ok")
    facts = store_facts(data_db)
    assert facts.full_text == FullTextCounts(live=0, docs=0, rows=0, missing=0)
    assert facts.full_text.in_step
    assert (facts.live_ids, facts.cursors, facts.dead_letters) == (frozenset(), (), ())


def test_counts_out_of_step_are_not_in_step() -> None:
    assert not FullTextCounts(live=2, docs=1, rows=1, missing=1).in_step
    assert not FullTextCounts(live=1, docs=1, rows=1, missing=1).in_step


def test_file_cursors_and_dead_letters_are_read_but_git_cursors_are_not(data_db: Path) -> None:
    execute(
        data_db,
        cursor_sql("claude_code", "/t/a.jsonl", 10),
        cursor_sql("git", "git:/repo", 0),
        letter_sql("extraction", "first"),
        letter_sql("model:claude_cli", "second"),
    )
    facts = store_facts(data_db)
    assert facts.cursors == (SourceCursorRow("claude_code", "/t/a.jsonl", 10),)
    assert facts.dead_letters == (("extraction", "first"), ("model:claude_cli", "second"))


def test_forgetting_cursors_drops_only_the_named_files_and_never_git(data_db: Path) -> None:
    execute(
        data_db,
        cursor_sql("claude_code", "/t/gone.jsonl", 10),
        cursor_sql("codex", "/t/kept.jsonl", 3),
        cursor_sql("git", "/t/gone.jsonl", 0),
    )
    forget_cursors(data_db, ["/t/gone.jsonl"])
    with contextlib.closing(sqlite3.connect(data_db)) as conn:
        left = sorted(conn.execute("SELECT source_tool, path FROM source_cursors").fetchall())
    assert left == [("codex", "/t/kept.jsonl"), ("git", "/t/gone.jsonl")]


def test_a_missing_file_is_an_error_and_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "data.db"
    with pytest.raises(sqlite3.Error):
        schema_and_integrity(missing, thorough=False)
    assert not missing.exists()
