"""The shared-memory index SQLite maps into memory beside a WAL database (`data.db-shm`), checked
before each use: a touch of a page it maps (a write, or a read taking its read mark) is a SIGBUS,
not an error, once the file shrank under it or was made immutable, and the service would die
with the write in hand. Checked first, the
write is refused with a line naming the file and what to do, and nothing is lost (the caller
keeps what it sent and retries)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from squirrel_core.file_flags import fixed, unwritable_reason
from squirrel_memory.storage.sqlite.connection import StorageError


class MappedIndexUnsafeError(StorageError):
    """A use of the database refused because touching its mapped `-shm` file would crash the
    process (`MappedIndex.problem`); the message names the file and what to do."""


class MappedIndex:
    """The `-shm` file of one database: the inode and size SQLite has mapped (as last seen after
    a write), and why using it now would crash the process ("" when it would not)."""

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + "-shm")
        self._inode = 0
        self._size = 0

    def seen(self) -> None:
        """Notes the file as it is now: called once SQLite has used it (opened, written)."""
        with contextlib.suppress(OSError):
            stat = self.path.stat()
            if stat.st_ino != self._inode:
                self._inode, self._size = stat.st_ino, stat.st_size
            else:
                self._size = max(self._size, stat.st_size)

    def problem(self) -> str:
        """Why touching the mapped index now would crash the process: it is shorter than what
        SQLite mapped, or it no longer takes writes (a read writes there too: its read mark).
        "" when it is fine, or when the file at the path is not the one SQLite mapped (deleted
        or replaced: SQLite keeps using its own, which stays valid)."""
        try:
            stat = self.path.stat()
        except OSError:
            return ""
        if not self._inode or stat.st_ino != self._inode:
            return ""
        if stat.st_size < self._size:
            return (
                f"its shared-memory index {self.path} was cut to {stat.st_size:,} of"
                f" {self._size:,} bytes while the memory service had it mapped; restart the"
                " services (`sqrl down`, then `sqrl up -d`) and SQLite rebuilds it from the"
                " write-ahead log"
            )
        if not os.access(self.path, os.W_OK) and fixed(self.path):
            return (
                f"its shared-memory index {self.path} was made immutable or append-only while"
                f" the memory service had it mapped; clear the flag (`chattr -i -a {self.path}`),"
                " then restart the services (`sqrl down`, then `sqrl up -d`)"
            )
        return ""

    def restore(self) -> bool:
        """Gives a file cut short under SQLite its mapped size back (the new bytes are zeros:
        SQLite then rebuilds the index from the write-ahead log, as after a crash), so closing
        the database does not fault; True when it did. Only once nothing else uses the
        database: a reader mid-read would see the index emptied under it."""
        try:
            stat = self.path.stat()
            if stat.st_ino != self._inode or stat.st_size >= self._size:
                return False
            os.truncate(self.path, self._size)
        except OSError:
            return False
        return True

    def unwritable(self) -> str:
        """The `-shm` or `-wal` file beside the database that refuses writes (immutable or
        append-only, or not writable by this user), for a refused write's message; ""."""
        wal = self.path.with_name(self.path.name.removesuffix("-shm") + "-wal")
        return next((why for path in (self.path, wal) if (why := unwritable_reason(path))), "")
