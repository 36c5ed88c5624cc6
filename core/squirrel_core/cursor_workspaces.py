"""Which folder each Cursor chat ran in: `workspaceStorage/<hash>/` of Cursor's `User` folder.

Each workspace folder holds `workspace.json` (`{"folder": "file:///path"}`, or `{"workspace":
"file:///x.code-workspace"}` for a multi-root workspace) and its own `state.vscdb`, whose
`ItemTable` row `composer.composerData` lists the chats opened there (`allComposers`).
Only local `file:` folders are accepted: remote (`vscode-remote:`), network and malformed
locations are counted by reason and their chats are not read.
"""

from __future__ import annotations

import json
import posixpath
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlsplit

from squirrel_core.cursor_store import StoreUnavailableError, read_store, rows_for_keys
from squirrel_core.timestamps import parse_timestamp

WORKSPACE_STORAGE: Final = "workspaceStorage"
COMPOSERS_KEY: Final = "composer.composerData"
MAX_WORKSPACE_FILE_BYTES: Final = 256 * 1024
MAX_COMPOSER_LIST_BYTES: Final = 16 * 1024 * 1024
MAX_URI_CHARS: Final = 4096
MAX_WORKSPACES: Final = 10_000


@dataclass(frozen=True, slots=True)
class Workspace:
    """One Cursor workspace: its folder (None when rejected, with `problem`), its chats."""

    folder: str | None
    composers: tuple[str, ...] = ()
    last_activity: datetime | None = None
    problem: str | None = None


def folder_from_uri(uri: object) -> tuple[str | None, str | None]:
    """(folder, None) for a local `file:` URI, else (None, the reason it was not taken)."""
    if not isinstance(uri, str) or not uri or len(uri) > MAX_URI_CHARS:
        return None, "bad_folder_uri"
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None, "bad_folder_uri"
    if parts.scheme.lower() != "file":
        return None, "remote_folder"
    if parts.netloc not in ("", "localhost"):
        return None, "network_folder"
    path = unquote(parts.path)
    if "\x00" in path or not path:
        return None, "bad_folder_uri"
    if len(path) > 2 and path[0] == "/" and path[2] == ":" and path[1].isalpha():
        return path[1:].replace("\\", "/"), None  # file:///c%3A/Users/... → c:/Users/...
    if not path.startswith("/"):
        return None, "bad_folder_uri"
    return posixpath.normpath(path), None


class WorkspaceIndex:
    """The workspaces of one or more Cursor `User` folders, re-read only when they change."""

    def __init__(self, on_problem: Callable[[str], None] | None = None) -> None:
        self._cache: dict[Path, tuple[tuple[int, ...], Workspace]] = {}
        self._on_problem = on_problem
        self.problems: Counter[str] = Counter()

    def workspaces(self, user_dir: Path) -> dict[Path, Workspace]:
        """Every workspace under `user_dir`, by its folder in `workspaceStorage`."""
        found: dict[Path, Workspace] = {}
        for folder in _workspace_dirs(user_dir):
            stamp = _stamp(folder)
            cached = self._cache.get(folder)
            if cached is not None and cached[0] == stamp:
                found[folder] = cached[1]
                continue
            workspace = read_workspace(folder)
            if workspace.problem is not None:
                self.problems[workspace.problem] += 1
                if self._on_problem is not None:
                    self._on_problem(workspace.problem)
            self._cache[folder] = (stamp, workspace)
            found[folder] = workspace
        for gone in [f for f in self._cache if f.is_relative_to(user_dir) and f not in found]:
            del self._cache[gone]
        return found

    def folders(self, user_dir: Path) -> dict[str, str]:
        """Composer id → the folder its chat ran in (the first workspace listing it wins)."""
        mapping: dict[str, str] = {}
        for _, workspace in sorted(self.workspaces(user_dir).items()):
            if workspace.folder is None:
                continue
            for composer_id in workspace.composers:
                mapping.setdefault(composer_id, workspace.folder)
        return mapping


