"""Faults under the real `sqrl up`: a corrupt vector index, a locked database, a full disk, a
store's mapped index cut short under the memory service, a crash-looping memory service while
ingest buffers, and many readers during an import."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import psutil
import pytest

from squirrel.v1 import gateway_service_pb2 as gpb
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import GatewayClient, MemoryClient, open_channel
from squirrel_core.errors import SquirrelError
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.wire import event_to_pb
from squirrel_ingest.parsers import parse_file
from tests.conftest import PATIENCE_SECONDS, wait_until
from tests.transcripts import FIXTURES, place_claude

pytestmark = pytest.mark.e2e

TURN_1 = FIXTURES / "claude" / "incremental-simple" / "turn-1.jsonl"
TURN_2 = FIXTURES / "claude" / "incremental-simple" / "turn-2.jsonl"


@dataclass
class Install:
    env: dict[str, str]
    repo: Path
    home: Path
    claude: Path

    def sqrl(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "squirrel_cli", *args],
            env=self.env,
            cwd=self.repo,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def status(self) -> dict[str, Any]:
        result = self.sqrl("status", "--json")
        assert result.returncode == 0, result.stderr
        data: dict[str, Any] = json.loads(result.stdout)
        return data

    def service(self, name: str) -> dict[str, Any]:
        rows: dict[str, dict[str, Any]] = {s["service"]: s for s in self.status()["services"]}
        return rows[name]

    def supervised(self, name: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.home / "run" / "supervisor.json").read_text())
        found: dict[str, Any] = data["services"][name]
        return found

    @property
    def token(self) -> str:
        return (self.home / "token").read_text().strip()

    def port(self, name: str) -> int:
        data = json.loads((self.home / "run" / f"{name}-service.json").read_text())
        return int(data["port"])

    def events(self) -> int:
        try:
            with contextlib.closing(
                sqlite3.connect(self.repo / ".ctx" / "data.db", timeout=5)
            ) as c:
                return int(c.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        except sqlite3.Error:
            return -1


@pytest.fixture
def install(tmp_path: Path) -> Iterator[Install]:
    """An initialised repository and home; whatever `sqrl up` started is stopped at the end."""
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    claude = tmp_path / "claude" / "projects"
    claude.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env.update(
        SQRL_HOME=str(tmp_path / "home"),
        SQRL_INGEST_CLAUDE_ROOTS=str(claude),
        SQRL_INGEST_CODEX_ROOTS=str(tmp_path / "no-codex"),
        SQRL_INGEST_GEMINI_ROOTS=str(tmp_path / "no-gemini"),
        SQRL_INGEST_CURSOR_ROOTS=str(tmp_path / "none-cursor"),
        SQRL_INGEST_BATCH_AGE_SECONDS="0.1",
        SQRL_INGEST_RESCAN_SECONDS="2",
        SQRL_INGEST_GIT_POLL_SECONDS="3600",
        SQRL_PROCESSOR_MIN_EVENTS="100000000",
        SQRL_PROCESSOR_INTERVAL_SECONDS="3600",
        SQRL_SUPERVISOR_MAX_BACKOFF_SECONDS="8",
    )
    made = Install(env, repo.resolve(), tmp_path / "home", claude)
    assert made.sqrl("init").returncode == 0
    try:
        yield made
    finally:
        made.sqrl("down")


def up(install: Install) -> None:
    started = install.sqrl("up", "--detach")
    assert started.returncode == 0, started.stderr


def expected_events(path: Path) -> int:
    return len(parse_file(SourceTool.CLAUDE_CODE, str(path), path.read_bytes()).events)


def run_async(coro: Any) -> Any:
    return asyncio.run(coro)


# --- vector index ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_corrupt_vector_index_is_rebuilt_from_sqlite_after_a_restart(install: Install) -> None:
    up(install)
    remembered = install.sqrl(
        "remember", "The billing service retries webhooks with exponential backoff", "--json"
    )
    assert remembered.returncode == 0, remembered.stderr
    index = install.repo / ".ctx" / "index" / "memories.faiss"
    meta = index.with_name("memories.meta.json")

    def saved_with(count: int) -> bool:
        return meta.exists() and len(json.loads(meta.read_text())["ids"]) == count

    wait_until(lambda: saved_with(1), timeout=180)
    index.write_bytes(b"not a faiss index" * 64)
    assert install.sqrl("doctor").returncode == 1
    before = install.service("memory")
    psutil.Process(before["pid"]).kill()

    def serving_again() -> bool:
        now = install.service("memory")
        return bool(now["restarts"] == 1 and now["health"] == "SERVING")

    wait_until(serving_again, timeout=120)
    found = install.sqrl("search", "billing webhooks backoff", "--json")
    assert found.returncode == 0, found.stderr
    assert "exponential backoff" in found.stdout
    wait_until(lambda: install.sqrl("doctor").returncode == 0, timeout=180, interval=0.5)
    reindexed = install.sqrl("reindex", "--json")
    assert reindexed.returncode == 0, reindexed.stderr
    assert json.loads(reindexed.stdout)["memories_indexed"] == 1


# --- a locked database ----------------------------------------------------------------------------


def _event(i: int, text: str = "a note") -> Event:
    return Event(
        SourceTool.CLAUDE_CODE,
        EventType.USER_MESSAGE,
        datetime.now(UTC) - timedelta(hours=1, seconds=i),
        {"text": f"{text} {i}"},
        session_id="s-faults",
    )


async def _append(target: str, token: str, project: str, events: list[Event]) -> int:
    client = MemoryClient(open_channel(target), token, timeout=120)
    try:
        reply = await client.call(
            client.stub.AppendEvents,
            pb.AppendEventsRequest(project_id=project, events=[event_to_pb(e) for e in events]),
        )
        return int(reply.accepted)
    finally:
        await client.close()


@pytest.mark.slow
def test_a_locked_database_is_a_status_code_not_a_crash_loop(install: Install) -> None:
    up(install)
    target = f"127.0.0.1:{install.port('memory')}"
    project = str(install.repo)
    with contextlib.closing(
        sqlite3.connect(install.repo / ".ctx" / "data.db", isolation_level=None)
    ) as locker:
        locker.execute("BEGIN IMMEDIATE")
        with pytest.raises(SquirrelError) as failure:
            run_async(_append(target, install.token, project, [_event(1)]))
        locker.execute("ROLLBACK")
    assert failure.value.grpc_code == grpc.StatusCode.UNAVAILABLE
    assert run_async(_append(target, install.token, project, [_event(2)])) == 1
    memory = install.service("memory")
    assert memory["restarts"] == 0 and memory["health"] == "SERVING"
    assert install.events() == 1


# --- a full disk ----------------------------------------------------------------------------------

FILE_LIMIT_BYTES = 3 * 1024 * 1024


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT_BYTES, FILE_LIMIT_BYTES))


@pytest.mark.slow
def test_a_full_disk_is_a_clear_error_and_leaves_no_partial_rows(
    install: Install, tmp_path: Path
) -> None:
    env = {**install.env, "SQRL_MEMORY_PORT": "0"}
    log_path = tmp_path / "memory.log"
    with log_path.open("wb") as log_fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "squirrel_memory"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log_fh,
            preexec_fn=_limit_file_size,  # noqa: PLW1509 - only sets a resource limit
        )
    try:
        info = install.home / "run" / "memory-service.json"
        wait_until(
            lambda: info.exists() and json.loads(info.read_text())["pid"] == proc.pid, timeout=120
        )
        target = f"127.0.0.1:{install.port('memory')}"
        project = str(install.repo)
        big = [_event(i, "x" * 2000) for i in range(3000)]
        with pytest.raises(SquirrelError) as failure:
            run_async(_append(target, install.token, project, big))
        assert failure.value.grpc_code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert proc.poll() is None
        assert run_async(_append(target, install.token, project, [_event(1, "small")])) == 1
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    assert install.events() == 1


def _long_session(path: Path, cwd: Path, turns: int, chars: int) -> None:
    """A Claude Code transcript of `turns` long user messages, each different (dedup)."""
    lines = []
    for n in range(turns):
        text = f"turn {n}: " + " ".join(f"word{n}x{k}" for k in range(chars // 12))
        record = {
            "type": "user",
            "cwd": str(cwd),
            "sessionId": "a-long-session",
            "uuid": f"u-{n:06d}",
            "timestamp": (datetime(2026, 1, 15, tzinfo=UTC) + timedelta(seconds=n)).isoformat(),
            "message": {"role": "user", "content": text},
        }
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n")


def _limit_file_size_softly() -> None:
    """The limit as a soft one (the hard one as it was), so it can be lifted later."""
    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT_BYTES, hard))


# `sqrl status` says what the memory service answered within its own few seconds: a service busy
# for longer (here: building the embedding model in its own process, which holds the interpreter
# for seconds, once the file size limit failed the build in a child) answers the next reading.
# So every reading of the service's state below waits for an answer, not for the first reading.


def _project_row(install: Install, status: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The project's row of `sqrl status` (`status` when given), once the memory service
    answered it (None before)."""
    status = install.status() if status is None else status
    rows = [p for p in status["projects"] if p["project"] == str(install.repo)]
    return rows[0] if rows and "write_failure" in rows[0] else None


