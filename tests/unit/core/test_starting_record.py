"""A service that listens but does not serve yet records how far its start is, so that
`sqrl status` on its own machine says it (a team server migrating its store) as the laptops'
calls are told; the record goes when it serves or stops, and one a dead process left is ignored."""

from __future__ import annotations

import json
import os
from pathlib import Path

from squirrel_core.home import HomeLayout
from squirrel_core.rpc import GrpcService
from squirrel_core.service_info import read_starting
from squirrel_core.team_listen import server_migrating
from tests.stand_in_services import status_text


def _status_text(layout: HomeLayout, health: str) -> str:
    return status_text(layout, None, lambda row: health)


async def test_status_says_how_far_a_start_is_until_the_service_serves(tmp_path: Path) -> None:
    layout = HomeLayout(tmp_path / "home").ensure()
    service = GrpcService("memory", "t", 0, layout.service_file("memory"))
    # As the service file would name this process once it listens.
    layout.service_file("memory").write_text(
        json.dumps({"name": "memory", "pid": os.getpid(), "host": "127.0.0.1", "port": 1,
                    "started_at": 0.0})
    )  # fmt: skip
    said = server_migrating(102_000, 250_000)
    service.say_starting(said)
    assert read_starting(layout.starting_file("memory")) == said
    text = _status_text(layout, "NOT_SERVING")
    assert f"The memory service is not serving yet: {said}" in text
    assert "40 % (102,000 of 250,000 memories) counted" in text

    await service.set_serving()
    assert not layout.starting_file("memory").exists()
    assert "not serving yet" not in _status_text(layout, "SERVING")


async def test_stopping_clears_the_record_and_a_dead_processes_record_is_ignored(
    tmp_path: Path,
) -> None:
    layout = HomeLayout(tmp_path / "home").ensure()
    service = GrpcService("memory", "t", 0, layout.service_file("memory"))
    service.say_starting("starting")
    await service.stop(grace=0)
    assert not layout.starting_file("memory").exists()

    dead = 2**22 + 12345  # beyond pid_max's default: no such process
    layout.starting_file("memory").write_text(json.dumps({"pid": dead, "text": "migrating"}))
    assert read_starting(layout.starting_file("memory")) is None
    layout.starting_file("memory").write_text("{not json")
    assert read_starting(layout.starting_file("memory")) is None
