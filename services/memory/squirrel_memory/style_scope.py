"""Where a user-wide style item holds: in every project, or only where it was said.

A user_style finding scoped to the user (a habit, not a fact about one repository) also
refines the global `user.db` once it is no longer tentative. Said in one project's sessions
only, it is that project's habit as far as we know: the user who says "reuse the existing
helpers" in one repository may want the opposite in a prototype elsewhere. So every global
item carries the projects it was found in (as `seen-in:<digest>` tags; the digest is a hash of
the project root, no path is stored), and another project's views show it only when

- it was found in at least `MIN_PROJECTS` projects (it recurs across projects), or
- the user said it for every project ("in all projects", "everywhere", "for all repos"), or
- the user wrote it themselves (`sqrl remember`, a manual item), or
- it predates this bookkeeping (no `seen-in:` tag: nothing says where it came from).

The project it was found in shows it from its own memories anyway. A project that retired its
own memory of an item (the user stopped the instruction there) does not show it again from
the global copy, however many other projects hold it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from squirrel_memory.models import (
    MemoryItem,
    MemorySource,
    Scope,
    UpdateAction,
    UpdateDecision,
    writer_source,
)
from squirrel_memory.promotion import is_tentative
from squirrel_memory.user_memories.style_owner import project_only
from squirrel_memory.user_memories.userstore import UserStore, UserStyleItem

SEEN_IN_PREFIX = "seen-in:"
#: Projects a habit must be found in before other projects are told about it.
MIN_PROJECTS = 2
#: The most projects an item names: enough to tell recurrence, few enough to stay in the tags.
MAX_SEEN = 4
_DIGEST_CHARS = 12
#: The user saying the instruction holds in every project.
_USER_WIDE = re.compile(
    r"\b(?:in|for|across) (?:all|every|each|any) (?:of )?(?:my |our |the )?"
    r"(?:repos?|repositor(?:y|ies)|projects?|codebases?)\b|\beverywhere\b|"
    r"\bacross projects\b|\bwhatever the (?:project|repo)\b",
    re.IGNORECASE,
)


def seen_in_tag(project_id: str) -> str:
    """The tag naming one project (a digest of its root) a global item was found in."""
    digest = hashlib.sha256(project_id.encode()).hexdigest()[:_DIGEST_CHARS]
    return SEEN_IN_PREFIX + digest


def projects_of(tags: Iterable[str]) -> set[str]:
    """The `seen-in:` tags among `tags`."""
    return {t for t in tags if t.startswith(SEEN_IN_PREFIX)}


def with_project(tags: Sequence[str], earlier: Sequence[str], project_id: str) -> tuple[str, ...]:
    """`tags` (a finding's own) plus the projects `earlier` (the stored item's tags) names and
    this one, at most `MAX_SEEN` of them (more would tell nothing new)."""
    own = [t for t in tags if not t.startswith(SEEN_IN_PREFIX)]
    seen = sorted(projects_of(earlier))[:MAX_SEEN]
    here = seen_in_tag(project_id)
    if here not in seen and len(seen) < MAX_SEEN:
        seen.append(here)
    return tuple(dict.fromkeys([*own, *seen]))


def holds_in(item: UserStyleItem, project_id: str) -> bool:
    """Whether a global style item is the user's habit in `project_id` (see the module)."""
    seen = projects_of(item.tags)
    return (
        not seen
        or len(seen) >= MIN_PROJECTS
        or seen_in_tag(project_id) in seen
        or item.source is MemorySource.MANUAL
        or bool(_USER_WIDE.search(item.content))
    )


def for_project(
    items: Sequence[UserStyleItem],
    project_id: str,
    live_keys: AbstractSet[str] | None = None,
    retired_keys: AbstractSet[str] = frozenset(),
) -> list[UserStyleItem]:
    """The global items that hold in `project_id`, without their `seen-in:` bookkeeping. With
    `live_keys` (the keys of the project's live user_style memories), an item found in this
    project alone holds only while the project keeps a memory of it: the project shows it
    from its own memories anyway, so one the project retired (an instruction to use a tool the
    user has since disowned) does not come back from its global copy. An item whose key is
    among `retired_keys` (memories the project retired, none live in their place) is not
    shown whatever other projects hold it, unless the user wrote it themselves."""
    here = seen_in_tag(project_id)
    return [
        replace(i, tags=tuple(t for t in i.tags if not t.startswith(SEEN_IN_PREFIX)))
        for i in items
        if holds_in(i, project_id)
        and not (live_keys is not None and _found_here_only(i, here) and i.key not in live_keys)
        and not (i.key in retired_keys and i.source is not MemorySource.MANUAL)
    ]


def retired_keys(memories: Iterable[MemoryItem], viewer: str | None) -> set[str]:
    """The keys of `memories` (a project's user_style memories, deleted ones among them) the
    project retired for `viewer` (None: the install's own caller): forgotten, not superseded by
    a newer memory, with no live memory of the same key."""
    kept = list(memories)
    live = {m.key for m in kept if not m.deleted}
    return {
        m.key
        for m in kept
        if m.deleted
        and m.superseded_by is None
        and m.key not in live
        and (viewer is None or m.user_id == viewer)
    }


def _found_here_only(item: UserStyleItem, here: str) -> bool:
    """Whether a global item holds in the project of the `here` tag only because it was
    found there (`holds_in`'s other grounds aside)."""
    return (
        projects_of(item.tags) == {here}
        and item.source is not MemorySource.MANUAL
        and not _USER_WIDE.search(item.content)
    )


async def merge_global_style(
    user_store: UserStore, decisions: Sequence[UpdateDecision], user: str, project_id: str
) -> None:
    """User-scoped style findings also refine the global `user.db` (project items win here);
    tentative instructions stay in their project until they recur, and a team user's finding
    about this project (`style_owner.project_only`) stays in it. Each global item keeps
    the projects it was found in (`style_scope`): other projects see it once it recurs
    across projects."""
    merged = [
        d
        for d in decisions
        if d.candidate.scope is Scope.USER
        and d.action is not UpdateAction.NOOP
        and not is_tentative(d.candidate.tags)
        and not project_only(d.candidate)
    ]
    if not merged:
        return
    stored = {i.key: i.tags for i in await user_store.list_user_style(user)}
    for decision in merged:
        cand = decision.candidate
        await user_store.merge_user_style(
            user,
            key=cand.key,
            content=decision.merged_content or cand.content,
            tags=with_project(cand.tags, stored.get(cand.key, ()), project_id),
            importance=cand.importance,
            source=writer_source(cand.written_by, MemorySource.RULES),
        )