def _refused(install: Install) -> dict[str, Any] | None:
    """The project's row while its writes are refused and ingest keeps the events (one
    reading of both)."""
    status = install.status()
    row = _project_row(install, status)
    buffered = (status["ingest"] or {}).get("buffered_events", 0)
    return row if row is not None and row["write_failure"] and buffered else None


def _refusal_said(install: Install, words: str) -> bool:
    text = install.sqrl("status").stdout
    return f"Writes refused in {install.repo}" in text and words in text


def _refusal_doctored(install: Install, words: str) -> bool:
    doctor = install.sqrl("doctor")
    return doctor.returncode != 0 and words in doctor.stdout


@pytest.mark.slow
def test_a_store_that_refuses_writes_while_up_is_said_and_its_events_are_kept(
    install: Install,
) -> None:
    # `sqrl up` and so every service it starts under a file size limit: the project's database
    # cannot grow past it while the services run (a full disk, as the store sees it).
    started = subprocess.run(
        [sys.executable, "-m", "squirrel_cli", "up", "--detach"],
        env=install.env,
        cwd=install.repo,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limit_file_size_softly,
    )
    assert started.returncode == 0, started.stderr
    project = str(install.repo)
    session = install.claude / "-repo" / "a-long-session.jsonl"
    session.parent.mkdir(parents=True)
    _long_session(session, install.repo, turns=2500, chars=2400)  # ~6 MB of text
    expected = expected_events(session)

    row = wait_until(lambda: _refused(install), timeout=240, interval=1.0)
    assert isinstance(row, dict) and row["write_failed_at"]
    stored = install.events()
    assert 0 <= stored < expected  # what fitted; the rest waits in ingest
    wait_until(lambda: _refusal_said(install, "nothing is dropped"), timeout=240, interval=1.0)
    said = f"project {install.repo} writes"
    wait_until(lambda: _refusal_doctored(install, said), timeout=240, interval=1.0)
    memory = install.service("memory")
    assert memory["restarts"] == 0 and memory["pid"]  # refusals are answers, not crashes

    # Room again (the limit lifted from the running memory service): ingest's retries deliver
    # every event it kept, and the refusal is no longer reported.
    process = psutil.Process(memory["pid"])
    process.rlimit(
        psutil.RLIMIT_FSIZE, (resource.RLIM_INFINITY, process.rlimit(psutil.RLIMIT_FSIZE)[1])
    )
    wait_until(lambda: install.events() == expected, timeout=240, interval=1.0)
    after = wait_until(lambda: _project_row(install), timeout=240, interval=1.0)
    assert isinstance(after, dict) and after["write_failure"] is None
    assert f"Writes refused in {project}" not in install.sqrl("status").stdout


