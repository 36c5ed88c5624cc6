"""A file's text as the session last saw it: what a later edit took out of a file no longer
counts as read.

A session often reads a file and then changes it: it ports `app.py` from one framework to
another, moves the `test` script of `package.json` to another runner, drops a dependency. The
read still shows the old lines, and a rule reading it would state what the session itself just
undid ("Built with Flask" after the port). So, before any rule reads them, the reads of a file
that a later successful edit of the same file changed lose the lines that edit removed:

- a whole-file write (Claude Code's `Write`): every line it does not keep;
- a replacement (`Edit`, `MultiEdit`'s edits): the lines of the old text not in the new one;
- a patch (Codex's `apply_patch`): the file's `-` lines that no `+` line adds back.

Only the lines an edit removed go (the rest of the read still holds), only edits that did not
fail, and only for the same file (by its path in the project). The edits themselves are what the
session wrote, and rules read them as they are.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import read_output
from squirrel_memory.models import StoredEvent

_NUMBERED = re.compile(r"^\s*\d+(?:→|\t)")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (?P<path>.+?)\s*$")


@dataclasses.dataclass(frozen=True, slots=True)
class _Change:
    """One edit of a file: the lines it removed, or (a whole write) the only lines it kept."""

    removed: frozenset[str] = frozenset()
    kept: frozenset[str] | None = None

    def drops(self, line: str) -> bool:
        if self.kept is not None:
            return line not in self.kept
        return line in self.removed


def _lines(text: str) -> set[str]:
    return {s for line in text.splitlines() if (s := line.strip())}


def _replaced(pairs: Iterable[tuple[Any, Any]]) -> _Change:
    removed: set[str] = set()
    for old, new in pairs:
        if isinstance(old, str) and isinstance(new, str):
            removed |= _lines(old) - _lines(new)
    return _Change(frozenset(removed))


def _patched(patch: str, project_id: str) -> dict[str, _Change]:
    """Per file a patch touches, the lines it removed and did not add back."""
    minus: dict[str, set[str]] = {}
    plus: dict[str, set[str]] = {}
    current: str | None = None
    for line in patch.splitlines():
        header = _PATCH_FILE.match(line)
        if header:
            current = relative_path(header["path"], project_id)
            minus.setdefault(current, set())
            plus.setdefault(current, set())
        elif (
            current is not None
            and line[:1] in "-+"
            and not line.startswith(("---", "+++"))
            and (s := line[1:].strip())
        ):
            (minus if line[0] == "-" else plus)[current].add(s)
    return {path: _Change(frozenset(minus[path] - plus[path])) for path in minus}


def _changes(event: StoredEvent) -> dict[str, _Change]:
    """The files an edit event changed and how; empty for any other event."""
    content: dict[str, Any] = event.content
    given = content.get("input")
    if event.event_type != EventType.TOOL_CALL or not isinstance(given, dict):
        return {}
    patch = given.get("input") if content.get("tool") == "apply_patch" else None
    if isinstance(patch, str):
        return _patched(patch, event.project_id)
    raw = given.get("file_path")
    if not isinstance(raw, str):
        return {}
    path = relative_path(raw, event.project_id)
    if isinstance(given.get("content"), str):
        return {path: _Change(kept=frozenset(_lines(given["content"])))}
    edits = given.get("edits")
    if isinstance(edits, list):
        pairs = [(e.get("old_string"), e.get("new_string")) for e in edits if isinstance(e, dict)]
        return {path: _replaced(pairs)}
    if "old_string" in given:
        return {path: _replaced([(given.get("old_string"), given.get("new_string"))])}
    return {}


def _failed(events: list[StoredEvent]) -> set[str]:
    """The tool calls whose result was an error (an edit that did not apply)."""
    return {
        str(e.content.get("tool_use_id"))
        for e in events
        if e.event_type == EventType.TOOL_RESULT and e.content.get("is_error") is True
    }


def latest_reads(events: list[StoredEvent]) -> list[StoredEvent]:
    """`events` (in time order) with each file read cut to the lines no later successful edit
    of that file removed; events nothing changed later are returned as they are."""
    failed = _failed(events)
    later: dict[str, list[tuple[int, _Change]]] = {}
    for index, event in enumerate(events):
        if str(event.content.get("tool_use_id")) in failed:
            continue
        for path, change in _changes(event).items():
            later.setdefault(path, []).append((index, change))
    if not later:
        return events
    out: list[StoredEvent] = []
    for index, event in enumerate(events):
        changes = _read_changes(event, index, later)
        output = read_output(event) if changes else None
        if not changes or output is None or "output" not in event.content:
            out.append(event)
            continue
        kept = [
            line
            for line in output.splitlines()
            if not (s := _NUMBERED.sub("", line, count=1).strip())
            or not any(c.drops(s) for c in changes)
        ]
        out.append(dataclasses.replace(event, content={**event.content, "output": "\n".join(kept)}))
    return out


def _read_changes(
    event: StoredEvent, index: int, later: dict[str, list[tuple[int, _Change]]]
) -> list[_Change]:
    if event.event_type != EventType.TOOL_RESULT or not event.file_paths:
        return []
    path = relative_path(event.file_paths[0], event.project_id)
    return [change for at, change in later.get(path, ()) if at > index]
