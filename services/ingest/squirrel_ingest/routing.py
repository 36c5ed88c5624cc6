"""Project routing: the registered project whose root, or one of whose linked git worktrees,
holds a record's working directory; and moving a worktree's paths onto the main checkout."""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, Final

from squirrel_core.events import Event
from squirrel_core.redaction import redact_value
from squirrel_core.worktrees import (
    WorktreeMemory,
    branches,
    claude_worktree_root,
    current_branch,
    linked_worktrees,
)

_CACHE_LIMIT: Final = 4096
_UNREGISTERED_SAMPLE: Final = 256
_MISS_REFRESH_S: Final = 5.0
_MAX_DEPTH: Final = 8
_PATH_END: Final = r"(?=$|[/\\\s'\"`:;,)\]}>])"
"""A root ends where a path separator, a quote, whitespace or punctuation follows it."""


def project_id_for(root: str | os.PathLike[str]) -> str:
    """The project id of a repository root: its absolute, symlink-resolved path."""
    return str(Path(root).expanduser().resolve())


@dataclass(frozen=True, slots=True)
class Route:
    """Where a working directory belongs: the project, and the root of the checkout it is in
    (the project root itself, or a linked worktree's root), as resolved and as written."""

    project_id: str
    checkout: str
    written_checkout: str | None = None

    @property
    def in_worktree(self) -> bool:
        return self.checkout != self.project_id


def _resolve(path: PurePath) -> PurePath:
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # unreadable parents, symlink loops
        return path