@pytest.mark.slow
def test_a_store_index_cut_under_the_running_memory_service_is_refused_not_a_crash(
    install: Install,
) -> None:
    # SQLite maps `data.db-shm` into memory: cut short under it, the next touch was a SIGBUS and
    # the supervisor restarted memory. Now the write is refused and said, and nothing is lost.
    up(install)
    project = str(install.repo)
    first = place_claude(TURN_1, install.claude, project, "first.jsonl")
    wait_until(lambda: install.events() == expected_events(first))
    memory = install.service("memory")
    os.truncate(install.repo / ".ctx" / "data.db-shm", 0)
    # From here on nothing in this process opens the database (that would grow the file again).
    second = place_claude(TURN_2, install.claude, project, "second.jsonl", "-b")

    row = wait_until(lambda: _refused(install), timeout=240, interval=1.0)
    assert isinstance(row, dict) and "data.db-shm" in row["write_failure"]
    assert "sqrl down" in row["write_failure"]
    now = install.service("memory")
    assert now["pid"] == memory["pid"] and now["restarts"] == 0  # no SIGBUS, no restart
    wait_until(lambda: _refusal_said(install, "data.db-shm"), timeout=240, interval=1.0)
    wait_until(lambda: _refusal_doctored(install, "data.db-shm"), timeout=240, interval=1.0)
    assert install.sqrl("down").returncode == 0
    # Stopped cleanly: no fault at the close either (the service gives a cut file its size
    # back first, unless another process opening the store, `sqrl doctor` here, already did).
    log = (install.home / "logs" / "memory.log").read_text(errors="replace")
    assert "Bus error" not in log and "service_stopping" in log
    up(install)  # SQLite rebuilds the index from the write-ahead log; ingest delivers the rest
    total = expected_events(first) + expected_events(second)
    wait_until(lambda: install.events() == total, timeout=240, interval=1.0)
    with contextlib.closing(sqlite3.connect(install.repo / ".ctx" / "data.db")) as conn:
        distinct = conn.execute("SELECT COUNT(DISTINCT hash) FROM events").fetchone()[0]
    assert distinct == total


