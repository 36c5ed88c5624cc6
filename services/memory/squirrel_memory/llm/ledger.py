"""A small JSON file under the home's run folder that outlives a restart: spending windows and
the last consolidation of each project. Written whole to a temporary file and renamed (0600);
a missing or unreadable file reads as empty, so a damaged one costs at most one window."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import structlog

log = structlog.get_logger()


def load_ledger(path: Path | None) -> dict[str, Any]:
    """The file's object, or {} when there is none or it cannot be read."""
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.warning("llm_ledger_unreadable", path=str(path), error_type=type(exc).__name__)
        return {}
    return data if isinstance(data, dict) else {}


def save_ledger(path: Path | None, data: dict[str, Any]) -> None:
    """Replace the file with `data` (atomically, owner-only); failures are logged, not raised:
    a cap that forgets is better than a call that fails."""
    if path is None:
        return
    tmp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        tmp = Path(name)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, separators=(",", ":"))
        tmp.chmod(0o600)
        tmp.replace(path)
        tmp = None
    except OSError as exc:
        log.warning("llm_ledger_not_saved", path=str(path), error_type=type(exc).__name__)
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                tmp.unlink()
