"""Bring a project's repository memories in line with one reading, keeping their history.

Same key → the memory is updated in place when its text or references changed (the previous
version stays in history); a key the reading no longer supports → the memory is retired
(marked deleted, with the reason). Manual memories are never touched.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.recipe_join import session_note, with_session_note
from squirrel_memory.repository.wording import KEY_PREFIX, ref_path
from squirrel_memory.storage import Store

_PAGE = 1000


@dataclass
class SyncReport:
    """How many repository memories one sync added, updated, kept and retired."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    retired: int = 0


async def repository_memories(store: Store) -> list[MemoryItem]:
    """Live memories that were read from the repository (not manual ones)."""
    found: list[MemoryItem] = []
    offset = 0
    while True:
        page, total = await store.list_memories(store.project_id, limit=_PAGE, offset=offset)
        found.extend(
            m for m in page if m.key.startswith(KEY_PREFIX) and m.source is not MemorySource.MANUAL
        )
        offset += len(page)
        if not page or offset >= total:
            return found


def _files(refs: tuple[str, ...]) -> str:
    return ", ".join(dict.fromkeys(ref_path(r) for r in refs if not r.startswith("commit:")))


async def sync_repository_memories(
    store: Store,
    candidates: list[MemoryCandidate],
    *,
    user_id: str,
    head: str,
    complete: bool = True,
) -> SyncReport:
    """Apply one reading's candidates to the store; see the module docstring.

    An incomplete reading (git failed on a file, or the read cap was reached) adds and updates
    but retires nothing: a fact it did not see may only be unread, not gone.
    """
    report = SyncReport()
    decisions: list[UpdateDecision] = []
    live: dict[tuple[str, str], list[MemoryItem]] = {}
    for item in await repository_memories(store):
        live.setdefault((str(item.type), item.key), []).append(item)
    for read in candidates:
        existing = live.pop((str(read.type), read.key), [])
        for duplicate in existing[1:]:
            await store.forget(duplicate.id, "retired: a second copy of a repository fact")
            report.retired += 1
        old = existing[0] if existing else None
        # The sessions' evidence joined into a recipe stays until the sessions say otherwise.
        note = session_note(old.content) if old is not None else ""
        cand = replace(read, content=with_session_note(read.content, note)) if note else read
        if old is None:
            reason = f"read from the repository ({_files(cand.source_refs) or 'tracked files'})"
            decision = UpdateDecision(UpdateAction.ADD_NEW, cand, reason=reason)
            report.added += 1
        elif old.content == cand.content and old.source_refs == cand.source_refs:
            report.unchanged += 1
            continue
        else:
            reason = f"re-read from the repository at {head[:12]} ({_files(cand.source_refs)})"
            decision = UpdateDecision(
                UpdateAction.UPDATE_EXISTING, cand, target_id=old.id, reason=reason
            )
            report.updated += 1
        decisions.append(decision)
    # The reading's additions and updates in one transaction (each key is decided once).
    if decisions:
        await store.apply_processing_result(
            [], decisions, [], user_id=user_id, source=MemorySource.RULES
        )
    for items in live.values() if complete else ():
        for item in items:
            files = _files(item.source_refs)
            reason = f"retired: the repository at {head[:12]} no longer says this" + (
                f" (was read from {files})" if files else ""
            )
            await store.forget(item.id, reason)
            report.retired += 1
    return report