# --- a crash-looping memory service while ingest buffers -----------------------------------------


@contextlib.contextmanager
def squatting(port: int) -> Iterator[socket.socket]:
    """Holds 127.0.0.1:`port` so a service restarted on it cannot bind."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)

    def bound() -> bool:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True

    try:
        wait_until(bound, interval=0.01)
        sock.listen(1)
        yield sock
    finally:
        sock.close()


@pytest.mark.slow
def test_a_crash_looping_memory_backs_off_and_ingest_catches_up_after(
    install: Install, server_port: int
) -> None:
    # A configured port: a restarted service without one would take another port and serve.
    port = server_port
    install.env["SQRL_MEMORY_PORT"] = str(port)
    up(install)
    first = place_claude(TURN_1, install.claude, str(install.repo), "first.jsonl")
    wait_until(lambda: install.events() == expected_events(first))
    memory = install.service("memory")
    assert memory["port"] == port
    waits: dict[int, float] = {}
    with contextlib.ExitStack() as squatted:
        # The supervisor is paused while the service dies and the port is taken, so its restart
        # (half a second later, or sooner on a loaded machine) cannot bind the port first.
        supervisor = install.status()["supervisor_pid"]
        os.kill(supervisor, signal.SIGSTOP)
        try:
            psutil.Process(memory["pid"]).kill()
            squatted.enter_context(squatting(port))
        finally:
            os.kill(supervisor, signal.SIGCONT)
        second = place_claude(TURN_2, install.claude, str(install.repo), "second.jsonl", "-b")

        def looping() -> bool:
            state = install.supervised("memory")
            if state["state"] == "restarting":
                waits[state["restarts"]] = state["next_restart_in"]
            return len(waits) >= 4

        wait_until(looping, interval=0.02)
        row = install.service("memory")
        assert row["restarts"] >= 3 and row["health"] != "SERVING"
        assert f"127.0.0.1:{port}" in row["problem"] and "`memory.port`" in row["problem"]
        ingest = install.status()["ingest"]
        assert ingest is not None and ingest["buffered_events"] > 0
    delays = [waits[k] for k in sorted(waits)]
    assert delays == sorted(delays) and delays[-1] > delays[0]
    restarts_seen = max(waits)
    total = expected_events(first) + expected_events(second)
    wait_until(lambda: install.service("memory")["health"] == "SERVING")
    wait_until(lambda: install.events() == total)
    assert install.service("memory")["problem"] is None
    assert install.service("memory")["restarts"] <= restarts_seen + 2
    with contextlib.closing(sqlite3.connect(install.repo / ".ctx" / "data.db")) as conn:
        distinct = conn.execute("SELECT COUNT(DISTINCT hash) FROM events").fetchone()[0]
    assert distinct == total


# --- load -----------------------------------------------------------------------------------------

CLIENTS = 20
IMPORT_COPIES = 80
MIN_CALLS = 5
"""Calls each reader makes even if the import is over before it starts."""
LOAD_BOUND_SECONDS = 300.0
"""When the readers stop even if the import is still running (it is then waited on and fails)."""


async def _reader(
    target: str, token: str, project: str, busy: Callable[[], bool], out: list[float]
) -> int:
    """Alternates task context and search while `busy()` (the import runs), and at least
    `MIN_CALLS` times; returns how many calls failed."""
    # An answer is judged, not its speed (the p95 is printed): twenty readers beside an import
    # on a loaded machine can take past a 30 s bound for one call, which counted as an error.
    client = GatewayClient(open_channel(target), token, timeout=PATIENCE_SECONDS)
    errors = 0
    turn = 0
    stop = time.monotonic() + LOAD_BOUND_SECONDS
    try:
        while (busy() or turn < MIN_CALLS) and time.monotonic() < stop:
            started = time.perf_counter()
            try:
                if turn % 2:
                    await client.call(
                        client.stub.SearchMemory,
                        gpb.GatewaySearchMemoryRequest(project_root=project, query="tests hooks"),
                    )
                else:
                    await client.call(
                        client.stub.GetTaskContext,
                        gpb.GatewayGetTaskContextRequest(
                            project_root=project, task_description="fix the sync logic in hooks"
                        ),
                    )
            except SquirrelError:
                errors += 1
            out.append(time.perf_counter() - started)
            turn += 1
    finally:
        await client.close()
    return errors


async def _load(
    target: str, token: str, project: str, busy: Callable[[], bool]
) -> tuple[int, list[float], float]:
    """`CLIENTS` readers while `busy()`; the failed calls, every call's latency, the seconds."""
    started = time.monotonic()
    latencies: list[float] = []
    errors = await asyncio.gather(
        *(_reader(target, token, project, busy, latencies) for _ in range(CLIENTS))
    )
    return sum(errors), latencies, time.monotonic() - started


