"""A registered project whose store cannot be opened is said once per process, not on every
poll: the processor, retention and delivery loops all open the stores each round."""

from __future__ import annotations

import shutil
from pathlib import Path

from structlog.testing import capture_logs

from squirrel_core.home import HomeLayout
from squirrel_memory.registry import ProjectRegistry


async def _rounds(registry: ProjectRegistry, times: int) -> list[str]:
    with capture_logs() as logs:
        for _ in range(times):
            await registry.open_stores()
    return [str(e["project_id"]) for e in logs if e["event"] == "project_unavailable"]


async def test_a_project_that_cannot_be_opened_is_warned_once_until_it_changes(
    tmp_path: Path,
) -> None:
    layout = HomeLayout(tmp_path / "home").ensure()
    good, gone = tmp_path / "good", tmp_path / "gone"
    good.mkdir()
    gone.mkdir()
    registry = ProjectRegistry(layout)
    try:
        for root in (good, gone):
            await registry.register(str(root))
        await registry.close()
        registry = ProjectRegistry(layout)
        shutil.rmtree(gone)

        assert await _rounds(registry, 3) == [str(gone)]

        gone.mkdir()  # back: opened again, nothing said
        assert await _rounds(registry, 1) == []
        await registry.close()
        registry = ProjectRegistry(layout)
        shutil.rmtree(gone)  # gone again in a later process: said again, once
        assert await _rounds(registry, 2) == [str(gone)]
    finally:
        await registry.close()
