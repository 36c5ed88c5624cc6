"""Opening a path that may hold anything (a pipe, a device) for reading, without waiting on it.

A transcript folder or a cloned repository is not the user's to vouch for: a named pipe (FIFO)
where a file was expected blocks an ordinary `open` until something writes to it, forever if
nothing does, and a device may never end. `open_regular` opens without waiting (`O_NONBLOCK`:
a pipe opens at once, with or without a writer), checks what it opened on the descriptor itself
(`fstat`: nothing can swap the path between the check and the read), and gives back a blocking
handle only for a regular file; anything else is closed and refused with `NotAFileError` (a
folder with `IsADirectoryError`, as `open` refuses it).
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO, Final

#: Open without waiting for a pipe's writer (0 where the platform has no such flag).
_NON_BLOCKING: Final = getattr(os, "O_NONBLOCK", 0)
#: Open without following a link in the last step (0 where the platform has no such flag).
_NO_FOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)


class NotAFileError(OSError):
    """The path is a pipe, a device or a socket, not a regular file: it is never read."""


def open_regular(path: str | os.PathLike[str], *, follow_links: bool = True) -> BinaryIO:
    """`path` opened for reading as bytes when it is a regular file; `NotAFileError` for a
    pipe, a device or a socket, `IsADirectoryError` for a folder, and without `follow_links`
    a link refused (`OSError` ELOOP)."""
    flags = os.O_RDONLY | _NON_BLOCKING | (0 if follow_links else _NO_FOLLOW)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        if not stat.S_ISREG(mode):
            raise NotAFileError(errno.EINVAL, "not a regular file", os.fspath(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
