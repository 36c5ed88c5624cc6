"""Repositories with assistant history on this machine: sessions per repository, last activity.

Each transcript under the assistants' folders names the folder its session ran in (Claude Code
and Codex in their records, Gemini in the `.project_root` marker beside its chats). That folder
is mapped to its git repository, a linked worktree to the repository it belongs to, so a
repository worked on through worktrees shows up once. Cursor keeps its chats in SQLite; its
workspaces (folder and chat count) are passed in as `Activity`.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from squirrel_core.events import SourceTool
from squirrel_core.worktrees import WorktreeMemory, common_dir

_HEAD_BYTES: Final = 256 * 1024
"""How much of a transcript is read to find its working folder."""

_MAX_FILES: Final = 200_000


@dataclass(frozen=True, slots=True)
class Activity:
    """Sessions found outside transcript files (Cursor's workspaces): folder, count, when."""

    source: SourceTool
    folder: str
    sessions: int
    last_activity: datetime | None


@dataclass(slots=True)
class Repository:
    """A folder sessions ran in, as its repository: how many sessions, when last, from where."""

    root: str
    sessions: int = 0
    last_activity: datetime | None = None
    sources: set[str] = field(default_factory=set)
    exists: bool = True
    is_git: bool = True
    registered: bool = False


def discover(
    roots: Mapping[SourceTool, Sequence[Path]],
    registered: Sequence[str],
    memory: WorktreeMemory | None = None,
    activity: Iterable[Activity] = (),
) -> list[Repository]:
    """Every repository with sessions under `roots` (or in `activity`), most recent first."""
    remembered = memory.entries() if memory is not None else {}
    found: dict[str, Repository] = {}
    cache: dict[str, tuple[str, bool, bool]] = {}

    def count(source: SourceTool, cwd: str, sessions: int, when: datetime | None) -> None:
        if cwd not in cache:
            cache[cwd] = repository_of(cwd, remembered)
        root, exists, is_git = cache[cwd]
        repo = found.setdefault(root, Repository(root, exists=exists, is_git=is_git))
        repo.sessions += sessions
        repo.sources.add(source.value)
        if when is not None and (repo.last_activity is None or when > repo.last_activity):
            repo.last_activity = when

    for source, path in _transcripts(roots):
        cwd = session_cwd(source, path)
        if not cwd or not Path(cwd).is_absolute():
            continue
        try:
            mtime = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        except OSError:
            continue
        count(source, cwd, 1, mtime)
    for seen in activity:
        if seen.sessions > 0 and Path(seen.folder).is_absolute():
            count(seen.source, seen.folder, seen.sessions, seen.last_activity)
    for repo in found.values():
        repo.registered = any(_inside(repo.root, r) for r in registered)
    oldest = datetime.min.replace(tzinfo=UTC)
    return sorted(found.values(), key=lambda r: r.last_activity or oldest, reverse=True)


def repository_of(cwd: str, remembered: Mapping[str, str]) -> tuple[str, bool, bool]:
    """(repository root, whether it exists, whether it is a git repository) for a folder."""
    for known, repo in remembered.items():
        if _inside(cwd, known):
            return repo, Path(repo).is_dir(), True
    path = Path(cwd)
    with contextlib.suppress(OSError, RuntimeError):  # a loop of links: keep the path as given
        path = path.resolve()
    existing = next((p for p in (path, *path.parents) if p.exists()), None)
    if existing is None:
        return str(path), False, False
    for folder in (existing, *existing.parents):
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return str(folder), True, True
        if dot_git.is_file():  # a linked worktree (or submodule): its repository's common dir
            common = common_dir(folder)
            if common is not None and common.name == ".git" and common.parent.is_dir():
                return str(common.parent.resolve()), True, True
            return str(folder), True, True
    return str(path), existing == path, False  # a folder that is gone, or not in a repository


def session_cwd(source: SourceTool, path: Path) -> str | None:
    """The folder a transcript's session ran in, or None when the file does not say."""
    if source is SourceTool.GEMINI_CLI:
        return _gemini_cwd(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(_HEAD_BYTES)
    except OSError:
        return None
    for line in head.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        cwd = record.get("cwd")
        if source is SourceTool.CODEX and isinstance(record.get("payload"), dict):
            cwd = cwd or record["payload"].get("cwd")
        if isinstance(cwd, str) and cwd:
            return cwd
    return None


def _gemini_cwd(path: Path) -> str | None:
    for parent in path.parents:
        if parent.name == "chats":
            marker = parent.parent / ".project_root"
            try:
                text = marker.read_text(errors="replace").strip()
            except OSError:
                return None
            return text or None
    return None


def _transcripts(roots: Mapping[SourceTool, Sequence[Path]]) -> Iterable[tuple[SourceTool, Path]]:
    seen = 0
    for source, folders in roots.items():
        for folder in folders:
            if not folder.is_dir():
                continue
            for dirpath, dirnames, filenames in os.walk(folder):
                dirnames[:] = [d for d in dirnames if d != "subagents"]
                for name in filenames:
                    if _is_session(source, name, dirpath):
                        seen += 1
                        if seen > _MAX_FILES:
                            return
                        yield source, Path(dirpath) / name


def _is_session(source: SourceTool, name: str, folder: str) -> bool:
    if source is SourceTool.CLAUDE_CODE:
        return name.endswith(".jsonl") and not name.startswith("agent-")
    if source is SourceTool.CODEX:
        return name.startswith("rollout-") and name.endswith(".jsonl")
    if source is SourceTool.GEMINI_CLI:
        return Path(folder).name == "chats" and name.startswith("session-")
    return False


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
