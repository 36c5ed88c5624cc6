"""Project routing: the registered project whose root holds a record's working directory."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path, PurePath
from typing import Final

_CACHE_LIMIT: Final = 4096
_UNREGISTERED_SAMPLE: Final = 256


def project_id_for(root: str | os.PathLike[str]) -> str:
    """The project id of a repository root: its absolute, symlink-resolved path."""
    return str(Path(root).expanduser().resolve())


class ProjectRouter:
    """Maps a record's `cwd` to the deepest registered project root that contains it.

    Paths are compared after resolving symlinks, so a cwd reached through a link routes to the
    project of its real location. Records that match no project are counted, not kept.
    """

    def __init__(self, roots: Iterable[str | os.PathLike[str]] = ()) -> None:
        self._roots: frozenset[str] = frozenset()
        self._cache: dict[str, str | None] = {}
        self.unregistered_records = 0
        self.records_without_cwd = 0
        # Records per unregistered working directory, for `sqrl status` (at most
        # `_UNREGISTERED_SAMPLE` directories; `unregistered_records` counts them all).
        self.unregistered: Counter[str] = Counter()
        self.replace(roots)

    @property
    def project_ids(self) -> frozenset[str]:
        """Every registered project id."""
        return self._roots

    def replace(self, roots: Iterable[str | os.PathLike[str]]) -> None:
        """Use a new set of registered project roots (e.g. after `sqrl init`)."""
        self._roots = frozenset(project_id_for(root) for root in roots)
        self._cache.clear()

    def route(self, cwd: str | None) -> str | None:
        """The project id for `cwd`, or None (counted) when no registered project contains it."""
        if not cwd:
            self.records_without_cwd += 1
            return None
        project = self._cache[cwd] if cwd in self._cache else self._lookup(cwd)
        if project is None:
            self.unregistered_records += 1
            if cwd in self.unregistered or len(self.unregistered) < _UNREGISTERED_SAMPLE:
                self.unregistered[cwd] += 1
        return project

    def _lookup(self, cwd: str) -> str | None:
        project: str | None = None
        if PurePath(cwd).is_absolute():
            try:
                project = self._deepest(Path(cwd).resolve())
            except (OSError, RuntimeError):  # unreadable parents, symlink loops
                project = self._deepest(PurePath(cwd))
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[cwd] = project
        return project

    def _deepest(self, path: PurePath) -> str | None:
        for candidate in (path, *path.parents):
            key = str(candidate)
            if key in self._roots:
                return key
        return None
