"""The team benchmark opens its backend with the HNSW graph it builds and reports, so the index
it measures is the one it names; on a real Postgres."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from bench import team_scale
from squirrel_memory.storage import PostgresBackend


def test_the_backend_is_opened_with_the_graph_the_run_reports(
    postgres_dsn: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[object] = []

    class RecordingBackend(PostgresBackend):
        def __init__(self, dsn: str, **options: Any) -> None:
            opened.append(options.get("hnsw_graph"))
            super().__init__(dsn, **options)

    monkeypatch.setattr(team_scale, "PostgresBackend", RecordingBackend)
    small = ["--sizes", "40", "--projects", "0", "--queries", "4", "--pools", "10", "--check", "4"]
    graph = ["--hnsw-m", "24", "--ef-construction", "100"]
    team_scale.main([*small, *graph, "--postgres-dsn", postgres_dsn])

    assert "m 24, ef_construction 100" in capsys.readouterr().out
    assert opened == [(24, 100)]
    with psycopg.connect(make_conninfo(postgres_dsn, dbname="scale_one_40")) as conn:
        (built,) = conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname LIKE 'memory_vectors_hnsw_%'"
        ).fetchone() or ("",)
    assert "m='24'" in built and "ef_construction='100'" in built
