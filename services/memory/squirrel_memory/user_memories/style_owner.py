"""Whose an extracted style is: on a team server, the user whose episode it was read from.

A user_style memory is one user's alone (`privacy`). A laptop has one user, so its style
findings keep the scope the extractor gave them: a habit of the user (scope user) or an
instruction about this project (scope project). On a team server every style finding read from
one user's events is that user's: a project-scoped one is written user-scoped, owned by the
user, and marked `PROJECT_ONLY_TAG` so it stays this project's (it never refines the user's
global style, as a project-scoped one never does on a laptop). Its anchor then names the user,
so the same preference said by two users stays two memories, each its user's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from squirrel_memory.models import MemoryCandidate, MemoryType, Scope

PROJECT_ONLY_TAG = "project-only"
"""A user's style finding about one project, written as the user's on a team server."""


def owned_styles(candidates: Sequence[MemoryCandidate], owner: str | None) -> list[MemoryCandidate]:
    """`candidates` with every project-scoped style finding made `owner`'s (user-scoped,
    marked project-only); unchanged when `owner` is None (a laptop)."""
    if owner is None:
        return list(candidates)
    return [_owned(c) if _shared_style(c) else c for c in candidates]


def project_only(candidate: MemoryCandidate) -> bool:
    """Whether a user-scoped style finding holds in its project only (`owned_styles`)."""
    return PROJECT_ONLY_TAG in candidate.tags


def _shared_style(candidate: MemoryCandidate) -> bool:
    return candidate.type is MemoryType.USER_STYLE and candidate.scope is Scope.PROJECT


def _owned(candidate: MemoryCandidate) -> MemoryCandidate:
    return replace(
        candidate,
        scope=Scope.USER,
        tags=tuple(dict.fromkeys((*candidate.tags, PROJECT_ONLY_TAG))),
    )
