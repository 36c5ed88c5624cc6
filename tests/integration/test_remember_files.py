"""A manual memory's files: sent with `remember` (MCP over stdio, gRPC), stored, returned."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_memory import register_projects  # type: ignore[import-not-found]

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.settings import Settings
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running
from tests.integration.test_mcp_stdio import sqrl_mcp, text_of

FACT = "Invoices are rounded half-even before the tax is added."


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    return root.resolve()


async def _count(client: MemoryClient, project: Path) -> int:
    listed = await client.call(
        client.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project))
    )
    return int(listed.total_count)


async def _files(client: MemoryClient, project: Path, memory_id: str) -> list[str]:
    got = await client.call(
        client.stub.GetMemory, pb.GetMemoryRequest(project_id=str(project), memory_id=memory_id)
    )
    return list(got.memory.file_paths)


async def test_files_sent_over_mcp_stdio_are_stored_and_come_back_in_search(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    register_projects(settings, [str(project)])
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as client,
    ):
        await client.call(client.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        async with sqrl_mcp(settings, project, SQRL_GATEWAY_ALLOW_WRITES="true") as session:
            done = await session.call_tool(
                "remember",
                {
                    "project_root": str(project),
                    "content": FACT,
                    "file_paths": ["src/billing.py", str(project / "docs" / "tax.md")],
                },
            )
            assert not done.is_error, text_of(done)
            found = re.search(r"mem_\w+", text_of(done))
            assert found is not None
            memory_id = found.group(0)
            searched = await session.call_tool(
                "search_project_memory",
                {"project_root": str(project), "query": "invoices rounded tax"},
            )
            refused = [
                await session.call_tool(
                    "remember",
                    {"project_root": str(project), "content": f"Hostile {n}.", "file_paths": [p]},
                )
                for n, p in enumerate(["/etc/passwd", "../elsewhere/x.py", "src/../../x.py"])
            ]
        assert await _files(client, project, memory_id) == ["src/billing.py", "docs/tax.md"]
        assert not searched.is_error and "src/billing.py" in text_of(searched)
        assert all(r.is_error for r in refused)
        assert await _count(client, project) == 1


async def test_the_memory_service_keeps_the_files_of_remember_and_refuses_hostile_ones(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    """What a team server (or an outbox row sent to it) receives: the memory service itself
    keeps the files and refuses paths outside the project, whoever sends them."""
    settings = make_settings()
    kind = memory_pb2.MEMORY_TYPE_PROJECT_FACT
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as client,
    ):
        await client.call(client.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        first = await client.call(
            client.stub.Remember,
            pb.RememberRequest(
                project_id=str(project),
                type=kind,
                key="invoice_rounding",
                content=FACT,
                file_paths=["src/billing.py", "./src/billing.py", "src\\tax.py"],
            ),
        )
        assert list(first.memory.file_paths) == ["src/billing.py", "src/tax.py"]
        # The same key again, naming another file: the memory's files grow, as an extracted
        # memory's do when it is updated.
        again = await client.call(
            client.stub.Remember,
            pb.RememberRequest(
                project_id=str(project),
                type=kind,
                key="invoice_rounding",
                content=FACT,
                file_paths=["docs/tax.md"],
            ),
        )
        assert again.memory.memory_id == first.memory.memory_id
        assert list(again.memory.file_paths) == ["src/billing.py", "src/tax.py", "docs/tax.md"]
        for hostile in (["/etc/passwd"], ["../x.py"], ["src/../../x.py"], [""], ["a\x00b"]):
            with pytest.raises(InvalidArgumentError):
                await client.call(
                    client.stub.Remember,
                    pb.RememberRequest(
                        project_id=str(project), type=kind, content="Hostile.", file_paths=hostile
                    ),
                )
        many = await client.call(
            client.stub.RememberMany,
            pb.RememberManyRequest(
                project_id=str(project),
                items=[
                    pb.RememberRequest(
                        type=kind,
                        content="Refunds are issued by the nightly job.",
                        file_paths=["jobs/refunds.py"],
                    ),
                    pb.RememberRequest(type=kind, content="Hostile.", file_paths=["../up.py"]),
                ],
            ),
        )
        kept, bad = many.results
        assert list(kept.remembered.memory.file_paths) == ["jobs/refunds.py"]
        assert bad.HasField("error")
        assert await _count(client, project) == 2
