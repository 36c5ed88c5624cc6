"""A memory service process for the benches: `python -m squirrel_memory` on a private home (from
another Squirrel tree's code if asked), a client of it, and a wait for its embedding model."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.common import service_env, wait_for
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient, open_channel, wait_serving
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import read_service_info

SOURCE_ROOTS = ("protos", "core", "services/memory")
"""Where a Squirrel tree keeps the packages the memory service imports."""


@dataclass
class MemoryProcess:
    """A `python -m squirrel_memory` process on a private home, and a client of it."""

    process: subprocess.Popen[bytes]
    client: MemoryClient
    serving_seconds: float

    @property
    def pid(self) -> int:
        return self.process.pid


def tree_env(tree: Path | None) -> dict[str, str]:
    """Environment that makes `python -m squirrel_memory` run `tree`'s code (none: this one's)."""
    if tree is None:
        return {}
    roots = [tree / r for r in SOURCE_ROOTS]
    missing = [str(r) for r in roots if not r.is_dir()]
    if missing:
        raise SystemExit(f"not a Squirrel tree, missing: {', '.join(missing)}")
    return {"PYTHONPATH": os.pathsep.join(str(r.resolve()) for r in [*roots, tree])}


_FLOAT_QUERIES = (
    "from squirrel_core.imports import keep_out_console_extras\n"
    "keep_out_console_extras()\n"
    "import runpy\n"
    "from squirrel_memory.embedding.minilm import MiniLmEmbedder\n"
    "MiniLmEmbedder.__init__.__kwdefaults__['quantized_queries'] = False\n"
    "runpy.run_module('squirrel_memory', run_name='__main__', alter_sys=True)\n"
)
"""Runs the memory service with the float query encoder instead of the shipped int8 one (a
bench's comparison only: the service has no setting for it)."""


def start_memory(
    home: Path, tree: Path | None = None, *, float_queries: bool = False
) -> subprocess.Popen[bytes]:
    """`python -m squirrel_memory` on `home` (from `tree` if given), its output discarded;
    `float_queries`: queries embedded by the float model, not the int8 copy."""
    module = ["-c", _FLOAT_QUERIES] if float_queries else ["-m", "squirrel_memory"]
    return subprocess.Popen(
        [sys.executable, *module],
        env=service_env(home, **tree_env(tree)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@asynccontextmanager
async def memory_process(
    home: Path, tree: Path | None = None, *, float_queries: bool = False
) -> AsyncIterator[MemoryProcess]:
    layout = HomeLayout(home)
    started = time.perf_counter()
    process = start_memory(home, tree, float_queries=float_queries)
    client: MemoryClient | None = None
    try:

        def announced() -> bool:
            info = read_service_info(layout.service_file("memory"))
            return info is not None and info.pid == process.pid

        wait_for(announced, 300, "the memory service writing its service file")
        info = read_service_info(layout.service_file("memory"))
        assert info is not None
        if not await wait_serving(info.target, 300):
            raise TimeoutError("the memory service did not reach SERVING")
        serving = time.perf_counter() - started
        client = MemoryClient(open_channel(info.target), layout.token.read_text().strip(), 60)
        yield MemoryProcess(process, client, serving)
    finally:
        if client is not None:
            await client.close()
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def wait_model(client: MemoryClient, timeout: float = 300.0) -> float:
    """Polls GetProcessingStatus until the embedder has loaded; returns the wait in seconds."""
    started = time.monotonic()
    delay = 0.05
    while time.monotonic() - started < timeout:
        status = await client.call(client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        if not status.embedder_loading:
            return time.monotonic() - started
        await asyncio.sleep(delay)
        delay = min(delay * 1.5, 0.5)
    raise TimeoutError("the embedding model did not load")
