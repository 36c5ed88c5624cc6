"""`sqrl up` while a supervisor of another Squirrel version still runs (an upgrade installed
under running services): it is seen, never taken for a home where nothing runs, and `sqrl up`
says which version runs and what to do. Before, a record written by another version that did
not read back, or a supervisor older than the home lock whose record was gone, let `sqrl up`
start a second set of services beside it."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from squirrel_cli.commands.services import cmd_up
from squirrel_cli.console import Console
from squirrel_cli.supervisor_state import (
    EARLIER_LOCK,
    running_supervisor,
    squirrel_version,
)
from squirrel_core.errors import FailedPreconditionError
from squirrel_core.home import SERVICES, HomeLayout
from squirrel_core.settings import Settings, load_settings

#: Holds the lock a supervisor older than the home lock held, says so, and waits to be killed.
EARLIER = """
import fcntl, sys, time
lock = open(sys.argv[1], "a+")
fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(120)
"""


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings({"SQRL_HOME": str(tmp_path / "sqrl")})


def _record(layout: HomeLayout, **extra: object) -> None:
    """A supervisor record as another version writes it: this process as the supervisor, its
    services serving, a field this version does not know on each service."""
    services = {
        name: {"name": name, "pid": os.getpid(), "port": 1, "state": "serving", "cpu": 0.5}
        for name in SERVICES
    }
    record = {"pid": os.getpid(), "started_at": time.time(), "services": services, **extra}
    layout.ensure()
    layout.supervisor_file.write_text(json.dumps(record))


def _up(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> int:
    """`sqrl up -d`; a supervisor it would start fails the test."""
    real_popen = subprocess.Popen

    def popen(args: list[str], **kwargs: object) -> object:
        if "squirrel_cli.supervise" in args:
            pytest.fail("`sqrl up` started a second supervisor")
        return real_popen(args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "Popen", popen)
    return cmd_up(argparse.Namespace(settings=settings, detach=True), Console())


def test_a_record_of_an_earlier_supervisor_is_seen_and_up_says_what_to_do(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = HomeLayout(settings.home)
    _record(layout)  # no `version`: written before supervisors said theirs
    state = running_supervisor(layout, wait=0.2)
    assert state is not None and state.pid == os.getpid()
    ours = squirrel_version()
    with pytest.raises(FailedPreconditionError) as refused:
        _up(settings, monkeypatch)
    assert str(refused.value) == (
        f"an earlier Squirrel is still running for this home (supervisor pid {os.getpid()});"
        f" this sqrl is {ours}. Run `sqrl down`, then `sqrl up -d`, to run {ours}."
    )


def test_a_supervisor_of_another_version_is_named_by_its_version(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(HomeLayout(settings.home), version="0.0.1-old", retry_signal="SIGUSR1")
    with pytest.raises(FailedPreconditionError, match=r"^Squirrel 0\.0\.1-old is still running"):
        _up(settings, monkeypatch)


def test_a_supervisor_of_this_version_is_already_running(
    settings: Settings, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(HomeLayout(settings.home), version=squirrel_version())
    assert _up(settings, monkeypatch) == 0
    assert capsys.readouterr().out.strip() == (
        f"Squirrel is already running (supervisor pid {os.getpid()})."
    )


@pytest.fixture
def earlier_lock(settings: Settings) -> Iterator[Path]:
    """A process holding `<home>/run/supervisor.lock`, as a supervisor older than the home lock
    does for its life; killed (by its pid) at the end."""
    layout = HomeLayout(settings.home).ensure()
    path = layout.run / EARLIER_LOCK
    holder = subprocess.Popen(
        [sys.executable, "-c", EARLIER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield path
    finally:
        holder.kill()
        holder.wait()


def test_an_earlier_supervisor_without_its_record_is_named_not_taken_for_none(
    settings: Settings, earlier_lock: Path
) -> None:
    layout = HomeLayout(settings.home)
    assert not layout.supervisor_file.exists()
    with pytest.raises(FailedPreconditionError, match="of an earlier version holds") as refused:
        running_supervisor(layout, wait=0.2)
    assert f"fuser {earlier_lock}" in str(refused.value)


def test_without_the_earlier_lock_held_nothing_runs(settings: Settings) -> None:
    layout = HomeLayout(settings.home).ensure()
    (layout.run / EARLIER_LOCK).write_text("")  # left behind by an earlier supervisor that ended
    assert running_supervisor(layout, wait=0.2) is None


async def test_the_supervisor_starts_nothing_beside_an_earlier_one(
    settings: Settings, earlier_lock: Path
) -> None:
    from squirrel_cli.supervisor import Supervisor  # noqa: PLC0415 - asyncio, gRPC

    layout = HomeLayout(settings.home)
    with pytest.raises(FailedPreconditionError, match="of an earlier version is running"):
        await Supervisor(settings, dict(os.environ)).run()
    assert not layout.supervisor_file.exists()
    assert all(not layout.service_file(name).exists() for name in SERVICES)
