"""The real memory service rewrites the home's change mark whenever a memory changes, so a
session-start text kept before the change is no longer printed by a late hook
(`squirrel_core.start_texts`); a read changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.start_texts import change_mark, keep_start_text, kept_start_text
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root.resolve()


async def test_a_remembered_or_forgotten_memory_makes_a_kept_start_text_stale(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    run = HomeLayout(settings.home).run
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        remember = pb.RememberRequest(
            project_id=str(project),
            type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
            key="database",
            content="Uses PostgreSQL 16 via asyncpg.",
        )
        added = await c.call(c.stub.Remember, remember)
        mark = change_mark(run)
        assert mark  # the memory added marked a change
        keep = {"host": "codex", "event": "SessionStart", "folder": str(project)}
        keep_start_text(run, **keep, output="kept", mark=mark, files=(), settings_key="k")
        await c.call(c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project)))
        assert kept_start_text(run, "codex", "SessionStart", str(project)) == "kept"
        forget = pb.ForgetRequest(project_id=str(project), memory_id=added.memory.memory_id)
        await c.call(c.stub.Forget, forget)
        assert change_mark(run) not in ("", mark)
        assert kept_start_text(run, "codex", "SessionStart", str(project)) is None