class ProjectRouter:
    """Maps a record's `cwd` to the deepest registered project root or linked worktree holding it.

    Paths are compared after resolving symlinks, so a cwd reached through a link routes to the
    project of its real location. Worktrees come from git's records of every registered
    repository and from the paths remembered in `memory` (so removed worktrees still resolve);
    a cwd that is gone and unknown falls back to its session's git branch when exactly one
    registered repository has that branch. Records that match no project are counted, not kept.
    """

    def __init__(
        self,
        roots: Iterable[str | os.PathLike[str]] = (),
        *,
        memory: WorktreeMemory | None = None,
        use_git: bool = True,
        clock: Callable[[], float] = time.monotonic,
        own: Iterable[str | os.PathLike[str]] = (),
    ) -> None:
        self._roots: frozenset[str] = frozenset()
        # Squirrel's own folders (the home, where its model CLIs run): sessions there are the
        # ones Squirrel started itself, never routed and never counted.
        self._own = tuple(_resolve(PurePath(Path(p).expanduser())) for p in own)
        self._own_cache: dict[str, bool] = {}
        self.own_records = 0
        self._memory = memory or WorktreeMemory()
        self._use_git = use_git
        self._clock = clock
        self._places: dict[str, str] = {}  # checkout root (project or worktree) → project id
        self._checkouts: dict[str, tuple[str, ...]] = {}  # project id → its worktree roots
        self._branches: dict[str, frozenset[str]] = {}
        self._heads: dict[str, str | None] = {}
        self._refreshed_at: float | None = None
        self._cache: dict[tuple[str, str | None], Route | None] = {}
        self.unregistered_records = 0
        self.records_without_cwd = 0
        # Records per unregistered working directory, for `sqrl status` (at most
        # `_UNREGISTERED_SAMPLE` directories; `unregistered_records` counts them all).
        self.unregistered: Counter[str] = Counter()
        self._branch_of: dict[str, str] = {}  # the git branch last seen with each of those
        self.replace(roots)

    @property
    def project_ids(self) -> frozenset[str]:
        """Every registered project id."""
        return self._roots

    def worktrees(self) -> dict[str, str]:
        """Every known linked worktree root of a registered project → its project id."""
        return {path: project for path, project in self._places.items() if path != project}

    def checkouts(self, project_id: str) -> tuple[str, ...]:
        """The known linked worktree roots of `project_id`: a path a session names in one of
        them is a path of the project (`relocate`)."""
        found = self._checkouts.get(project_id)
        if found is None:
            found = tuple(
                sorted(
                    path
                    for path, project in self._places.items()
                    if project == project_id and path != project
                )
            )
            self._checkouts[project_id] = found
        return found

    def replace(self, roots: Iterable[str | os.PathLike[str]]) -> None:
        """Use a new set of registered project roots (e.g. after `sqrl init`); records already
        counted as unregistered that now belong to a project stop being counted."""
        self._roots = frozenset(project_id_for(root) for root in roots)
        self.refresh(use_git=self._use_git)
        for cwd in list(self.unregistered):
            if self._lookup(cwd, self._branch_of.get(cwd)) is not None:
                self.unregistered_records -= self.unregistered.pop(cwd)
                self._branch_of.pop(cwd, None)

    def refresh(self, *, use_git: bool = True) -> None:
        """Re-read every registered repository's worktrees and branches (blocking file reads;
        with `use_git`, also one `git worktree list` per repository)."""
        for project in sorted(self._roots):
            found = [w.path for w in linked_worktrees(project, use_git=use_git)]
            self._memory.remember(project, found)
            self._branches[project] = branches(project)
            self._heads[project] = current_branch(project)
        places = {path: project for path, project in self._memory.entries().items()}
        places = {path: project for path, project in places.items() if project in self._roots}
        places.update({root: root for root in self._roots})
        self._places = places
        self._checkouts.clear()
        self._refreshed_at = self._clock()
        self._cache.clear()

    def route(self, cwd: str | None) -> str | None:
        """The project id for `cwd`, or None (counted) when no registered project contains it."""
        found = self.resolve(cwd)
        return found.project_id if found else None

    def resolve(self, cwd: str | None, branch: str | None = None) -> Route | None:
        """Where `cwd` (of a session on git `branch`, when known) belongs, or None (counted)."""
        if not cwd:
            self.records_without_cwd += 1
            return None
        if self._own and self._is_own(cwd):
            self.own_records += 1
            return None
        key = (cwd, branch or None)
        found = self._cache[key] if key in self._cache else self._lookup(cwd, branch)
        if found is None:
            self.unregistered_records += 1
            if cwd in self.unregistered or len(self.unregistered) < _UNREGISTERED_SAMPLE:
                self.unregistered[cwd] += 1
                if branch:
                    self._branch_of[cwd] = branch
        return found

    def _is_own(self, cwd: str) -> bool:
        known = self._own_cache.get(cwd)
        if known is None:
            path = PurePath(cwd)
            real = _resolve(path) if path.is_absolute() else None
            known = real is not None and any(real == o or o in real.parents for o in self._own)
            if len(self._own_cache) >= _CACHE_LIMIT:
                self._own_cache.clear()
            self._own_cache[cwd] = known
        return known

    def _lookup(self, cwd: str, branch: str | None) -> Route | None:
        found: Route | None = None
        if PurePath(cwd).is_absolute() and self._roots:
            path = _resolve(PurePath(cwd))
            found = self._deepest(path)
            if found is None and self._stale():
                self.refresh(use_git=False)  # a worktree added since: git's files tell at once
                found = self._deepest(path)
            if found is None and branch:
                found = self._by_branch(path, branch)
            if found is not None:
                found = _with_written_form(found, PurePath(cwd), path)
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[(cwd, branch or None)] = found
        return found

    def _stale(self) -> bool:
        at = self._refreshed_at
        return at is None or self._clock() - at >= _MISS_REFRESH_S

    def _deepest(self, path: PurePath) -> Route | None:
        for candidate in (path, *path.parents):
            project = self._places.get(str(candidate))
            if project is None:
                continue
            checkout = candidate
            if project == str(candidate):  # Claude Code's own worktrees live inside the repo
                inner = claude_worktree_root(path.relative_to(candidate))
                checkout = candidate / inner if inner else candidate
            return Route(project, str(checkout))
        return None

    def _by_branch(self, path: PurePath, branch: str) -> Route | None:
        """A removed worktree never seen: the one repository that has its branch (not the
        branch of its main checkout, which no linked worktree can hold)."""
        if branch == "HEAD" or Path(path).exists():
            return None
        candidates = [
            p for p in sorted(self._roots) if branch in self._branches.get(p, frozenset())
        ]
        candidates = [p for p in candidates if self._heads.get(p) != branch]
        if len(candidates) > 1:
            named = [p for p in candidates if _names_repository(path, PurePath(p).name)]
            candidates = named
        if len(candidates) != 1:
            return None
        project = candidates[0]
        checkout = claude_worktree_root(path) or path
        self._memory.remember(project, [str(checkout)])
        self._places[str(checkout)] = project
        self._checkouts.pop(project, None)
        return Route(project, str(checkout))


