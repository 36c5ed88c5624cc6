"""What a host already has: memories read only from files the asking host loads itself.

Claude Code loads `CLAUDE.md`, Codex `AGENTS.md`, Gemini CLI `GEMINI.md` into every session.
The repository reader keeps the rules of those files as memories (`repo:rule:*`, sources
`CLAUDE.md:12`) so that they are searchable and reach the other hosts; injected into the host
that loads the file, they would only repeat it. Views and task context built for such a host
are given its files (`omit_sources_in`) and leave out every memory whose sources all lie in them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from squirrel_memory.models import MemoryItem
from squirrel_memory.repository.wording import ref_path

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
    """True when every source of a memory is a line of one of `files`: it has sources, all in
    them, and no session added to it (a recipe the sessions confirmed says more than the file)."""
    if not files or not item.source_refs or item.source_event_ids:
        return False
    wanted = set(files)
    return all(ref_path(ref) in wanted for ref in item.source_refs)


def without_loaded(items: Iterable[MemoryItem], files: Sequence[str]) -> list[MemoryItem]:
    """`items` without those read only from `files`."""
    return [item for item in items if not only_from(item, files)]
