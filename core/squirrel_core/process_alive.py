"""Whether a process runs, by its pid. Standard library only: the hook process imports it
(`squirrel_cli.hook_client`), where every millisecond of start-up counts."""

from __future__ import annotations

import os
from pathlib import Path


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid runs (one of another user's counts as alive; one that has
    exited but whose parent has not reaped it yet, a zombie, does not)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _exited(pid)


def _exited(pid: int) -> bool:
    """Whether the process is a zombie, where the system says (Linux's /proc); else False."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    fields = text.rsplit(")", 1)[-1].split()
    return bool(fields) and fields[0] == "Z"
