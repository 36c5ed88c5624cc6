"""Service records: written and read back; waited for only while their writer is running."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from squirrel_core.service_info import (
    ServiceInfo,
    pid_alive,
    read_service_info,
    wait_service_info,
    write_service_info,
)

INFO = ServiceInfo("gateway-mcp", 42, "127.0.0.1", 4321, 1.5)


def _writer(tmp_path: Path, pid: int) -> Path:
    path = tmp_path / "gateway-service.json"
    write_service_info(path, ServiceInfo("gateway", pid, "127.0.0.1", 1234, 1.0))
    return path


def test_a_record_reads_back_as_written(tmp_path: Path) -> None:
    write_service_info(tmp_path / "x.json", INFO)
    assert read_service_info(tmp_path / "x.json") == INFO


def test_without_its_writer_a_missing_record_is_not_waited_for(tmp_path: Path) -> None:
    assert wait_service_info(tmp_path / "x.json", writer=tmp_path / "w.json", timeout=60) is None


def test_a_record_written_while_its_writer_runs_is_waited_for(tmp_path: Path) -> None:
    writer = _writer(tmp_path, os.getpid())
    late = threading.Timer(0.05, write_service_info, (tmp_path / "x.json", INFO))
    late.start()
    try:
        assert wait_service_info(tmp_path / "x.json", writer=writer, timeout=60) == INFO
    finally:
        late.cancel()


def test_a_record_that_never_comes_is_given_up_at_the_timeout(tmp_path: Path) -> None:
    writer = _writer(tmp_path, os.getpid())
    assert wait_service_info(tmp_path / "x.json", writer=writer, timeout=0.05) is None


def test_a_writer_that_died_leaving_its_record_is_not_waited_for(tmp_path: Path) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    writer = _writer(tmp_path, int(dead.stdout))
    assert wait_service_info(tmp_path / "x.json", writer=writer, timeout=60) is None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_process_that_exited_but_is_not_reaped_yet_is_not_alive() -> None:
    """`sqrl down` waits for the supervisor to be gone; one that has exited while its parent
    (a terminal, a test, a process manager) has not reaped it yet is gone."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        stat = Path(f"/proc/{child.pid}/stat")
        deadline = time.monotonic() + 120  # a generous bound on a loaded machine, not a timing
        while stat.read_text().rsplit(")", 1)[-1].split()[0] != "Z":
            assert time.monotonic() < deadline, "the child never exited"
            time.sleep(0.05)
        assert not pid_alive(child.pid)
    finally:
        child.wait()
    assert not pid_alive(child.pid)


def test_a_running_process_is_alive() -> None:
    assert pid_alive(os.getpid())
