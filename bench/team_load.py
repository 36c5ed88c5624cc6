"""Simulated laptops against a real team server (`sqrl serve` on a real Postgres with pgvector).

`--laptops` threads, each a teammate with its own write token and gRPC channel, deliver
batches of events (`AppendEvents`, `--batch` per call) into `--projects` team projects and
search (`SearchMemory`) in turn for `--seconds`: flat out, or one round every `--interval`
seconds (each laptop's pauses drawn from 0.5 to 1.5 times it, so they do not march in step), as
a teammate's hooks deliver while they work. A third of the way in, the server's memory
service is killed with SIGKILL (its supervisor restarts it); two thirds in, Postgres restarts
(a fast shutdown and start, as a failover or maintenance does). A laptop whose call fails sends
the same batch again, as delivery does. Prints events/s, p50/p95/p99 of each call, errors, the
memory service's RSS and CPU, and then counts the events the database holds against those
sent: lost and doubled must both be 0.

Run: .venv/bin/python -m bench.team_load [--laptops 10] [--seconds 60] [--projects 5]
(a company's size: --laptops 50 --seconds 300 --interval 5 --batch 20)
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import psutil

from bench.common import Figure, percentile, print_table, wait_for
from bench.held_ports import server_port
from bench.postgres_server import TcpPostgres, tcp_postgres
from squirrel.v1 import memory_service_pb2 as pb
from squirrel.v1 import memory_service_pb2_grpc
from squirrel_core.auth import bearer
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import read_service_info
from squirrel_core.wire import event_to_pb

T0 = datetime.now(UTC) - timedelta(days=1)
WORDS = [
    "cache",
    "parser",
    "retry",
    "deploy",
    "migration",
    "fixture",
    "timeout",
    "schema",
    "index",
    "token",
]


@dataclass
class Laptop:
    """One simulated teammate: what it sent and how its calls went."""

    name: str
    token: str
    project: str
    sent: int = 0
    append_ms: list[float] = field(default_factory=list)
    search_ms: list[float] = field(default_factory=list)
    errors: int = 0
    retries: int = 0


def _event(laptop: str, n: int) -> Event:
    rng = random.Random(f"{laptop}-{n}")
    return Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=EventType.USER_MESSAGE,
        timestamp=T0 + timedelta(milliseconds=n),
        content={"text": f"{laptop} note {n}: " + " ".join(rng.choices(WORDS, k=20))},
        session_id=f"{laptop}-session-{n // 200}",
    )


def _sqrl(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout


def _memory_pid(layout: HomeLayout) -> int | None:
    info = read_service_info(layout.team_server_file)
    return info.pid if info is not None and psutil.pid_exists(info.pid) else None


def _drive(laptop: Laptop, target: str, args: argparse.Namespace, stop: threading.Event) -> None:
    """Deliver and search until `stop`; then deliver the batch in hand until it is accepted."""
    metadata = bearer(laptop.token)
    with grpc.insecure_channel(target) as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        rng = random.Random(laptop.name)
        while not stop.is_set():
            batch = [_event(laptop.name, laptop.sent + i) for i in range(args.batch)]
            request = pb.AppendEventsRequest(
                project_id=laptop.project, events=[event_to_pb(e) for e in batch]
            )
            deadline = time.monotonic() + args.settle
            while True:
                started = time.perf_counter()
                try:
                    stub.AppendEvents(request, metadata=metadata, timeout=30)
                    laptop.append_ms.append((time.perf_counter() - started) * 1000)
                    break
                except grpc.RpcError:
                    laptop.errors += 1
                    laptop.retries += 1
                    if time.monotonic() > deadline:
                        return
                    time.sleep(0.5)
            laptop.sent += len(batch)
            started = time.perf_counter()
            try:
                stub.SearchMemory(
                    pb.SearchMemoryRequest(
                        project_id=laptop.project, query=" ".join(rng.choices(WORDS, k=3))
                    ),
                    metadata=metadata,
                    timeout=30,
                )
                laptop.search_ms.append((time.perf_counter() - started) * 1000)
            except grpc.RpcError:
                laptop.errors += 1
            if args.interval > 0:
                stop.wait(args.interval * rng.uniform(0.5, 1.5))


def _chaos(
    layout: HomeLayout, database: TcpPostgres, seconds: float, stop: threading.Event, log: list[str]
) -> None:
    if stop.wait(seconds / 3):
        return
    pid = _memory_pid(layout)
    if pid is not None:
        os.kill(pid, signal.SIGKILL)
        log.append(f"killed the memory service (pid {pid}) with SIGKILL")
    if stop.wait(seconds / 3):
        return
    started = time.perf_counter()
    try:
        database.restart()
    except subprocess.SubprocessError as exc:
        log.append(f"Postgres restart FAILED: {type(exc).__name__}")
        return
    log.append(f"restarted Postgres (down {time.perf_counter() - started:.1f} s)")


def _stored(dsn: str) -> tuple[int, int]:
    import psycopg  # noqa: PLC0415

    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT (project_id, hash)) FROM events"
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def run(args: argparse.Namespace, root: Path) -> list[Figure]:
    # The team server's port is held for the run: its memory process restarts on it.
    with tcp_postgres() as database, server_port() as port:
        import psycopg  # noqa: PLC0415

        with psycopg.connect(database.dsn(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE squirrel")
        dsn = database.dsn("squirrel")
        env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
        env.update(
            SQRL_HOME=str(root / "server"),
            SQRL_STORAGE_BACKEND="postgres",
            SQRL_STORAGE_POSTGRES_DSN=dsn,
            SQRL_STORAGE_POSTGRES_POOL_SIZE=str(args.pool),
            SQRL_PROCESSOR_INTERVAL_SECONDS="3600",
            SQRL_PROCESSOR_MIN_EVENTS="1000000000",
        )
        layout = HomeLayout(root / "server")
        tokens = [
            _sqrl(
                env,
                "team",
                "token",
                "add",
                f"laptop{n}",
                "--projects",
                "github.com/acme/*",
                "--role",
                "write",
                "--json",
            )
            for n in range(args.laptops)
        ]
        import json  # noqa: PLC0415

        log_file = (root / "serve.log").open("wb")
        serve = subprocess.Popen(
            [sys.executable, "-m", "squirrel_cli", "serve", "--address", f"127.0.0.1:{port}"],
            env=env,
            stdout=log_file,
            stderr=log_file,
        )
        events: list[str] = []
        try:
            wait_for(lambda: _memory_pid(layout), 180, "the team server")
            projects = [f"github.com/acme/p{n}" for n in range(args.projects)]
            for project in projects:
                _sqrl(env, "team", "project", "add", project)
            laptops = [
                Laptop(f"laptop{n}", json.loads(t)["token"], projects[n % len(projects)])
                for n, t in enumerate(tokens)
            ]
            stop = threading.Event()
            target = f"127.0.0.1:{port}"
            threads = [
                threading.Thread(target=_drive, args=(lp, target, args, stop)) for lp in laptops
            ]
            chaos = threading.Thread(
                target=_chaos, args=(layout, database, args.seconds, stop, events)
            )
            samples: list[tuple[float, float]] = []
            started = time.perf_counter()
            for thread in (*threads, chaos):
                thread.start()
            while time.perf_counter() - started < args.seconds:
                pid = _memory_pid(layout)
                if pid is not None:
                    try:
                        proc = psutil.Process(pid)
                        samples.append((proc.memory_info().rss / 2**20, proc.cpu_percent(1.0)))
                    except psutil.Error:
                        time.sleep(1.0)
                else:
                    time.sleep(1.0)
            stop.set()
            for thread in (*threads, chaos):
                thread.join()
            elapsed = time.perf_counter() - started
        finally:
            serve.send_signal(signal.SIGTERM)
            try:
                serve.wait(60)
            except subprocess.TimeoutExpired:
                serve.kill()
                serve.wait(10)
            log_file.close()
        stored, distinct = _stored(dsn)
    sent = sum(lp.sent for lp in laptops)
    pace = f"every {args.interval:g} s" if args.interval > 0 else "flat out"
    note = f"{args.laptops} laptops, {args.seconds:g} s, batch {args.batch} {pace}"
    appends = [ms for lp in laptops for ms in lp.append_ms]
    searches = [ms for lp in laptops for ms in lp.search_ms]
    figures = [
        Figure("load", "events delivered", sent / elapsed, "events/s", note),
        *(
            Figure("load", f"{call} p{q}", percentile(millis, q), "ms", f"n={len(millis)}")
            for call, millis in (("AppendEvents", appends), ("SearchMemory", searches))
            for q in (50, 95, 99)
        ),
        Figure("load", "searches answered", len(searches) / elapsed, "searches/s", note),
        Figure("load", "failed calls (retried)", sum(lp.errors for lp in laptops), "count", note),
    ]
    if samples:
        figures.append(Figure("load", "memory service RSS max", max(s[0] for s in samples), "MiB"))
        cpu = [s[1] for s in samples]
        figures.append(Figure("load", "memory service CPU p50", percentile(cpu, 50), "%"))
        figures.append(Figure("load", "memory service CPU max", max(cpu), "%"))
    figures += [
        Figure("exactly once", "events sent (accepted)", sent, "count"),
        Figure("exactly once", "events stored", stored, "count"),
        Figure("exactly once", "events lost", max(sent - distinct, 0), "count", "must be 0"),
        Figure("exactly once", "events doubled", stored - distinct, "count", "must be 0"),
    ]
    for line in events:
        print(line)
    return figures


def main(argv: list[str] | None = None) -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--laptops", type=int, default=10)
    options.add_argument("--seconds", type=float, default=60.0)
    options.add_argument("--projects", type=int, default=5)
    options.add_argument("--batch", type=int, default=50)
    options.add_argument(
        "--interval", type=float, default=0.0, help="mean seconds between a laptop's rounds"
    )
    options.add_argument("--pool", type=int, default=10, help="storage.postgres_pool_size")
    options.add_argument(
        "--settle", type=float, default=120.0, help="seconds a laptop retries one batch"
    )
    args = options.parse_args(argv)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        figures = run(args, Path(tmp).resolve())
    print(
        f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; now: "
        + " ".join(f"{v:.2f}" for v in os.getloadavg())
    )
    print_table(figures)


if __name__ == "__main__":
    main()
