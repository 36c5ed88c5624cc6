"""`storage.postgres_hnsw_m` and `storage.postgres_hnsw_ef_construction` are the graph of the
HNSW index the memory service makes on Postgres (pgvector's `m`, `ef_construction`), checked
at start; an index built with another graph is rebuilt once at start, concurrently, writes going
on meanwhile. On a real Postgres, each test in a database of its own."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import numpy as np
import psycopg
import pytest
import structlog

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.settings import Settings, coerce, lookup
from squirrel_memory.storage.backends import PostgresBackend, backend_from_settings
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.graph_rebuild import REBUILD_LOCK_KEY
from tests.conftest import PATIENCE_SECONDS
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


def _indexes(dsn: str) -> list[str]:
    """The HNSW indexes of `memory_vectors`, by name (a rebuild's leftovers included)."""
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT relname FROM pg_class WHERE relname LIKE 'memory_vectors_hnsw_%' "
            "AND relkind = 'i' ORDER BY relname"
        ).fetchall()
    return [str(r[0]) for r in rows]


def _vectors(prefix: str, count: int) -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(len(prefix))
    return [(f"{prefix}_{n}", rng.normal(size=DIM).astype(np.float32)) for n in range(count)]


async def _open_index(
    settings: Settings, project: str, vectors: list[tuple[str, np.ndarray]] | None = None
) -> None:
    backend = backend_from_settings(settings)
    try:
        store = await backend.open_store(project, None)
        index, _ = await asyncio.to_thread(store.open_vector_index, DIM, MODEL)
        await asyncio.to_thread(index.upsert, vectors or [])
    finally:
        await backend.close()


@asynccontextmanager
async def _server(settings: Settings) -> AsyncIterator[tuple[PostgresBackend, PostgresDatabase]]:
    """A memory service's backend, connected (its start: a rebuild begins if one is due)."""
    backend = backend_from_settings(settings)
    assert isinstance(backend, PostgresBackend)
    try:
        yield backend, await backend.database()
    finally:
        await backend.close()


async def _rebuilt(database: PostgresDatabase) -> None:
    assert database.graph_rebuild is not None
    assert await asyncio.to_thread(database.graph_rebuild.wait, 60.0), "rebuild still running"


async def _found(backend: PostgresBackend, project: str, count: int) -> set[str]:
    store = await backend.open_store(project, None)
    index, _ = await asyncio.to_thread(store.open_vector_index, DIM, MODEL)
    hits = await asyncio.to_thread(index.search, np.ones(DIM, dtype=np.float32), count)
    return {memory_id for memory_id, _ in hits}


