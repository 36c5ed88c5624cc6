"""The replay's instruction files: those the sessions showed, written on the replay's disk.

A host's hook reads the project's instruction files from disk to learn what the host loads
itself (`CLAUDE.md`'s `@AGENTS.md` import: `squirrel_gateway.host_imports`). A replay's project
folder starts empty, so without them the hook would take a CLAUDE.md that only imports AGENTS.md
for none at all and echo AGENTS.md's lines to Claude Code. Each root instruction file a session
showed from its first line (the host loading it, or a read with a tool) is written with the last
text shown, after the sessions are processed (so nothing else reads them earlier than before).
The foresight replay writes them after each session instead, the next sessions' hooks reading
them as the user's disk held them then (`update`: a later session's text replaces an earlier).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from bench.stored_events import stored
from squirrel_core.events import Event
from squirrel_memory.extractors.about import is_instruction_file, last_root_reads


def write_shown_instructions(
    root: Path, events: Sequence[Event], *, update: bool = False
) -> list[str]:
    """Writes under `root` (the replay's project folder, the events moved there) each root
    instruction file the events show, as last shown; returns their project-relative names. A
    file already there is left as it is unless `update` (the replay's own, written from an
    earlier session); a name that leaves the folder is never written."""
    shown = last_root_reads(stored(events, str(root), "shown"), is_instruction_file)
    written: list[str] = []
    for name, (_, text) in sorted(shown.items()):
        relative = PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts:
            continue
        target = root.joinpath(*relative.parts)
        if target.exists() and not update:
            continue
        with contextlib.suppress(OSError):  # a file where a folder is needed, or the reverse
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
            written.append(name)
    return written
