"""The team outbox holds remembered text: its database and side files are 0600 in a 0700 folder,
whatever the umask, and an outbox left readable by an older version is tightened."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_gateway.team_outbox import TeamOutbox


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_outbox_is_private_whatever_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "home" / "team" / "outbox.db"
    old = os.umask(0o022)
    try:
        outbox = TeamOutbox(path)
        outbox.put("github.com/acme/shop", pb.RememberRequest(content="deploy with make ship"))
    finally:
        os.umask(old)

    assert mode(path.parent) == 0o700
    assert mode(path) == 0o600
    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        if side.exists():
            assert mode(side) == 0o600
    assert outbox.pending() == 1


def test_an_outbox_left_readable_is_tightened_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "team" / "outbox.db"
    TeamOutbox(path).put("github.com/acme/shop", pb.RememberRequest(content="kept"))
    path.chmod(0o644)
    path.parent.chmod(0o755)

    outbox = TeamOutbox(path)

    assert outbox.pending() == 1
    assert mode(path) == 0o600 and mode(path.parent) == 0o700
