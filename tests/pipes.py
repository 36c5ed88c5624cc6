"""A named pipe where a file is expected, and a call that must not wait on it.

An `open` of a pipe with no writer blocks until one comes: `finished_on` runs the call in a
thread and waits a bound for it; if it is still waiting, a writer opens the pipe (which frees
the call) and the test fails, so a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")

#: How long a call may take before it is taken to be waiting on the pipe.
BOUND_S = 20.0


def make_fifo(path: Path) -> Path:
    """A named pipe at `path`, or the test skipped where the platform has none."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this platform")
    os.mkfifo(path)
    return path


def finished_on(fifo: Path, call: Callable[[], T]) -> T:
    """What `call` returned (or raised) when it finished without waiting on `fifo`."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the test's thread
            failure.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(BOUND_S)
    if worker.is_alive():
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # a writer frees the waiting open
        os.close(fd)
        worker.join(BOUND_S)
        pytest.fail(f"waited on the named pipe {fifo.name}")
    if failure:
        raise failure[0]
    return outcome[0]
