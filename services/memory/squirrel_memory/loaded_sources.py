"""What a host already has: memories read only from files the asking host loads itself.

Claude Code loads `CLAUDE.md`, Codex `AGENTS.md`, Gemini CLI `GEMINI.md` into every session.
The repository reader keeps the rules of those files as memories (`repo:rule:*`, sources
`CLAUDE.md:12`) so that they are searchable and reach the other hosts; injected into the host
that loads the file, they would only repeat it. Views and task context built for such a host
are given its files (`omit_sources_in`) and leave out every memory whose sources all lie in them.

A session shows the same file when its host loaded it (Codex's `AGENTS.md` message): what a
session says only from that text (`from_loaded_files`) cites the file's lines and is tagged
`LOADED_TAG`, so it is left out for the host that loads the file, as a scanned line is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from squirrel_core.events import LOADED_FILE
from squirrel_core.host_files import LOADED_TAG, only_from_files
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import loaded_text
from squirrel_memory.models import MemoryCandidate, MemoryItem, StoredEvent

#: Most files one request may name, and the longest name kept.
MAX_FILES = 32
MAX_FILE_CHARS = 200


def checked_files(files: Iterable[str]) -> tuple[str, ...]:
    """The distinct project-relative file names of a request, sorted (bounded; junk dropped)."""
    found = {
        f.strip().lstrip("./")
        for f in list(files)[:MAX_FILES]
        if isinstance(f, str) and f.strip() and len(f) <= MAX_FILE_CHARS
    }
    return tuple(sorted(f for f in found if f))


def only_from(item: MemoryItem, files: Sequence[str]) -> bool:
    """True when `item` was read only from `files` (`only_from_files`)."""
    return only_from_files(
        item.source_refs, files, from_sessions=bool(item.source_event_ids), tags=item.tags
    )


def without_loaded(items: Iterable[MemoryItem], files: Sequence[str]) -> list[MemoryItem]:
    """`items` without those read only from `files`."""
    return [item for item in items if not only_from(item, files)]


def from_loaded_files(
    candidates: Iterable[MemoryCandidate], events: Iterable[StoredEvent]
) -> list[MemoryCandidate]:
    """`candidates`, those whose every event is an instruction file the host loaded tagged
    `LOADED_TAG` and citing the file (project-relative) when they cite nothing else."""
    loaded = {
        e.id: relative_path(str(e.content[LOADED_FILE]), e.project_id)
        for e in events
        if loaded_text(e) is not None
    }
    marked: list[MemoryCandidate] = []
    for cand in candidates:
        ids = cand.source_event_ids
        if ids and all(i in loaded for i in ids):
            refs = cand.source_refs or tuple(dict.fromkeys(loaded[i] for i in ids))
            marked.append(replace(cand, source_refs=refs, tags=(*cand.tags, LOADED_TAG)))
        else:
            marked.append(cand)
    return marked
