"""Whether a file is immutable or append-only (Linux inode flags, as `lsattr` prints them): no
write goes through then, root's included, not even through a mapping opened before the flag
was set. `chmod` cannot tell it, and `os.access` only says the file is not writable."""

from __future__ import annotations

import fcntl
import os
import struct
from pathlib import Path
from typing import Final

FS_IOC_GETFLAGS: Final = 0x80086601
"""Linux's ioctl reading a file's inode flags."""
_FIXED_FLAGS: Final = 0x10 | 0x20
"""FS_IMMUTABLE_FL and FS_APPEND_FL."""


def fixed(path: Path) -> bool:
    """Whether `path` is immutable or append-only (False where the flags cannot be read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        raw = fcntl.ioctl(fd, FS_IOC_GETFLAGS, bytes(8))
    except OSError:
        return False
    finally:
        os.close(fd)
    (flags,) = struct.unpack_from("=i", raw)
    return bool(flags & _FIXED_FLAGS)


def unwritable_reason(path: Path) -> str:
    """Why `path` takes no write from this user, with the command that shows it ("" when it
    takes writes or does not exist)."""
    if not path.exists() or os.access(path, os.W_OK):
        return ""
    if fixed(path):
        return f"{path} is immutable or append-only (`lsattr` shows it; `chattr -i -a` clears it)"
    return f"{path} is not writable by this user (`ls -l` shows it)"
