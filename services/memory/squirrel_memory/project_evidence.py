"""The project pass's evidence: the stored commands, edits, hook reports and replies of every
session of a project, read for the recipes, habits and pitfalls they support together
(`project_evidence`), and its failures paired with the commit that fixed them
(`commit_fix_candidates`)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import structlog

from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.activity import commands, relative_path
from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.commit_fixes import commit_fixes
from squirrel_memory.extractors.disowned_tools import disowned_tools
from squirrel_memory.extractors.evidence.cleared_warnings import with_cleared_warnings
from squirrel_memory.extractors.evidence.piped_runs import status_hidden
from squirrel_memory.extractors.file_reads import whole_read_output
from squirrel_memory.extractors.patch_edits import patch_body
from squirrel_memory.extractors.reported_fixes import call_command
from squirrel_memory.models import MemoryCandidate, StoredEvent
from squirrel_memory.repository.languages import primary_ecosystems
from squirrel_memory.storage import Store

log = structlog.get_logger()

PROJECT_EVIDENCE_LIMIT = 8_000
"""Newest command and edit events of a project weighed together for recipes and pitfalls."""
HOOK_EVIDENCE_LIMIT = 2_000
"""Newest hook and validator reports weighed with them (their failures are errors too)."""
INJECTED_EVIDENCE_LIMIT = 50
"""Newest messages the host injected, read for the recent commits a command's context listed."""
COMMIT_EVIDENCE_LIMIT = 2_000
"""Newest commits searched for the fix of a session's failure."""
EVIDENCE_TYPES = (EventType.COMMAND_RUN, EventType.TEST_RUN, EventType.CODE_CHANGE)
LESSON_EVIDENCE_LIMIT = 4_000
"""Newest assistant replies and tool calls read for what failures taught (the assistant's
diagnosis after a failure, the lines an edit changed), when some command failed."""
LESSON_TYPES = (EventType.ASSISTANT_RESPONSE, EventType.TOOL_CALL)
READ_EVIDENCE_LIMIT = 1_000
"""Newest tool results searched for the whole-file reads that whole-file writes replaced: what
such a write changed is told by the text the read showed, as in the session's own pass."""
MESSAGE_EVIDENCE_LIMIT = 4_000
"""Newest user messages read for the tools the user disowned."""


async def project_evidence(store: Store) -> list[MemoryCandidate]:
    """Recipes, habits and pitfalls weighed over every session of the project (the stored
    commands, this batch included)."""
    stored = await store.fetch_recent_of_types(
        store.project_id, [str(t) for t in EVIDENCE_TYPES], PROJECT_EVIDENCE_LIMIT
    )
    hooks = await store.fetch_recent_of_types(
        store.project_id, [str(EventType.TOOL_RESULT)], HOOK_EVIDENCE_LIMIT, str(Origin.HOOK)
    )
    lessons: list[StoredEvent] = []
    # A failure, or a warning an edit made go away, is taught by the replies and edits; a
    # run whose status a pipe hid may be a failure only the next reply tells (`said_failed`).
    edited = [e.timestamp for e in stored if e.event_type == EventType.CODE_CHANGE]
    if any(
        run.ok is False or (run.ok is True and status_hidden(run.command))
        for run in with_cleared_warnings(commands([*stored, *hooks]), edited)
    ):
        lessons = [
            e
            for e in await store.fetch_recent_of_types(
                store.project_id, [str(t) for t in LESSON_TYPES], LESSON_EVIDENCE_LIMIT
            )
            # (a command's call too: one whose result never came is a run the replies report on)
            if e.event_type == EventType.ASSISTANT_RESPONSE or is_edit_call(e) or call_command(e)
        ]
        lessons.extend(await _replaced_reads(store, lessons))
    stored = sorted([*stored, *hooks, *lessons], key=lambda e: (e.timestamp, e.id))
    injected = await store.fetch_recent_of_types(
        store.project_id,
        [str(EventType.USER_MESSAGE)],
        INJECTED_EVIDENCE_LIMIT,
        str(Origin.HARNESS),
    )
    said = await store.fetch_recent_of_types(
        store.project_id, [str(EventType.USER_MESSAGE)], MESSAGE_EVIDENCE_LIMIT
    )
    ecosystems = await asyncio.to_thread(_repository_ecosystems, store.project_id)
    return await asyncio.to_thread(
        evidence_candidates,
        stored,
        ecosystems,
        injected=injected,
        # The stored commands too: a tool disowned as the reason a change was taken back
        # counts only when a command named it.
        disowned=disowned_tools([*said, *stored]),
    )


async def commit_fix_candidates(store: Store) -> list[MemoryCandidate]:
    """Failures of any session paired with a later commit that says it fixed them, over the
    project's stored runs and commits: a session and its fix commit are often read in
    different passes (git history arrives as one backlog)."""
    commits = await store.fetch_recent_of_types(
        store.project_id, [str(EventType.COMMIT)], COMMIT_EVIDENCE_LIMIT
    )
    if not commits:
        return []
    runs = await store.fetch_recent_of_types(
        store.project_id,
        [str(EventType.COMMAND_RUN), str(EventType.TEST_RUN)],
        PROJECT_EVIDENCE_LIMIT,
    )
    stored = sorted([*runs, *commits], key=lambda e: (e.timestamp, e.id))
    return await asyncio.to_thread(lambda: commit_fixes(stored, commands(stored)))


async def _replaced_reads(store: Store, calls: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The whole-file reads of the files `calls` then wrote whole, in the same session (without
    them a written file's old text is unknown, and the fix it made is told as "editing X")."""
    written = {(e.session_id, where) for e in calls if (where := _written_whole(e))}
    if not written:
        return []
    results = await store.fetch_recent_of_types(
        store.project_id, [str(EventType.TOOL_RESULT)], READ_EVIDENCE_LIMIT
    )
    return [
        e
        for e in results
        if e.file_paths
        and (e.session_id, relative_path(e.file_paths[0], e.project_id)) in written
        and whole_read_output(e) is not None
    ]


def _written_whole(event: StoredEvent) -> str:
    """The project-relative path a tool call writes whole (its `content`), else ""."""
    data = event.content.get("input")
    if not isinstance(data, dict) or not isinstance(data.get("content"), str):
        return ""
    if any(k in data for k in ("old_string", "new_string", "edits")):
        return ""
    path = data.get("file_path") or data.get("path")
    return relative_path(path, event.project_id) if isinstance(path, str) else ""


def is_edit_call(event: StoredEvent) -> bool:
    """A tool call that carries an edit's text (what `differences.edits` reads): the old and new
    strings of an edit, a file's content, or an `apply_patch` body."""
    data = event.content.get("input")
    return isinstance(data, dict) and (
        any(k in data for k in ("old_string", "new_string", "edits", "content"))
        or bool(patch_body(data))
    )


def _repository_ecosystems(root: str) -> tuple[str, ...]:
    """The repository's main ecosystems by its language shares; empty when unreadable."""
    try:
        return primary_ecosystems(root)
    except (OSError, ValueError) as exc:
        log.warning("repository_languages_unavailable", error_type=type(exc).__name__)
        return ()
