"""The batch and migration benchmarks measure what they say, on a real Postgres: every memory a
batch writes has its CREATED history row, whichever way its history is sent, and both ways rank
alike; the migration ends at schema 8 with the words of every loaded memory counted."""

from __future__ import annotations

import re

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from bench import team_batch, team_migration

_RECOUNT = (
    "SELECT lexeme, count(*) FROM memory_items, unnest(tsvector_to_array(search)) AS lexeme "
    "WHERE NOT deleted GROUP BY lexeme"
)


def test_each_batch_keeps_every_history_row_and_both_ways_rank_alike(
    postgres_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ways = ["--variants", "now,history-one"]
    team_batch.main(["--sizes", "300", "--rounds", "1", *ways, "--postgres-dsn", postgres_dsn])
    out = capsys.readouterr().out
    digests = re.findall(r"\| ([0-9a-f]{12}), (now|history-one)", out)
    assert {way for _, way in digests} == {"now", "history-one"}
    assert len({digest for digest, _ in digests}) == 1
    assert "word-count trigger p50" in out
    with psycopg.connect(make_conninfo(postgres_dsn, dbname="batch_300")) as conn:
        row = conn.execute(
            "SELECT count(*), count(DISTINCT h.memory_id) FROM memory_items m "
            "JOIN memory_history h ON h.memory_id = m.id AND h.action = 'created'"
        ).fetchone()
        (memories,) = conn.execute("SELECT count(*) FROM memory_items").fetchone() or (0,)
    assert memories == 300 + 2 * 500
    assert row == (memories, memories)


def test_the_migration_ends_at_version_8_with_every_word_counted(
    postgres_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    team_migration.main(["--sizes", "300", "--repeats", "1", "--postgres-dsn", postgres_dsn])
    assert "migration to version 8" in capsys.readouterr().out
    with psycopg.connect(make_conninfo(postgres_dsn, dbname="migrate_300")) as conn:
        (version,) = conn.execute("SELECT max(version) FROM squirrel_schema_version").fetchone()
        kept = dict(conn.execute("SELECT lexeme, docs FROM memory_search_words").fetchall())
        counted = dict(conn.execute(_RECOUNT).fetchall())
    assert version == 8
    assert kept == counted and len(kept) > 300
