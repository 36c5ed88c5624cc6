"""Which transcript files lie under the watched roots, and which source each one belongs to.

Two roots of a source can be one folder reached by two paths (`~/.config/claude` a link to
`~/.claude`, both default Claude Code roots), or one inside the other: each transcript is then
read once, under the root listed first (`distinct_roots`, `read_under`). Read under both, every
event was sent twice and a file skipped was counted twice."""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from squirrel_core.events import SourceTool
from squirrel_ingest.cursor.reader import CursorReader
from squirrel_ingest.status import WatchedRoot
from squirrel_ingest.watcher import walk_files

Roots = Mapping[SourceTool, Sequence[Path]]
"""The folders watched for each source's transcripts."""


def walk_roots(roots: Roots, sources: Collection[SourceTool]) -> list[Path]:
    """Every file under the roots of `sources` (blocks: run it in a worker)."""
    found: list[Path] = []
    for source, paths in roots.items():
        if source in sources:
            for root in distinct_roots(paths):
                found.extend(walk_files(root))
    return found


def distinct_roots(paths: Sequence[Path]) -> list[Path]:
    """The roots `paths` of one source less each that is the same folder as one listed before
    it, or lies inside another, once links are followed (blocks: it resolves links)."""
    real = [_real(path) for path in paths]
    kept = []
    for i, (path, where) in enumerate(zip(paths, real, strict=True)):
        if not any(
            j != i and where.is_relative_to(other) and (where != other or j < i)
            for j, other in enumerate(real)
        ):
            kept.append(path)
    return kept


def read_under(paths: Sequence[Path], path: Path) -> Path | None:
    """The path the file at `path` (under one of the roots `paths` of its source) is read
    under: itself under a root of `distinct_roots`, else where that root's folder lies under
    one of them; None outside them all."""
    kept = distinct_roots(paths)
    if any(_holds(root, path) for root in kept):
        return path
    for root in paths:
        if _holds(root, path):
            where = _real(root) / path.relative_to(root)
            for other in kept:
                if where.is_relative_to(_real(other)):
                    return other / where.relative_to(_real(other))
    return None


def _holds(root: Path, path: Path) -> bool:
    return path == root or path.is_relative_to(root)


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def expand(changed: Collection[Path], known: Collection[Path]) -> list[Path]:
    """The changed paths in order, a folder not `known` as a file replaced by the files under it
    (blocks: run it in a worker). A link to a folder is left out, as `walk_files` leaves out
    those below a root: it may point anywhere on the machine."""
    out: list[Path] = []
    for path in sorted(changed):
        if path in known or not path.is_dir():
            out.append(path)
        elif not path.is_symlink():
            out.extend(walk_files(path))
    return out


def source_of(roots: Roots, path: Path) -> SourceTool | None:
    """The source whose root holds `path` (lexically), or None outside every root."""
    for source, paths in roots.items():
        for root in paths:
            if path == root or path.is_relative_to(root):
                return source
    return None


def watched_roots(
    roots: Roots, files: Collection[Path], cursor: CursorReader | None
) -> list[WatchedRoot]:
    """Every root, whether it exists, and how many of the tracked `files` lie under it; then
    each of Cursor's stores and the chats it holds."""
    watched: list[WatchedRoot] = []
    for source, paths in roots.items():
        for root in paths:
            found = sum(1 for path in files if path.is_relative_to(root))
            watched.append(WatchedRoot(source, str(root), root.is_dir(), found))
    if cursor is not None:
        for store in cursor.stores():
            chats = cursor.chats_in(store)
            watched.append(WatchedRoot(SourceTool.CURSOR, str(store), store.is_file(), chats))
    return watched