def _names_repository(path: PurePath, name: str) -> bool:
    return bool(name) and any(name in part for part in path.parts[:-1])


def _with_written_form(found: Route, written: PurePath, resolved: PurePath) -> Route:
    """Adds how the checkout root is spelled in the record itself (before resolving links)."""
    if not found.in_worktree or written == resolved:
        return found
    depth = len(resolved.parts) - len(PurePath(found.checkout).parts)
    if depth < 0 or depth >= len(written.parts):
        return found
    spelled = PurePath(*written.parts[: len(written.parts) - depth])
    return dataclasses.replace(found, written_checkout=str(spelled))


def relocate(event: Event, route: Route, siblings: Iterable[str] = ()) -> Event:
    """The event as if it had happened in the main checkout: the worktree's root, wherever it
    is named (cwd, file paths, tool input, commands, output, and the shorter form a kept event
    is known by), becomes the project root. So does the root of any other linked worktree of
    the project (`siblings`) that the session names, from the main checkout or from another
    worktree (`git worktree add ../app-fix`, then `cd ../app-fix && npm test`): the same
    repository's work, not another folder's. A clone or worktree of another repository is not
    among them and stays where it is.

    Content arrives redacted; a string the move changed is redacted again (as `redact_value`
    would redact it under its key), so the content delivered is still what redaction gives."""
    own = tuple(p for p in (route.checkout, route.written_checkout) if p and route.in_worktree)
    root = route.project_id.rstrip("/") + "/"
    others = tuple(p for p in siblings if p != route.project_id and not root.startswith(p + "/"))
    prefixes = (*own, *others)
    if not prefixes:
        return event
    pattern = _root_pattern(prefixes)

    def move(text: str) -> str:
        if not any(prefix in text for prefix in prefixes):
            return text
        return pattern.sub(route.project_id, text)

    def walk(value: Any, depth: int, key: str | None) -> Any:
        if isinstance(value, str):
            moved = move(value)
            return value if moved == value else redact_value(moved, key=key)[0]
        if depth >= _MAX_DEPTH:
            return value
        if isinstance(value, dict):
            return {
                k: walk(v, depth + 1, k if isinstance(k, str) else None) for k, v in value.items()
            }
        if isinstance(value, list):
            return [walk(v, depth + 1, key) for v in value]
        return value

    return dataclasses.replace(
        event,
        cwd=move(event.cwd) if event.cwd else event.cwd,
        file_paths=tuple(move(p) for p in event.file_paths),
        content=walk(event.content, 0, None),
        first=None if event.first is None else walk(event.first, 0, None),
    )


@functools.lru_cache(maxsize=256)
def _root_pattern(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    """Any of `prefixes` (longest first) where a whole root ends."""
    longest_first = sorted(set(prefixes), key=len, reverse=True)
    return re.compile("(?:" + "|".join(map(re.escape, longest_first)) + ")" + _PATH_END)
