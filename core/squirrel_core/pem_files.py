"""Reading the PEM files of the team's TLS (a server's certificate and key, a laptop's CA file).

Only a regular file is read, and at most `MAX_PEM_BYTES` of it: a path that names a FIFO would
block the read until something writes to it (forever, for `sqrl team join` and `sqrl serve`), a
directory or a device is no certificate. It is opened without blocking and checked before a
byte is read.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Final

MAX_PEM_BYTES: Final = 1 << 20
"""A certificate chain or key is a few kilobytes; a file past 1 MiB is not one."""


def read_pem(path: Path) -> bytes:
    """The bytes of the regular file at `path`; `OSError` (with `strerror` and `filename`)
    when it cannot be read, is not a regular file or is larger than `MAX_PEM_BYTES`."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(MAX_PEM_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_PEM_BYTES:
        raise OSError(errno.EFBIG, "larger than 1 MiB, not a PEM file", str(path))
    return data
