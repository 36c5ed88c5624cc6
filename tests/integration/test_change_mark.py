"""The real memory service rewrites the home's change mark whenever a memory changes, so a
session-start text kept before the change is no longer printed by a late hook
(`squirrel_core.start_texts`); a read changes nothing."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import squirrel_core.files
from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.start_texts import change_mark, keep_start_text, kept_start_text
from squirrel_memory import server as memory_server
from squirrel_memory.views import change_marks
from tests.conftest import PATIENCE_SECONDS
from tests.integration.conftest import memory_client, running


async def _changed_from(run: Path, before: str | None) -> str:
    """The change mark once it is no longer `before` (it is written just after the change)."""
    deadline = time.monotonic() + PATIENCE_SECONDS
    while time.monotonic() < deadline:
        mark = change_mark(run)
        if mark and mark != before:
            return mark
        await asyncio.sleep(0.02)
    pytest.fail("the change mark was not rewritten")


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
        mark = await _changed_from(run, "")  # the memory added marked a change
        keep = {"host": "codex", "event": "SessionStart", "folder": str(project)}
        keep_start_text(run, **keep, output="kept", mark=mark, files=(), settings_key="k")
        await c.call(c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project)))
        assert kept_start_text(run, "codex", "SessionStart", str(project)) == "kept"
        forget = pb.ForgetRequest(project_id=str(project), memory_id=added.memory.memory_id)
        await c.call(c.stub.Forget, forget)
        await _changed_from(run, mark)
        assert kept_start_text(run, "codex", "SessionStart", str(project)) is None


async def test_a_burst_of_changes_rewrites_the_mark_a_few_times_off_the_loop_and_the_last_one_counts(
    make_settings: Callable[..., Settings], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mark only has to differ from the one a kept text recorded: a burst of committed
    changes rewrites it a few times, never on the event loop's thread and without an fsync, and
    a change after the last rewrite is always marked."""
    settings = make_settings()
    run = HomeLayout(settings.home).run
    writes: list[dict[str, Any]] = []
    real = squirrel_core.files.replace_file

    def watched(path: Path, data: bytes, **kwargs: Any) -> None:
        if path.name == "memories-changed":
            writes.append({"thread": threading.get_ident(), "sync": kwargs.get("sync", True)})
        real(path, data, **kwargs)

    monkeypatch.setattr(squirrel_core.files, "replace_file", watched)
    # An interval no burst outlasts on a loaded machine: the count below does not hang on speed.
    monkeypatch.setattr(change_marks, "MARK_INTERVAL_SECONDS", 5.0)
    loop_thread = threading.get_ident()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))

        def remember(n: int) -> pb.RememberRequest:
            return pb.RememberRequest(
                project_id=str(project),
                type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
                key=f"fact-{n}",
                content=f"Service {n} listens on port {8000 + n}.",
            )

        burst = 30
        await asyncio.gather(*(c.call(c.stub.Remember, remember(n)) for n in range(burst)))
        mark = await _changed_from(run, "")
        during = len(writes)
        await c.call(c.stub.Remember, remember(burst))  # one change after the burst: marked
        await _changed_from(run, mark)
    assert 1 <= during <= 2, writes
    assert all(w["thread"] != loop_thread for w in writes), writes
    assert not any(w["sync"] for w in writes), writes
