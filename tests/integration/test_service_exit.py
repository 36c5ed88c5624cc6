"""The memory service as users start it (`python -m squirrel_memory`), stopped by SIGTERM or
SIGINT right after acknowledged work, while its embedding model may still be loading: it exits 0
every time, and what it acknowledged is there when it starts again."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.auth import ensure_token
from squirrel_core.clients import MemoryClient, open_channel, target_of, wait_serving
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.wire import event_to_pb
from tests.conftest import PATIENCE_SECONDS, private_env, wait_until

ROUNDS = 3
EVENTS_PER_ROUND = 20


def start(home: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("a") as stderr:
        return subprocess.Popen(
            [sys.executable, "-m", "squirrel_memory"], env=private_env(home), stderr=stderr
        )


async def connect(home: Path, log: Path) -> MemoryClient:
    """A client of the service started last (`log` has as many SERVING events as stops)."""
    wait_until(lambda: _count(log, "service_serving") > _count(log, "service_stopped"))
    layout = HomeLayout(home)
    target = target_of(layout.service_file("memory"))
    assert await wait_serving(target, PATIENCE_SECONDS)
    return MemoryClient(open_channel(target), ensure_token(layout.token), timeout=PATIENCE_SECONDS)


def _count(log: Path, event: str) -> int:
    return log.read_text().count(f'"{event}"')


def events(root: Path, round_: int) -> list[Event]:
    return [
        Event(
            source_tool=SourceTool.CLAUDE_CODE,
            event_type=EventType.USER_MESSAGE,
            timestamp=datetime(2026, 1, 1, 12, round_, i, tzinfo=UTC),
            content={"text": f"round {round_} message {i}"},
            session_id=f"s{round_}",
            cwd=str(root),
        )
        for i in range(EVENTS_PER_ROUND)
    ]


async def append(home: Path, log: Path, root: Path, round_: int) -> int:
    client = await connect(home, log)
    try:
        await client.call(client.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root)))
        done = await client.call(
            client.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(root), events=[event_to_pb(e) for e in events(root, round_)]
            ),
        )
        return done.accepted
    finally:
        await client.close()


async def events_total(home: Path, log: Path, root: Path) -> int:
    client = await connect(home, log)
    try:
        status = await client.call(
            client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest(project_id=str(root))
        )
        return sum(p.events_total for p in status.projects)
    finally:
        await client.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_stopped_after_work_it_exits_zero_and_keeps_what_it_acknowledged(
    tmp_path: Path, stop: signal.Signals
) -> None:
    home, log, root = tmp_path / "home", tmp_path / "memory.log", tmp_path / "project"
    root.mkdir()
    log.touch()
    acknowledged = 0
    codes = []
    for round_ in range(ROUNDS):
        service = start(home, log)
        try:
            acknowledged += asyncio.run(append(home, log, root, round_))
        finally:
            service.send_signal(stop)
            codes.append(service.wait(PATIENCE_SECONDS))
    assert codes == [0] * ROUNDS, log.read_text()[-2000:]
    assert acknowledged == ROUNDS * EVENTS_PER_ROUND
    service = start(home, log)
    try:
        assert asyncio.run(events_total(home, log, root)) == acknowledged
    finally:
        service.send_signal(signal.SIGTERM)
        assert service.wait(PATIENCE_SECONDS) == 0
