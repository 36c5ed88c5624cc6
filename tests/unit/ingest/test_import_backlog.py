"""ImportBacklog's stream: a caller that goes away ends the scan, and the scan is waited for."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from pathlib import Path

from squirrel.v1 import ingest_service_pb2 as pb
from squirrel_core.events import SourceTool
from squirrel_core.settings import load_settings
from squirrel_ingest.servicer import IngestServicer
from squirrel_ingest.status import ScanProgress


class BlockingEngine:
    """Reports one file done, then waits (as a delivery to a slow memory service waits)."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.ended = asyncio.Event()

    async def scan_once(
        self,
        sources: Collection[SourceTool] | None = None,
        on_progress: Callable[[ScanProgress], None] | None = None,
    ) -> ScanProgress:
        first = ScanProgress(files_total=2, files_done=1)
        assert on_progress is not None
        on_progress(first)
        self.started.set()
        try:
            await asyncio.sleep(3600)
        finally:
            await asyncio.sleep(0.05)  # winding down takes a moment, like a cancelled call
            self.ended.set()
        return first


async def test_a_caller_that_leaves_ends_the_scan_before_the_stream_closes(tmp_path: Path) -> None:
    servicer = IngestServicer(load_settings({"SQRL_HOME": str(tmp_path / "home")}), tmp_path)
    engine = BlockingEngine()
    servicer.engine = engine  # type: ignore[assignment]
    stream = servicer.ImportBacklog(pb.ImportBacklogRequest(), None)
    first = await anext(stream)
    assert (first.files_done, first.done) == (1, False)
    await engine.started.wait()
    await stream.aclose()  # what the gRPC server does with a cancelled or stopped call
    assert engine.ended.is_set()  # the scan had ended, not just been asked to
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
