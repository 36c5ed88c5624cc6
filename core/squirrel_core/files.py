"""Private files and folders: created 0700/0600, written atomically."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from squirrel_core.errors import FailedPreconditionError

DIR_MODE = 0o700
FILE_MODE = 0o600


def ensure_private_dir(path: Path) -> Path:
    """Creates `path` (and parents) with mode 0700; tightens an existing folder's mode."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    with contextlib.suppress(PermissionError):
        path.chmod(DIR_MODE)
    return path


def write_private_file(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Replaces `path` atomically with `data`, mode 0600 (never briefly world-readable).
    `sync=False` skips the fsync: for a file a crash may leave as it was (a change mark)."""
    ensure_private_dir(path.parent)
    replace_file(path, data, mode=FILE_MODE, sync=sync)


def replace_file(path: Path, data: bytes, *, mode: int, sync: bool = True) -> None:
    """Replaces `path` atomically with `data`, written with `mode` from the start (and on disk
    before the rename, with `sync`); the folder must exist."""
    import tempfile  # noqa: PLC0415 - writers only: keeps every reading command light

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        Path(tmp).replace(path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            Path(tmp).unlink()
        raise


def write_json_file(path: Path, data: Any, *, new_mode: int) -> None:
    """Replaces a JSON file of someone else's (a host's settings) atomically, indented, keeping
    its mode; a new file gets `new_mode`. A link is refused (`FailedPreconditionError`), never
    written through nor replaced: it may point out of the repository, or be the user's own link
    to a file they keep elsewhere."""
    if path.is_symlink():
        raise FailedPreconditionError(
            f"{path} is a link to {path.readlink()}; Squirrel does not write through links. "
            "Add the setting to the file it points at, or replace the link with a file, and run "
            "again. Both were left untouched."
        )
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = new_mode
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    replace_file(path, text.encode("utf-8"), mode=mode)