def read_workspace(folder: Path) -> Workspace:
    """One workspace folder: where it points and the chats its store lists."""
    description = _json_file(folder / "workspace.json")
    if description is None:
        return Workspace(None, problem="workspace_json_unreadable")
    if "folder" in description:
        path, problem = folder_from_uri(description.get("folder"))
    elif "workspace" in description:
        path, problem = _first_folder_of(description.get("workspace"))
    else:
        path, problem = None, "workspace_without_folder"
    composers, last, store_problem = _composers(folder / "state.vscdb")
    return Workspace(path, composers, last, problem or store_problem)


def _first_folder_of(uri: object) -> tuple[str | None, str | None]:
    """The first folder of a multi-root `.code-workspace` file (relative paths resolved)."""
    file, problem = folder_from_uri(uri)
    if file is None:
        return None, problem
    data = _json_file(Path(file))
    folders = data.get("folders") if data else None
    first = folders[0] if isinstance(folders, list) and folders else None
    if not isinstance(first, dict):
        return None, "workspace_file_unreadable"
    if isinstance(first.get("uri"), str):
        return folder_from_uri(first["uri"])
    path = first.get("path")
    if not isinstance(path, str) or not path or "\x00" in path:
        return None, "workspace_file_unreadable"
    return posixpath.normpath(posixpath.join(posixpath.dirname(file), path)), None


def _composers(store: Path) -> tuple[tuple[str, ...], datetime | None, str | None]:
    """The chats a workspace store lists, their latest activity, and why none could be read."""
    if not store.is_file():
        return (), None, None

    def read(connection: sqlite3.Connection) -> str | bytes | None:
        rows = rows_for_keys(connection, "ItemTable", [COMPOSERS_KEY], MAX_COMPOSER_LIST_BYTES)
        row = rows.get(COMPOSERS_KEY)
        return row.value if row is not None else None

    try:
        value = read_store(store, read)
    except StoreUnavailableError as exc:
        return (), None, f"workspace_{exc.problem.value}"
    listed = _loads(value).get("allComposers") if value is not None else None
    ids: list[str] = []
    last: datetime | None = None
    for entry in listed if isinstance(listed, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("composerId"), str):
            continue
        ids.append(entry["composerId"])
        when = parse_timestamp(entry.get("lastUpdatedAt")) or parse_timestamp(
            entry.get("createdAt")
        )
        if when is not None and (last is None or when > last):
            last = when
    if last is None and ids:
        try:
            last = datetime.fromtimestamp(store.stat().st_mtime, UTC)
        except OSError:
            last = None
    return tuple(dict.fromkeys(ids)), last, None


def _workspace_dirs(user_dir: Path) -> Iterator[Path]:
    storage = user_dir / WORKSPACE_STORAGE
    try:
        entries = sorted(storage.iterdir())
    except OSError:
        return
    for entry in entries[:MAX_WORKSPACES]:
        if entry.is_dir() and not entry.is_symlink():
            yield entry


def _stamp(folder: Path) -> tuple[int, ...]:
    stamp: list[int] = []
    for name in ("workspace.json", "state.vscdb", "state.vscdb-wal"):
        try:
            stat = (folder / name).stat()
        except OSError:
            stamp.extend((0, 0))
            continue
        stamp.extend((stat.st_size, stat.st_mtime_ns))
    return tuple(stamp)


def _json_file(path: Path) -> dict[str, Any] | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_WORKSPACE_FILE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_WORKSPACE_FILE_BYTES:
        return None
    value = _loads(data)
    return value or None


def _loads(data: str | bytes) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


@dataclass(slots=True)
class FolderActivity:
    """Cursor chats per folder, for discovery: how many, and the latest activity."""

    folder: str
    chats: int = 0
    last_activity: datetime | None = None


def folder_activity(user_dirs: list[Path]) -> list[FolderActivity]:
    """The folders Cursor chats ran in under these `User` folders, with their chat counts."""
    index = WorkspaceIndex()
    found: dict[str, FolderActivity] = {}
    for user_dir in user_dirs:
        for workspace in index.workspaces(user_dir).values():
            if workspace.folder is None or not workspace.composers:
                continue
            entry = found.setdefault(workspace.folder, FolderActivity(workspace.folder))
            entry.chats += len(workspace.composers)
            last = workspace.last_activity
            if last is not None and (entry.last_activity is None or last > entry.last_activity):
                entry.last_activity = last
    return list(found.values())
