"""The records under `<home>/run` that the services (and `sqrl serve`) write once, at their
start, kept by the supervisor so it can write them again when `run/` is deleted while they run.

Which team server each running service uses (`<service>-team.json`: `sqrl doctor` and `sqrl
team join` tell from it that a restart is still needed), and on a team server the address it
serves laptops on (`team-server.json`, `serve.json`: `sqrl status` says "serving a team on
HOST:PORT" from it). Their writers never write them again, so a deleted `run/` lost them for the
rest of the run. A record is copied as its writer wrote it, and written again only while that
writer (its `pid`) is one of the processes the supervisor names as running.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from pathlib import Path

from squirrel_core.files import write_private_file


class KeptRecords:
    """The last content seen of each watched record, by path."""

    def __init__(self, paths: Iterable[Path]) -> None:
        self._paths = tuple(paths)
        self._seen: dict[Path, tuple[int, bytes]] = {}

    def restore(self, running: Collection[int]) -> list[str]:
        """Takes a copy of each watched record there now whose writer is in `running`, and
        writes again each one missing whose writer still is; the names of those written."""
        written: list[str] = []
        for path in self._paths:
            try:
                body = path.read_bytes()
            except FileNotFoundError:
                kept = self._seen.get(path)
                if kept is not None and kept[0] in running:
                    write_private_file(path, kept[1])
                    written.append(path.name)
                continue
            except OSError:
                continue
            pid = _writer(body)
            if pid is not None and pid in running:
                self._seen[path] = (pid, body)
        return written


def _writer(body: bytes) -> int | None:
    """The `pid` a record names (every one of them does), or None."""
    try:
        pid = json.loads(body)["pid"]
    except (ValueError, KeyError, TypeError):
        return None
    return pid if isinstance(pid, int) and not isinstance(pid, bool) else None
