"""Wall time of everyday `sqrl` commands, and of `sqrl mcp` answering `initialize`.

Usage: python -m bench.cli_latency [--runs 5]
One fresh home and git repository with the services up and a few memories; each command runs
once untimed (so its bytecode is cached, as an installed package's is) and then `--runs` times
(median and p95), next to `python -c pass` on the same interpreter for scale. The CPU time the
command's process used (user + system; for `sqrl mcp`, up to its answer) is given beside the wall
time: on a shared machine it moves far less with the load than the wall time does.
Output goes to a pipe, as when a host or a script runs the command; `status`, `search`,
`context`, `view brief` and `memories` are also timed on a pseudo-terminal, where their tables
and markdown are drawn.
`PYTHONDONTWRITEBYTECODE` is dropped for the measured commands: with it, every run would compile
Squirrel's own modules again, which no installed copy does.
`status`, `search`, `context`, `view` and `memories` read through the gateway's loopback HTTP
routes when its endpoint is up (timing starts once `run/gateway-mcp.json` is there); each figure's
note says which way the command went: "HTTP" (no gRPC client loaded) or "gRPC".
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import selectors
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from bench.common import (
    Figure,
    git_repo,
    percentile,
    print_table,
    service_env,
    sqrl,
    wait_for,
)
from tests.mcp_host import INITIALIZE

CONTEXT_TASK = "add a new API endpoint and its tests"
COMMANDS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    # label, arguments, whether stdout is a terminal (else a pipe)
    ("sqrl --help", ("--help",), False),
    ("sqrl status", ("status",), False),
    ("sqrl status, on a terminal", ("status",), True),
    ("sqrl search", ("search", "run the tests"), False),
    ("sqrl search, on a terminal", ("search", "run the tests"), True),
    ("sqrl context", ("context", CONTEXT_TASK), False),
    ("sqrl context, on a terminal", ("context", CONTEXT_TASK), True),
    ("sqrl view brief", ("view", "brief"), False),
    ("sqrl view brief, on a terminal", ("view", "brief"), True),
    ("sqrl memories", ("memories",), False),
    ("sqrl memories, on a terminal", ("memories",), True),
    ("sqrl config list", ("config", "list"), False),
)
QUICK = ("status", "search", "context", "view", "memories")
"""Commands that read through the gateway's HTTP routes when they can."""
MEMORIES = (
    "Run the tests with pytest -x from the repository root",
    "Always use type hints on public functions",
    "The API handlers live in src/api/handlers.py",
)


def wall_ms(
    argv: list[str], env: dict[str, str], cwd: Path, *, terminal: bool = False
) -> tuple[float, float]:
    """Milliseconds from spawn to exit, and of CPU the process used; a failing command is an
    error, not a figure. `terminal`: stdout is a pseudo-terminal (what a person at a shell
    sees) instead of a pipe."""
    main, secondary = pty.openpty() if terminal else (-1, -1)
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        env=env,
        cwd=cwd,
        stdout=secondary if terminal else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    drain = None
    if terminal:
        os.close(secondary)
        drain = threading.Thread(target=_drain, args=(main,), daemon=True)
        drain.start()
    assert proc.stderr is not None
    errors = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = (time.perf_counter() - started) * 1000
    if drain is not None:
        drain.join(timeout=10)
        os.close(main)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{argv} failed ({proc.returncode}): {errors.decode()[-500:]}")
    return elapsed, (usage.ru_utime + usage.ru_stime) * 1000


def _drain(fd: int) -> None:
    """Reads a pseudo-terminal until its other end is closed (so the command never blocks)."""
    try:
        while os.read(fd, 65536):
            pass
    except OSError:  # EIO once the command has exited
        return


def mcp_initialize_ms(env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Milliseconds from spawning `sqrl mcp` to its `initialize` answer on stdout, and of CPU it
    had used by then."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "squirrel_cli", "mcp"],
        env=env,
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
        proc.stdin.flush()
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        if not selector.select(timeout=60):
            raise RuntimeError("sqrl mcp did not answer initialize within 60 s")
        line = proc.stdout.readline()
        elapsed = (time.perf_counter() - started) * 1000
        times = psutil.Process(proc.pid).cpu_times()
        if b'"result"' not in line:
            raise RuntimeError(f"sqrl mcp answered {line[:200]!r}")
        return elapsed, (times.user + times.system) * 1000
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


_PATH_PROBE = (
    "import sys\n"
    "from squirrel_cli.entry import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stderr.write('GRPC %s\\n' % ('grpc' in sys.modules))\n"
    "sys.exit(code)\n"
)


def _way(args: tuple[str, ...], env: dict[str, str], cwd: Path) -> str:
    """How the command answered: through the gateway's HTTP routes, or a gRPC client."""
    done = subprocess.run(
        [sys.executable, "-c", _PATH_PROBE, *args],
        env=env,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=True,
    )
    return "gRPC" if "GRPC True" in done.stderr else "HTTP"


def _figure(
    label: str, runs: list[tuple[float, float]], bare: tuple[float, float], way: str = ""
) -> list[Figure]:
    millis = [wall for wall, _ in runs]
    median = statistics.median(millis)
    cpu = statistics.median(c for _, c in runs)
    note = (
        f"n={len(millis)}, p95 {percentile(millis, 95):.0f} ms, {median / bare[0]:.1f}x bare "
        f"Python; CPU {cpu:.0f} ms, {cpu / bare[1]:.1f}x bare{f'; {way}' if way else ''}"
    )
    return [Figure("cli", f"{label} median", median, "ms", note)]


def measure(runs: int) -> list[Figure]:
    """The CLI latency table: median of `runs` wall times per command, and the ratio to bare
    Python."""
    with tempfile.TemporaryDirectory() as tmp:
        repo = git_repo(Path(tmp) / "repo")
        env = service_env(Path(tmp) / "home")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        sqrl(env, "init", cwd=repo)
        sqrl(env, "up", "--detach")
        endpoint = Path(env["SQRL_HOME"]) / "run" / "gateway-mcp.json"
        try:
            wait_for(endpoint.exists, 60, "the gateway's HTTP endpoint")
            for text in MEMORIES:
                sqrl(env, "remember", text, cwd=repo)
            bare_runs = [wall_ms([sys.executable, "-c", "pass"], env, repo) for _ in range(runs)]
            bare = (
                statistics.median(w for w, _ in bare_runs),
                statistics.median(c for _, c in bare_runs),
            )
            figures = [
                Figure(
                    "cli",
                    "python -c pass median",
                    bare[0],
                    "ms",
                    f"n={runs}, the floor; CPU {bare[1]:.0f} ms",
                )
            ]
            for label, args, terminal in COMMANDS:
                argv = [sys.executable, "-m", "squirrel_cli", *args]
                wall_ms(argv, env, repo, terminal=terminal)  # warm-up: writes the bytecode cache
                timed = [wall_ms(argv, env, repo, terminal=terminal) for _ in range(runs)]
                way = _way(args, env, repo) if args[0] in QUICK else ""
                figures += _figure(label, timed, bare, way)
            mcp_initialize_ms(env, repo)
            mcp = [mcp_initialize_ms(env, repo) for _ in range(runs)]
            figures += _figure("sqrl mcp to initialize answer", mcp, bare)
        finally:
            sqrl(env, "down")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ.pop("SQRL_HOME", None)
    print_table(measure(max(1, args.runs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
