"""One supervisor per Squirrel home: an exclusive lock on the home folder itself, held for the
supervisor's life.

A lock on a file under `<home>/run` went with that file: once `run/` was deleted (or the lock
file in it), a second `sqrl up` took a fresh lock and started a second set of services beside
the first, and `sqrl down` found nothing to stop. The home folder cannot be deleted from under
its own lock without deleting the home. Standard library only: `sqrl status` and `sqrl down`
ask it without loading the supervisor.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

ACQUIRE_SECONDS = 1.0
"""How long `HomeLock.acquire` tries: a `home_in_use` probe holds the lock shared for a moment."""


class HomeLock:
    """The exclusive lock on the home folder `root`, held until `release` (or the process ends:
    the system drops it with the process, even after `kill -9`)."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Takes the lock; False when another process holds it."""
        self._root.mkdir(parents=True, exist_ok=True)
        fd = os.open(self._root, os.O_RDONLY)
        deadline = time.monotonic() + ACQUIRE_SECONDS
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    return False
                time.sleep(0.02)
                continue
            self._fd = fd
            return True

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def home_in_use(root: Path) -> bool:
    """Whether a supervisor holds the home `root` (whatever became of its records in `run/`)."""
    return locked_elsewhere(root)


def locked_elsewhere(path: Path) -> bool:
    """Whether another process holds an exclusive `flock` on `path` (taken here shared for a
    moment; False when `path` cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a shared lock taken here
    return False
