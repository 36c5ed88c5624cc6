"""Whether each project's store takes writes: what the memory service last saw (a write the file
system refused: the disk full, a file size limit, a read-only file) and the room left on the disk
holding it. Shared by `sqrl status` (one line per refusing store) and `sqrl doctor` (a check)."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from squirrel_core.file_flags import unwritable_reason

LOW_SPACE_BYTES: Final = 64 * 1024 * 1024
"""Less free space than this on the disk holding a store is reported: a processing pass or an
import writes tens of megabytes."""


def refused_line(project: dict[str, Any], ingest: dict[str, Any] | None) -> str | None:
    """One line saying a project's store refuses writes, and what is kept meanwhile; None when
    its last write went through (or the memory service was not asked)."""
    failure = project.get("write_failure")
    if not failure:
        return None
    since = ""
    if project.get("write_failed_at"):
        when = datetime.fromisoformat(str(project["write_failed_at"])).astimezone()
        since = f" (last at {when:%H:%M:%S})"
    buffered = (ingest or {}).get("buffered_events")
    kept = (
        f"ingest keeps {buffered:,} undelivered event{'s' * (buffered != 1)} and retries"
        if buffered
        else "ingest keeps what it has not delivered and retries"
    )
    return (
        f"Writes refused in {project['project']}{since}: {failure}. Nothing of a refused write"
        f" was stored; {kept}, nothing is dropped. Free space or fix the store's permissions"
        " (`sqrl doctor`)."
    )


def space_problem(store_dir: Path) -> str | None:
    """Why the store at `store_dir` cannot take writes as this user, or why it soon may not
    (little free space); None when it can. A store not created yet is checked at its parent."""
    folder = store_dir if store_dir.exists() else store_dir.parent
    if not folder.exists():
        return None
    files = ("data.db", "data.db-wal", "data.db-shm")
    unwritable = [
        why for path in (folder, *(folder / n for n in files)) if (why := unwritable_reason(path))
    ]
    if unwritable:
        return "; ".join(unwritable)
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return None
    if free < LOW_SPACE_BYTES:
        return f"only {free / 2**20:.1f} MiB free on the disk holding {folder}"
    return None
