"""Cold start of `sqrl up --detach` to all SERVING, and idle RSS of each service.

Usage: python bench/service_startup.py [--runs 5]
Prints a table (median, p95 over runs) on a fresh temporary home each run, next to
`python -c pass` on the same interpreter, timed between the runs (the ratio moves less with the
machine's load than the seconds do), and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil


def _sqrl(
    env: dict[str, str], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )


def one_run() -> tuple[float, dict[str, float]]:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        repo = Path(tmp) / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        env = {**os.environ, "SQRL_HOME": str(home)}
        _sqrl(env, "init", cwd=repo)
        started = time.perf_counter()
        _sqrl(env, "up", "--detach")
        elapsed = time.perf_counter() - started
        time.sleep(2.0)  # let the services settle before reading idle RSS
        status = json.loads(_sqrl(env, "status", "--json").stdout)
        rss = {
            s["service"]: psutil.Process(s["pid"]).memory_info().rss / 2**20
            for s in status["services"]
        }
        _sqrl(env, "down")
        return elapsed, rss


def bare_python() -> float:
    """Seconds for `python -c pass`: the floor any command starts from."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    times: list[float] = []
    bare: list[float] = []
    rss: dict[str, list[float]] = {}
    loads = [os.getloadavg()[0]]
    for _ in range(args.runs):
        elapsed, sizes = one_run()
        times.append(elapsed)
        bare.extend(bare_python() for _ in range(3))
        loads.append(os.getloadavg()[0])
        for name, mb in sizes.items():
            rss.setdefault(name, []).append(mb)
    print(f"runs: {args.runs}; load average (1 min) {min(loads):.1f}-{max(loads):.1f}")
    print(f"{'measure':34} {'median':>10} {'p95':>10}")
    label = "sqrl up --detach to all SERVING (s)"
    print(f"{label:34} {statistics.median(times):10.2f} {p95(times):10.2f}")
    label = "python -c pass (s)"
    print(f"{label:34} {statistics.median(bare):10.3f} {p95(bare):10.3f}")
    label = "ratio of the medians (x)"
    print(f"{label:34} {statistics.median(times) / statistics.median(bare):10.0f}")
    for name, values in rss.items():
        label = f"idle RSS {name} (MiB)"
        print(f"{label:34} {statistics.median(values):10.1f} {p95(values):10.1f}")


if __name__ == "__main__":
    main()
