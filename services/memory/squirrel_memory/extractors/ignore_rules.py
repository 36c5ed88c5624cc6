"""What the session made git ignore, and why, from the comment written above the patterns.

An edit to a `.gitignore` that adds patterns under a comment ("# Tree-sitter grammars
(platform-specific compiled binaries)") says what is left out of the repository and the reason
for it. The finding is the file's state after the session's last edit: a pattern a later edit
removed is not stated, and a group whose comment a later edit rewrote is stated with the new
comment. Patterns added without a comment directly above them (no blank line between) say
nothing about why, and are not stated; neither are un-ignore rules (`!path`) nor the patterns
of a whole file written at once (a template, not a decision).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.differences import edits
from squirrel_memory.models import StoredEvent

#: Importance of what the project ignores and why.
IMPORTANCE = 0.4
#: Longest comment kept as the reason, and patterns named per group (characters, count).
MAX_REASON_CHARS = 120
MAX_PATTERNS = 4
IGNORE_FILE = ".gitignore"

_PATTERN = re.compile(r"^[^\s#!`][^\s`]*$")
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Ignored:
    """Patterns one ignore file leaves out under one comment: key, statement, events, path."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    path: str


def _groups(text: str) -> list[tuple[str, list[str]]]:
    """(comment, patterns) of each block of `text` that starts with a comment line and goes
    on until a blank line; patterns outside such a block have no reason and are left out."""
    found: list[tuple[str, list[str]]] = []
    comment = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            comment = ""
        elif line.startswith("#"):
            comment = line.lstrip("#").strip()
            found.append((comment, []))
        elif comment and _PATTERN.match(line) and found:
            found[-1][1].append(line)
    return [(c, p) for c, p in found if c and p]


def _written_paths(events: list[StoredEvent]) -> dict[str, str]:
    """The project-relative path each edit call wrote, by its tool call id (the code change
    the call made says it relative to the project)."""
    found: dict[str, str] = {}
    for event in events:
        path = event.content.get("path")
        use = event.content.get("tool_use_id")
        relative = isinstance(path, str) and not path.startswith(("/", "~"))
        if event.event_type == EventType.CODE_CHANGE and relative and isinstance(use, str):
            found[use] = str(path)
    return found


def ignore_rules(events: list[StoredEvent]) -> list[Ignored]:
    """What the session's edits of ignore files leave out and why, as the files end up."""
    calls = {e.id: e.content.get("tool_use_id") for e in events}
    written = _written_paths(events)
    added: set[tuple[str, str]] = set()
    # (path, pattern) -> (the comment above it, the edits behind it), as the last edit left it.
    latest: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {}
    for edit in edits(events):
        if posixpath.basename(edit.path) != IGNORE_FILE or not edit.before:
            continue
        use = calls.get(edit.event_id)
        path = written.get(use) if isinstance(use, str) else None
        if path is None and not edit.path.startswith(("/", "~")):
            path = edit.path
        if path is None:
            continue
        before = {line.strip() for line in edit.before.splitlines()}
        after = {line.strip() for line in edit.after.splitlines()}
        added.update((path, line) for line in after - before if _PATTERN.match(line))
        for line in before - after:
            latest.pop((path, line), None)
        for comment, patterns in _groups(edit.after):
            for pattern in patterns:
                if (path, pattern) in added:
                    earlier = latest.get((path, pattern), ("", ()))[1]
                    latest[(path, pattern)] = (comment, (*earlier, edit.event_id))
    grouped: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    for (path, pattern), (comment, behind) in latest.items():
        patterns, events_behind = grouped.setdefault((path, comment), ([], []))
        patterns.append(pattern)
        events_behind.extend(i for i in behind if i not in events_behind)
    found: list[Ignored] = []
    for (path, comment), (patterns, ids) in grouped.items():
        if len(comment) > MAX_REASON_CHARS or '"' in comment or "`" in comment:
            continue
        named = ", ".join(f"`{p}`" for p in patterns[:MAX_PATTERNS])
        slug = _SLUG.sub("-", f"{path} {patterns[0]}".lower()).strip("-")
        content = f'`{path}` ignores {named}, under the comment "{comment}".'
        found.append(Ignored(f"ignored:{slug}", content, tuple(ids), path))
    return found
