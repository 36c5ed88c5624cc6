"""The real memory service and gateway for the memory browser's tests, with memories in place."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import read_service_info
from squirrel_core.settings import Settings
from squirrel_gateway import server as gateway_server
from squirrel_gateway.mcp_http import info_file
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running

Seed = tuple[memory_pb2.MemoryType.ValueType, str, str, float]
"""type, key, content, importance of a manual memory to start with."""


@dataclass
class Stack:
    home: Path
    base: str
    token: str
    project: str
    memory: MemoryClient
    ids: dict[str, str] = field(default_factory=dict)


@asynccontextmanager
async def ui_stack(
    settings: Settings, project: Path, seeds: Sequence[Seed]
) -> AsyncIterator[Stack]:
    """Memory and gateway on 127.0.0.1:0, `project` registered, `seeds` remembered (ids by key)."""
    project.mkdir()
    root = str(project.resolve())
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=root))
        ids = {}
        for kind, key, content, importance in seeds:
            reply = await c.call(
                c.stub.Remember,
                pb.RememberRequest(
                    project_id=root, type=kind, key=key, content=content, importance=importance
                ),
            )
            ids[key] = reply.memory.memory_id
        async with running("gateway", gateway_server.setup, settings):
            info = read_service_info(info_file(HomeLayout(settings.home).run))
            assert info is not None
            token = HomeLayout(settings.home).token.read_text()
            yield Stack(settings.home, f"http://127.0.0.1:{info.port}", token, root, c, ids)
