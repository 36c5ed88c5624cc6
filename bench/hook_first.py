"""The first session-start hook right after `sqrl up --detach`, as a host starting a session then
runs it: its wall time, whether it injected context and, when it printed nothing, why.

A temporary home and repository get `sqrl init` and `--size` memories (their vector index file
written, as bench/hook_latency.py seeds them). Each run then starts the services
(`sqrl up --detach`, which returns once every service reports SERVING) and at once runs the real
`sqrl hook claude SessionStart` with the host's JSON on stdin and the default deadline
(`hooks.deadline_ms`, 1 s), timed from spawn to exit, then a second one, then `sqrl down`. The
services' logs say what happened meanwhile: the memory calls (`rpc_finished`), the reads that
waited for the vector index and timed out, those answered from what the index held without
waiting (`vector_index_catch_up_skipped`), and whether the gateway gave up (`hook_failed`).

Usage: python -m bench.hook_first [--size 1000] [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import structlog

from bench.common import Figure, latency_figures, print_table, sqrl
from bench.hook_latency import SQRL, hook_stdin, seeded_home, timed

SECTION = "first hook"


def hook(env: dict[str, str], root: Path, n: int) -> tuple[float, bool, str]:
    """Millis from spawn to exit, whether it printed context, and its stderr reason if any."""
    argv = [SQRL, "hook", "claude", "SessionStart"]
    took, done = timed(argv, env, hook_stdin("SessionStart", root, n))
    reason = ""
    for line in done.stderr.decode("utf-8", "replace").splitlines():
        try:
            reason = str(json.loads(line).get("reason", reason))
        except (ValueError, AttributeError):
            continue
    return took, bool(done.stdout.strip()), reason


def logged(home: Path, service: str, *events: str) -> list[dict[str, Any]]:
    """The service's log lines of these events, oldest first."""
    try:
        lines = (home / "logs" / f"{service}.log").read_text().splitlines()
    except OSError:
        return []
    found: list[dict[str, Any]] = []
    for line in lines:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("event") in events:
            found.append(event)
    return found


def _at(event: dict[str, Any]) -> float:
    stamp = str(event.get("timestamp", "")).replace("Z", "+00:00")
    try:
        return datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return 0.0


def during(home: Path, start: float, end: float) -> tuple[int, float, int, int]:
    """Of the memory service's work between `start` and `end` (wall clock): RPCs finished,
    their summed milliseconds, reads whose wait for the vector index timed out, and reads
    answered from what the index held without waiting."""
    events = logged(
        home,
        "memory",
        "rpc_finished",
        "vector_index_catch_up_timeout",
        "vector_index_catch_up_skipped",
    )
    inside = [e for e in events if start <= _at(e) <= end]
    rpcs = [e for e in inside if e["event"] == "rpc_finished"]
    millis = sum(float(e.get("duration_ms", 0)) for e in rpcs)
    timeouts = sum(e["event"] == "vector_index_catch_up_timeout" for e in inside)
    skipped = sum(e["event"] == "vector_index_catch_up_skipped" for e in inside)
    return len(rpcs), millis, timeouts, skipped


async def measure(size: int, runs: int) -> list[Figure]:
    first: list[float] = []
    second: list[float] = []
    answered = [0, 0]
    reasons: dict[str, int] = {}
    rpcs, rpc_ms, timeouts, skipped, failed = 0, 0.0, 0, 0, 0
    loads: list[float] = []
    # The gateway logs its hook answers at info level; the hook keeps its default deadline
    # (service_env sets none).
    async with seeded_home(size, SQRL_GENERAL_LOG_LEVEL="info") as (home, env, root):
        for n in range(runs):
            loads.append(os.getloadavg()[0])
            sqrl(env, "up", "--detach")
            try:
                seen = len(logged(home, "gateway", "hook_answered", "hook_failed"))
                start = time.time()
                took, said, reason = hook(env, root, 2 * n)
                end = time.time()
                first.append(took)
                answered[0] += said
                if reason:
                    reasons[reason] = reasons.get(reason, 0) + 1
                took, said, _ = hook(env, root, 2 * n + 1)
                second.append(took)
                answered[1] += said
                answers = logged(home, "gateway", "hook_answered", "hook_failed")[seen : seen + 1]
                failed += any(e["event"] == "hook_failed" for e in answers)
                count, millis, waits, unwaited = during(home, start, end)
                rpcs, rpc_ms = rpcs + count, rpc_ms + millis
                timeouts, skipped = timeouts + waits, skipped + unwaited
            finally:
                sqrl(env, "down")
    loads.append(os.getloadavg()[0])
    print(f"load average (1 min) {min(loads):.1f}-{max(loads):.1f}")
    figures = latency_figures(SECTION, "first session-start hook after up", first)
    figures += latency_figures(SECTION, "second session-start hook", second)
    figures.append(Figure(SECTION, "first hooks that injected context", answered[0], "runs"))
    figures.append(Figure(SECTION, "second hooks that injected context", answered[1], "runs"))
    figures.append(Figure(SECTION, "first hooks the gateway gave up on", failed, "runs"))
    figures.append(Figure(SECTION, "memory calls per first hook", rpcs / runs, "calls"))
    figures.append(Figure(SECTION, "their time per first hook", rpc_ms / runs, "ms"))
    figures.append(Figure(SECTION, "index waits timed out, per first hook", timeouts / runs, ""))
    figures.append(Figure(SECTION, "reads not waiting, per first hook", skipped / runs, ""))
    for reason, count in sorted(reasons.items()):
        figures.append(Figure(SECTION, f"first hooks unanswered: {reason}", count, "runs"))
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    print_table(asyncio.run(measure(args.size, args.runs)))


if __name__ == "__main__":
    main()
