"""The project's tasks, from the task-runner files the assistant read in a session.

Without a registered repository, a root `package.json`, `Makefile`, `justfile`, `mix.exs`,
`tox.ini` … that the assistant read still says how the project is driven: its scripts, targets
and aliases go through the repository's own task readers, and those with a known purpose
(tests, lint, format, type-check, dev server, migrations, build, set-up) make one recipe per
file ("Tasks in package.json: `npm run dev` starts the dev server (runs `next dev`); …").
The package manager is the one whose lock file the session touched (npm without one).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import structlog

from squirrel_memory.extractors.about import root_file_read
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.runners import TASK_READERS
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.snapshot import Snapshot, TextFile, TrackedFile

log = structlog.get_logger()

#: Tasks named per file, in this order of purposes.
_PURPOSES = {
    "test": "runs the tests",
    "lint": "lints the code",
    "format": "formats the code",
    "typecheck": "type-checks the code",
    "run": "starts the dev server",
    "build": "builds the project",
    "migrate": "runs the database migrations",
    "install": "sets the project up",
}
_LOCK_FILES = frozenset({"pnpm-lock.yaml", "yarn.lock", "bun.lockb", "bun.lock"})


@dataclass(frozen=True, slots=True)
class Tasks:
    """One task file's recipe: its key, statement, the file and the events that read it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def _lock_files(events: list[StoredEvent]) -> dict[str, TrackedFile]:
    found: dict[str, TrackedFile] = {}
    for event in events:
        for raw in event.file_paths:
            path = relative_path(raw, event.project_id)
            if path in _LOCK_FILES:
                found[path] = TrackedFile(path, 0, "")
    return found


def session_tasks(events: list[StoredEvent]) -> list[Tasks]:
    """One recipe per root task file read in `events` that defines tasks of a known purpose."""
    if not events:
        return []
    snap = Snapshot(root=Path(events[0].project_id), head="", files=_lock_files(events))
    readings: dict[str, tuple[Readings, list[str]]] = {}
    for event in events:
        read = root_file_read(event, lambda p: p in TASK_READERS)
        if read is None:
            continue
        path, text = read
        out = Readings()
        try:
            TASK_READERS[path](snap, TextFile.of(path, text), out)
        except PARSE_ERRORS as exc:  # a partial or malformed read: this file says nothing
            log.debug("session_file_unreadable", path=path, reason=type(exc).__name__)
            continue
        if out.commands:
            ids = readings.get(path, (out, []))[1]
            readings[path] = (out, [*ids, event.id])
    found: list[Tasks] = []
    for path, (out, ids) in readings.items():
        first: dict[str, str] = {}
        for command in out.commands:
            if command.purpose in _PURPOSES and command.purpose not in first:
                detail = f" ({command.detail})" if command.detail else ""
                first[command.purpose] = f"`{command.text}` {_PURPOSES[command.purpose]}{detail}"
        if first:
            listed = "; ".join(first[p] for p in _PURPOSES if p in first)
            found.append(Tasks(f"tasks:{path}", f"Tasks in {path}: {listed}.", path, tuple(ids)))
    return found
