"""Style memories a team server wrote before style was owned, handed to the user who said them.

Before a user's style was theirs alone (`style_owner`), a team server wrote a project-scoped
style finding as the project's, with no owner: its own caller sees it, a teammate's token never
did. Every event keeps who delivered it, so such a memory whose source events were all
delivered by one teammate is that teammate's: it becomes theirs as an episode's finding now is
(user-scoped, owned, tagged `project-only`), or, when they already have a style memory of the
same key, it is merged into that one (evidence joined, the old one retired as superseded by
it, every version kept in history). A memory with evidence from several users, from the
install's own user (the server machine's own sessions, or a laptop's), or with a source event
the store no longer knows, stays as it is: it is never handed to anyone who did not contribute
all of its evidence. What was handed over is no longer ownerless, so running it again changes
nothing (`own_unowned_styles` is run when a team server opens a project's store).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import structlog

from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.promotion import is_tentative
from squirrel_memory.storage import Store
from squirrel_memory.storage.checks import MAX_FILE_PATHS, MAX_LINKED_IDS, MAX_TAGS
from squirrel_memory.storage.formats import new_id
from squirrel_memory.storage.revisions import merge, merge_source_refs
from squirrel_memory.user_memories.style_owner import PROJECT_ONLY_TAG

log = structlog.get_logger()

OWNED_REASON = "owned by the one user whose sessions it was read from"
MERGED_REASON = "merged into its user's own style memory of the same key"


def sole_contributor(
    event_ids: Sequence[str], delivered_by: dict[str, str], install_user: str
) -> str | None:
    """The one user who delivered every event of `event_ids` (`delivered_by`: event id → user),
    or None: no events, an event unknown, several users, or the install's own user."""
    users = {delivered_by.get(event_id, "") for event_id in event_ids}
    if len(users) != 1:
        return None
    (user,) = users
    return user if user and user != install_user else None


def owned_copy(old: MemoryItem, owner: str) -> MemoryItem:
    """`old` as `owner`'s own memory: a new memory (an owner is part of what a memory is),
    user-scoped and tagged `project-only`, with all that `old` said and cites."""
    return replace(
        old,
        id=new_id("mem"),
        user_id=owner,
        scope=Scope.USER,
        tags=merge(old.tags, (PROJECT_ONLY_TAG,), MAX_TAGS),
        version=1,
        deleted=False,
        superseded_by=None,
    )


def joined(theirs: MemoryItem, old: MemoryItem) -> MemoryItem:
    """The next version of the user's own memory `theirs` with `old`'s evidence joined in: its
    words, the higher importance, the source events, files and references of both. It stays a
    one-off (`tentative`) only when both were: the other one's evidence stands on its own."""
    once = is_tentative(theirs.tags) and is_tentative(old.tags)
    tags = [t for t in merge(theirs.tags, old.tags, MAX_TAGS) if once or not is_tentative([t])]
    return replace(
        theirs,
        tags=tuple(tags),
        importance=max(theirs.importance, old.importance),
        file_paths=merge(old.file_paths, theirs.file_paths, MAX_FILE_PATHS),
        source_event_ids=merge(old.source_event_ids, theirs.source_event_ids, MAX_LINKED_IDS),
        source_refs=merge_source_refs(old.source_refs, theirs.source_refs),
        writers=tuple(dict.fromkeys((*theirs.writers, *old.writers))),
        version=theirs.version + 1,
    )


async def own_unowned_styles(store: Store, install_user: str) -> int:
    """Hand each ownerless style memory of the project whose source events one teammate
    delivered to that teammate (`owned_copy`, or `joined` into their own of the same key);
    return how many were handed over. `install_user`: the server's own user, whose events
    are no teammate's."""
    project_id = store.project_id
    unowned = await store.unowned_memories(project_id, MemoryType.USER_STYLE)
    cited = sorted({e for m in unowned for e in m.source_event_ids})
    if not cited:
        return 0
    delivered_by = {e.id: e.user_id for e in await store.get_events(cited)}
    handed = 0
    for old in unowned:
        owner = sole_contributor(old.source_event_ids, delivered_by, install_user)
        if owner is None:
            continue
        theirs = await store.find_anchor(project_id, old.type, old.key, Scope.USER, owner)
        if theirs:
            done = await store.hand_over(old, joined(theirs[0], old), MERGED_REASON)
        else:
            done = await store.hand_over(old, owned_copy(old, owner), OWNED_REASON)
        handed += done
    if handed:
        log.info("unowned_styles_handed_over", project_id=project_id, count=handed)
    return handed


__all__ = ["joined", "own_unowned_styles", "owned_copy", "sole_contributor"]
