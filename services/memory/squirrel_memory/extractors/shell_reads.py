"""The project's files a session read through the shell: `cat src/World.hpp`, `sed -n 1,80p
lib/app.ex`, `head -40 src/main.rs`.

An assistant often reads code with a command rather than its file tool (Codex CLI always does,
Claude Code does when it reads two files in one call). Such a read shows the file's text as
surely as a Read does, and counts the same as evidence of the project's language. The rule is
the same for every ecosystem:

- the command ran cleanly (exit code 0, no error) and printed something, and no line of its
  output says the file could not be read (`cat: composer.json: No such file or directory`:
  a pipe into `head` hides the reader's failure from the exit code);
- the file is named by a reader (`file_reads.SHELL_READERS`) and lies inside the project,
  counted from the folder the command ran in; a line that changes folder (`cd`, `pushd`) or
  works in another folder (`elsewhere.ran_elsewhere`) names files nobody can place, and gives
  none;
- dependency, environment and build folders are not the project's (`manifests.in_project`).
"""

from __future__ import annotations

import posixpath
import re

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import core_tokens, relative_path, split_segments
from squirrel_memory.extractors.elsewhere import outside_root, ran_elsewhere
from squirrel_memory.extractors.file_reads import shell_read_paths
from squirrel_memory.extractors.git_listed import folder_of
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.models import StoredEvent

#: What a reader prints beside a file's name when it could not read it.
_UNREAD = re.compile(
    r"no such file|cannot open|can't open|can't read|is a directory|permission denied"
    r"|not a regular file",
    re.IGNORECASE,
)
#: Steps that move the shell to another folder: the paths after them cannot be placed.
_MOVES = frozenset({"cd", "pushd", "popd"})


def _placed(event: StoredEvent) -> str | None:
    """The project folder the command of `event` ran in ("" for the root), or None when its
    paths cannot be placed in the project."""
    command = event.content.get("command")
    output = event.content.get("output")
    if not isinstance(command, str) or not isinstance(output, str) or not output.strip():
        return None
    if ran_elsewhere(command, event.project_id):
        return None
    if any(
        (tokens := core_tokens(part)) and tokens[0] in _MOVES for part in split_segments(command)
    ):
        return None
    cwd = event.content.get("cwd")
    return folder_of(cwd if isinstance(cwd, str) and cwd else None, event.project_id)


def shell_read_files(events: list[StoredEvent]) -> list[tuple[str, str]]:
    """(project-relative path, event id) for every project file a clean command printed by
    name (module docstring), in the order read."""
    found: list[tuple[str, str]] = []
    for event in events:
        if event.event_type != EventType.COMMAND_RUN:
            continue
        named = shell_read_paths(event)
        folder = _placed(event) if named else None
        if folder is None:
            continue
        output = str(event.content.get("output") or "")
        unread = [line for line in output.splitlines() if _UNREAD.search(line)]
        for raw in named:
            if raw.startswith(("~", "$")) or any(raw in line for line in unread):
                continue
            path = raw if raw.startswith("/") else posixpath.join(event.project_id, folder, raw)
            if outside_root(path, event.project_id):
                continue
            rel = relative_path(posixpath.normpath(path), event.project_id)
            if rel and rel != "." and in_project(rel):
                found.append((rel, event.id))
    return found
