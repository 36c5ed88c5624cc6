"""`storage.postgres_hnsw_m` and `storage.postgres_hnsw_ef_construction` are the graph of the
HNSW index the memory service makes on Postgres (pgvector's `m`, `ef_construction`), checked
at start; an index already built keeps its graph and is named once in the log. On a real
Postgres, each test in a database of its own."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest
import structlog

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.settings import Settings, coerce, lookup
from squirrel_memory.storage.backends import PostgresBackend, backend_from_settings
from tests.service_exit import events, run_to_exit

DIM = 8
MODEL = "graph-model"
INDEX = f"memory_vectors_hnsw_{DIM}"


def _built(dsn: str) -> list[str] | None:
    """The storage options of the HNSW index, as Postgres keeps them."""
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT reloptions FROM pg_class WHERE oid = to_regclass(%s)", (INDEX,)
        ).fetchone()
    assert row is not None, "no HNSW index was made"
    return None if row[0] is None else sorted(str(option) for option in row[0])


def _settings(tmp_path: Path, dsn: str, **values: int) -> Settings:
    tuned = {f"storage__postgres_hnsw_{name}": value for name, value in values.items()}
    return Settings(tmp_path).with_values(
        storage__backend="postgres", storage__postgres_dsn=dsn, **tuned
    )


async def _open_index(settings: Settings, project: str) -> None:
    backend = backend_from_settings(settings)
    try:
        store = await backend.open_store(project, None)
        await asyncio.to_thread(store.open_vector_index, DIM, MODEL)
    finally:
        await backend.close()


async def test_the_index_is_built_with_the_settings_graph(database: str, tmp_path: Path) -> None:
    await _open_index(_settings(tmp_path, database, m=12, ef_construction=48), "/p/one")
    assert _built(database) == ["ef_construction=48", "m=12"]


async def test_by_default_the_index_has_pgvectors_graph(database: str, tmp_path: Path) -> None:
    await _open_index(
        Settings(tmp_path).with_values(storage__backend="postgres", storage__postgres_dsn=database),
        "/p/one",
    )
    assert _built(database) == ["ef_construction=64", "m=16"]


async def test_a_built_index_keeps_its_graph_and_is_named_once(
    database: str, tmp_path: Path
) -> None:
    await _open_index(_settings(tmp_path, database, m=12, ef_construction=48), "/p/one")
    backend = backend_from_settings(_settings(tmp_path, database, m=24, ef_construction=96))
    try:
        with structlog.testing.capture_logs() as logs:
            for project in ("/p/one", "/p/two"):
                store = await backend.open_store(project, None)
                await asyncio.to_thread(store.open_vector_index, DIM, MODEL)
    finally:
        await backend.close()
    assert _built(database) == ["ef_construction=48", "m=12"]
    differs = [e for e in logs if e["event"] == "hnsw_index_differs"]
    assert differs == [
        {
            "event": "hnsw_index_differs",
            "log_level": "warning",
            "index": INDEX,
            "built_m": 12,
            "built_ef_construction": 48,
            "setting_m": 24,
            "setting_ef_construction": 96,
        }
    ]


async def test_an_index_built_as_the_settings_ask_is_not_named(
    database: str, tmp_path: Path
) -> None:
    settings = _settings(tmp_path, database, m=12, ef_construction=48)
    await _open_index(settings, "/p/one")
    with structlog.testing.capture_logs() as logs:
        await _open_index(settings, "/p/two")
    assert [e for e in logs if e["event"] == "hnsw_index_differs"] == []


@pytest.mark.parametrize(("m", "ef_construction"), [(16, 31), (50, 99)])
def test_ef_construction_under_twice_m_is_refused_at_start(
    tmp_path: Path, m: int, ef_construction: int
) -> None:
    settings = _settings(
        tmp_path, "postgresql://db.invalid/x", m=m, ef_construction=ef_construction
    )
    with pytest.raises(InvalidArgumentError, match=r"storage\.postgres_hnsw_ef_construction"):
        backend_from_settings(settings)


@pytest.mark.parametrize(("m", "ef_construction"), [(16, 32), (2, 4), (100, 1000)])
def test_a_graph_pgvector_takes_is_accepted(tmp_path: Path, m: int, ef_construction: int) -> None:
    settings = _settings(
        tmp_path, "postgresql://db.invalid/x", m=m, ef_construction=ef_construction
    )
    assert isinstance(backend_from_settings(settings), PostgresBackend)


@pytest.mark.parametrize(
    ("name", "raw", "ok"),
    [
        ("storage.postgres_hnsw_m", "1", False),
        ("storage.postgres_hnsw_m", "2", True),
        ("storage.postgres_hnsw_m", "100", True),
        ("storage.postgres_hnsw_m", "101", False),
        ("storage.postgres_hnsw_ef_construction", "3", False),
        ("storage.postgres_hnsw_ef_construction", "4", True),
        ("storage.postgres_hnsw_ef_construction", "1000", True),
        ("storage.postgres_hnsw_ef_construction", "1001", False),
    ],
)
def test_each_setting_takes_only_what_pgvector_takes(name: str, raw: str, ok: bool) -> None:
    setting = lookup(name)
    if ok:
        assert coerce(setting, raw) == int(raw)
    else:
        with pytest.raises(InvalidArgumentError, match=name.replace(".", r"\.")):
            coerce(setting, raw)


def test_the_memory_service_refuses_a_bad_graph_with_one_event(tmp_path: Path) -> None:
    done = run_to_exit(
        "memory",
        tmp_path / "home",
        SQRL_STORAGE_BACKEND="postgres",
        SQRL_STORAGE_POSTGRES_DSN="postgresql://squirrel@db.invalid:5432/squirrel",
        SQRL_STORAGE_POSTGRES_HNSW_M="32",
        SQRL_STORAGE_POSTGRES_HNSW_EF_CONSTRUCTION="40",
    )
    assert done.returncode == 2
    last = events(done.stderr)[-1]  # only JSON: no traceback
    assert last["event"] == "config_refused"
    assert last["reason"].startswith("storage.postgres_hnsw_ef_construction (40)")