def _wait_for_the_build_to_wait(dsn: str) -> None:
    """Until the concurrent build waits for the writers of `memory_vectors` (a deadline only a
    stuck build reaches)."""
    deadline = time.monotonic() + PATIENCE_SECONDS
    with psycopg.connect(dsn, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute("SELECT phase FROM pg_stat_progress_create_index").fetchone()
            if row is not None and str(row[0]).startswith("waiting for writers"):
                return
            time.sleep(0.05)
    raise AssertionError("the rebuild never started building")


def _writer(dsn: str) -> psycopg.Connection[tuple[object, ...]]:
    """A connection in a transaction that wrote to `memory_vectors`: a concurrent build waits
    for it to end."""
    conn = psycopg.connect(dsn)
    conn.execute(
        "INSERT INTO memory_vectors (memory_id, project_id, model_id, dim, embedding) "
        "VALUES ('held', '/p/held', %s, %s, %s::vector)",
        (MODEL, DIM, str([1.0] * DIM)),
    )
    return conn


async def test_the_index_is_built_with_the_settings_graph(database: str, tmp_path: Path) -> None:
    await _open_index(_settings(tmp_path, database, m=12, ef_construction=48), "/p/one")
    assert _built(database) == ["ef_construction=48", "m=12"]


async def test_by_default_the_index_has_m_16_and_ef_construction_128(
    database: str, tmp_path: Path
) -> None:
    await _open_index(
        Settings(tmp_path).with_values(storage__backend="postgres", storage__postgres_dsn=database),
        "/p/one",
    )
    assert _built(database) == ["ef_construction=128", "m=16"]


async def test_an_index_built_with_another_graph_is_rebuilt_once_at_start(
    database: str, tmp_path: Path
) -> None:
    await _open_index(
        _settings(tmp_path, database, m=12, ef_construction=48), "/p/one", _vectors("one", 30)
    )
    settings = _settings(tmp_path, database, m=24, ef_construction=96)
    with structlog.testing.capture_logs() as logs:
        async with _server(settings) as (_, db):
            await _rebuilt(db)
        async with _server(settings) as (backend, db):  # the next start finds nothing to do
            await _rebuilt(db)
            found = await _found(backend, "/p/one", 30)
    assert _built(database) == ["ef_construction=96", "m=24"]
    assert _indexes(database) == [INDEX]
    assert found == {memory_id for memory_id, _ in _vectors("one", 30)}
    rebuilt = [e for e in logs if e["event"].startswith("hnsw_index_rebuil")]
    assert [e.pop("duration_ms") >= 0 for e in rebuilt] == [True]
    assert rebuilt == [
        {
            "event": "hnsw_index_rebuilt",
            "log_level": "info",
            "index": INDEX,
            "built_m": 12,
            "built_ef_construction": 48,
            "m": 24,
            "ef_construction": 96,
        }
    ]


@pytest.mark.parametrize("options", [" WITH (m = 16, ef_construction = 64)", ""])
async def test_the_graph_of_earlier_defaults_is_rebuilt_to_the_new_ones_at_start(
    database: str, tmp_path: Path, options: str
) -> None:
    """An index of the defaults before (pgvector's, 16 / 64, named or not) is rebuilt once to
    m 16 / ef_construction 128 by a server started on the defaults."""
    defaults = Settings(tmp_path).with_values(
        storage__backend="postgres", storage__postgres_dsn=database
    )
    await _open_index(defaults, "/p/one", _vectors("one", 30))
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(f"DROP INDEX {INDEX}")
        conn.execute(
            f"CREATE INDEX {INDEX} ON memory_vectors USING hnsw "
            f"((embedding::vector({DIM})) vector_cosine_ops){options} WHERE dim = {DIM}"
        )
    with structlog.testing.capture_logs() as logs:
        async with _server(defaults) as (backend, db):
            await _rebuilt(db)
            found = await _found(backend, "/p/one", 30)
    assert _built(database) == ["ef_construction=128", "m=16"]
    assert found == {memory_id for memory_id, _ in _vectors("one", 30)}
    rebuilt = [e for e in logs if e["event"] == "hnsw_index_rebuilt"]
    assert [(e["built_m"], e["built_ef_construction"]) for e in rebuilt] == [(16, 64)]


async def test_an_index_built_as_the_settings_ask_is_left_alone(
    database: str, tmp_path: Path
) -> None:
    settings = _settings(tmp_path, database, m=12, ef_construction=48)
    await _open_index(settings, "/p/one")
    with psycopg.connect(database) as conn:
        before = conn.execute("SELECT to_regclass(%s)::oid", (INDEX,)).fetchone()
    with structlog.testing.capture_logs() as logs:
        async with _server(settings) as (_, db):
            await _rebuilt(db)
    with psycopg.connect(database) as conn:
        assert conn.execute("SELECT to_regclass(%s)::oid", (INDEX,)).fetchone() == before
    assert [e for e in logs if e["event"].startswith("hnsw_index_rebuil")] == []


async def test_writes_and_new_projects_go_on_while_the_index_is_rebuilt(
    database: str, tmp_path: Path
) -> None:
    await _open_index(
        _settings(tmp_path, database, m=12, ef_construction=48), "/p/one", _vectors("one", 20)
    )
    writer = _writer(database)  # holds the build at its start, while the test writes
    try:
        async with _server(_settings(tmp_path, database, m=24, ef_construction=96)) as (
            backend,
            db,
        ):
            await asyncio.to_thread(_wait_for_the_build_to_wait, database)
            store = await backend.open_store("/p/two", None)
            index, _ = await asyncio.wait_for(
                asyncio.to_thread(store.open_vector_index, DIM, MODEL), timeout=30.0
            )
            written = await asyncio.wait_for(
                asyncio.to_thread(index.upsert, _vectors("two", 20)), timeout=30.0
            )
            writer.rollback()
            await _rebuilt(db)
            found = await _found(backend, "/p/two", 20)
    finally:
        writer.close()
    assert written == 20
    assert found == {memory_id for memory_id, _ in _vectors("two", 20)}
    assert _built(database) == ["ef_construction=96", "m=24"]


async def test_a_stopped_rebuild_keeps_the_old_index_and_the_next_start_finishes_it(
    database: str, tmp_path: Path
) -> None:
    await _open_index(_settings(tmp_path, database, m=12, ef_construction=48), "/p/one")
    settings = _settings(tmp_path, database, m=24, ef_construction=96)
    writer = _writer(database)
    try:
        with structlog.testing.capture_logs() as logs:
            async with _server(settings):
                await asyncio.to_thread(_wait_for_the_build_to_wait, database)
    finally:
        writer.close()
    assert _built(database) == ["ef_construction=48", "m=12"]
    assert [(e["event"], e["stopped"]) for e in logs if "stopped" in e] == [
        ("hnsw_index_rebuild_failed", True)
    ]
    async with _server(settings) as (_, db):
        await _rebuilt(db)
    assert _built(database) == ["ef_construction=96", "m=24"]
    assert _indexes(database) == [INDEX]


async def test_a_rebuild_another_server_holds_is_left_to_it(database: str, tmp_path: Path) -> None:
    await _open_index(_settings(tmp_path, database, m=12, ef_construction=48), "/p/one")
    with psycopg.connect(database, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", (REBUILD_LOCK_KEY,))
        with structlog.testing.capture_logs() as logs:
            async with _server(_settings(tmp_path, database, m=24, ef_construction=96)) as (
                _,
                db,
            ):
                await _rebuilt(db)
    assert _built(database) == ["ef_construction=48", "m=12"]
    assert [e for e in logs if e["event"].startswith("hnsw_index_rebuil")] == []


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
