"""Wall time of `sqrl hook` as a host runs it: one process per call, services up and down.

A temporary home and repository get `sqrl init` and `--size` memories (as bench/mcp_latency.py
seeds them), then `sqrl up --detach`. Once the model is loaded and the memory service is idle,
the real `sqrl` console script is started `--calls` times for Claude Code's `UserPromptSubmit`
(rotating developer questions) and `SessionStart`, with the host's JSON on stdin, and timed from
spawn to exit. Then `sqrl down`, and the per-prompt and session-start hooks are timed again
with every service down (they must print nothing, fast: no supervisor, nothing to wait for).
Then, `--starts` times, `sqrl up --detach` is started and, as soon as its supervisor has written
its state (the services starting), one session-start hook is timed and whether it printed the
start text counted (it waits up to `hooks.start_wait_ms` for the services, then asks within its
deadline); then `sqrl down`. `python -c pass` is timed the same way for scale.

Usage: python -m bench.hook_latency [--size 1000] [--calls 40] [--starts 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import structlog

from bench.common import (
    Figure,
    git_repo,
    latency_figures,
    print_table,
    service_env,
    sqrl,
    wait_idle,
)
from bench.mcp_latency import service_pids, services_up
from bench.memory_process import wait_model
from bench.memory_text import DEVELOPER_QUESTIONS
from bench.seeded_project import loaded_embedder, seed_project
from squirrel_core.clients import MemoryClient, open_channel, target_of
from squirrel_core.home import HomeLayout

SECTION = "hooks"
SQRL = str(Path(sys.executable).parent / "sqrl")
WAITS = "waits for the start (hooks.start_wait_ms 3000)"
NO_WAIT = "no wait (hooks.start_wait_ms 0)"
UP = "sqrl up --detach until it returned (all serving)"


def timed(
    argv: list[str], env: dict[str, str], stdin: bytes
) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    """Millis from spawn to exit of `argv` fed `stdin`, and what it printed; raises when it
    exits non-zero."""
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, env=env, capture_output=True, check=False)
    took = 1000 * (time.perf_counter() - started)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr[-500:]!r}")
    return took, done


def hook_stdin(event: str, root: Path, n: int) -> bytes:
    payload = {
        "session_id": f"bench-{n}",
        "transcript_path": "",
        "cwd": str(root),
        "hook_event_name": event,
        "source": "startup",
        "prompt": DEVELOPER_QUESTIONS[n % len(DEVELOPER_QUESTIONS)],
    }
    return json.dumps(payload).encode()


def series(env: dict[str, str], event: str, root: Path, calls: int) -> tuple[list[float], int]:
    """Millis per call and how many calls printed something."""
    millis: list[float] = []
    answered = 0
    for n in range(calls):
        took, done = timed([SQRL, "hook", "claude", event], env, hook_stdin(event, root, n))
        millis.append(took)
        answered += bool(done.stdout.strip())
    return millis, answered


@asynccontextmanager
async def seeded_home(size: int, **env: str) -> AsyncIterator[tuple[Path, dict[str, str], Path]]:
    """A temporary home, its environment (`service_env` with `env`) and a repository with
    `sqrl init` and `size` memories, their vector index file written."""
    embedder = loaded_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        environ = service_env(home, **env)
        root = git_repo(Path(tmp) / "repo")
        sqrl(environ, "init", cwd=root)
        await seed_project(root, size, embedder, min(size, 1000))
        yield home, environ, root


def starting_series(
    env: dict[str, str], root: Path, home: Path, starts: int
) -> dict[str, tuple[list[float], int]]:
    """Millis of a session-start hook run as soon as `sqrl up --detach` has a supervisor (its
    services starting), and how many printed the start text: `starts` times with the shipped
    `hooks.start_wait_ms` and `starts` times with 0 (no wait, as before it existed), alternated."""
    got: dict[str, tuple[list[float], int]] = {WAITS: ([], 0), NO_WAIT: ([], 0), UP: ([], 0)}
    state = HomeLayout(home).supervisor_file
    for n in range(2 * starts):
        way = WAITS if n % 2 == 0 else NO_WAIT
        hook_env = env if way == WAITS else {**env, "SQRL_HOOKS_START_WAIT_MS": "0"}
        spawned = time.perf_counter()
        up = subprocess.Popen(
            [SQRL, "up", "--detach"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 300
            while not state.exists():
                if up.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("sqrl up --detach wrote no supervisor state")
                time.sleep(0.005)
            stdin = hook_stdin("SessionStart", root, n)
            took, done = timed([SQRL, "hook", "claude", "SessionStart"], hook_env, stdin)
            millis, answered = got[way]
            millis.append(took)
            got[way] = (millis, answered + bool(done.stdout.strip()))
        finally:
            up.wait(300)
            got[UP][0].append(1000 * (time.perf_counter() - spawned))
            sqrl(env, "down")
    return got


async def measure(size: int, calls: int, starts: int) -> list[Figure]:
    figures: list[Figure] = []
    async with seeded_home(size) as (home, env, root):
        base, _ = series_python(env, calls)
        figures += latency_figures(SECTION, "python -c pass (process start)", base)
        async with services_up(env):
            layout = HomeLayout(home)
            token = layout.token.read_text().strip()
            memory = MemoryClient(open_channel(target_of(layout.service_file("memory"))), token, 60)
            try:
                await wait_model(memory)
            finally:
                await memory.close()
            wait_idle(service_pids(env)["memory"])
            series(env, "UserPromptSubmit", root, 3)  # warm-up
            prompt, prompt_hits = series(env, "UserPromptSubmit", root, calls)
            start, start_hits = series(env, "SessionStart", root, calls)
        down, down_hits = series(env, "UserPromptSubmit", root, calls)
        start_down, start_down_hits = series(env, "SessionStart", root, calls)
        starting = starting_series(env, root, home, starts)
    label = f"{size // 1000}k memories" if size % 1000 == 0 else f"{size} memories"
    figures += latency_figures(SECTION, f"per-prompt hook, services up ({label})", prompt)
    figures += latency_figures(SECTION, f"session-start hook, services up ({label})", start)
    figures += latency_figures(SECTION, "per-prompt hook, services down", down)
    figures += latency_figures(SECTION, "session-start hook, services down", start_down)
    up_ms, _ = starting.pop(UP)
    for way, (millis, _) in starting.items():
        figures += latency_figures(
            SECTION, f"session-start hook as `sqrl up --detach` starts, {way}", millis
        )
    figures += latency_figures(SECTION, f"in those starts, {UP}", up_ms)
    for what, hits, of in (
        ("per-prompt answers that injected context", prompt_hits, calls),
        ("session-start answers that injected context", start_hits, calls),
        ("answers printed with services down", down_hits, calls),
        ("session-start answers printed with services down", start_down_hits, calls),
        *(
            (f"session-start answers printed as the services start, {way}", hits, starts)
            for way, (_, hits) in starting.items()
        ),
    ):
        figures.append(Figure(SECTION, what, hits, "calls", f"of {of}"))
    return figures


def series_python(env: dict[str, str], calls: int) -> tuple[list[float], int]:
    return [timed([sys.executable, "-c", "pass"], env, b"")[0] for _ in range(calls)], 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    print_table(asyncio.run(measure(args.size, args.calls, args.starts)))


if __name__ == "__main__":
    main()