@pytest.mark.slow
# A start, 80 imports read beside for as long as they run (up to 5 minutes) and an importer
# waited on for up to 5 more: more than the suite's 5-minute bound for a stuck test on a loaded
# machine.
@pytest.mark.timeout(900)
def test_twenty_readers_during_an_import_see_no_errors(install: Install) -> None:
    up(install)
    install.sqrl("remember", "Run the hook tests with pytest -k hooks before pushing")
    rss = {name: psutil.Process(install.service(name)["pid"]) for name in ("memory", "gateway")}
    before = {name: proc.memory_info().rss for name, proc in rss.items()}
    for copy in range(IMPORT_COPIES):
        for source in (TURN_1, TURN_2):
            place_claude(
                source, install.claude, str(install.repo), f"{copy}-{source.name}", f"-{copy}"
            )
    events_before = install.events()
    # Its output goes to a file: a full pipe nobody reads would hold the import up.
    err_file = install.home.parent / "import.err"
    with err_file.open("wb") as err_out:
        importer = subprocess.Popen(
            [sys.executable, "-m", "squirrel_cli", "import", "--json"],
            env=install.env,
            cwd=install.repo,
            stdout=subprocess.DEVNULL,
            stderr=err_out,
        )
    try:
        errors, latencies, seconds = run_async(
            _load(
                f"127.0.0.1:{install.port('gateway')}",
                install.token,
                str(install.repo),
                lambda: importer.poll() is None,
            )
        )
    finally:
        importer.wait(timeout=300)
    assert importer.returncode == 0, err_file.read_text(errors="replace")[-2000:]
    assert errors == 0
    p95 = statistics.quantiles(latencies, n=20)[-1] * 1000
    growth = {name: (proc.memory_info().rss - before[name]) / 2**20 for name, proc in rss.items()}
    sys.stdout.write(
        f"\nload: {CLIENTS} clients, {len(latencies)} calls in {seconds:.0f}s, "
        f"p95 {p95:.1f} ms, RSS growth memory {growth['memory']:+.1f} MiB, "
        f"gateway {growth['gateway']:+.1f} MiB; {install.events() - events_before} events "
        "stored meanwhile\n"
    )
