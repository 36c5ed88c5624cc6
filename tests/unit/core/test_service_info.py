"""Service records: written and read back; waited for only while their writer is running."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from squirrel_core.service_info import (
    ServiceInfo,
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
