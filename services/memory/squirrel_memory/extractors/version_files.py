"""A version written in several files, as one session bumped it in each: kept as a pitfall.

Many projects write their own version in more than one place (a manifest's `version` and a
module's `__version__`, a package file and a plugin file, a build file and a constant), and a
release that bumps one and forgets another ships two versions. The session shows where they
are when its edits change the same version, from the same old value to the same new one, on a
line keyed as a version (`version = "1.2.3"`, `"version": "1.2.3"`, `__version__ = '1.2.3'`,
`VERSION = "1.2.3"`, `<version>1.2.3</version>`) in two or more files. An edit counts when it
changes exactly one such line and its tool did not fail; a dependency's version (`"react":
"18.3.0"`), a language or tool version (`python_version`, `target-version`) or a bump seen in
one file says nothing.

The pitfall reads "The version is written in N files, which a bump changed together (<old> →
<new>): `<file>` (`<key>`), …; a bump that misses one leaves them disagreeing."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.differences import edits
from squirrel_memory.models import StoredEvent

#: A lesson of the project's release work, as a pitfall a fix showed.
IMPORTANCE = 0.5
MAX_FILES = 4

_LINE = re.compile(
    r"""^\s*(?:
        (?P<q>["']?)(?P<key>__version__|version|VERSION)(?P=q)\s*[:=]\s*["']?
        | <(?P<tag>version)>
    )(?P<value>\d+\.\d+\.\d+(?:[-+][\w.]+)?)["']?\s*(?:</version>)?\s*[,;]?\s*$""",
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class VersionFiles:
    """The files one bump changed together: key, statement, the edits' events."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()


def bumped(before: str, after: str) -> tuple[str, str, str] | None:
    """(the key, the old version, the new one) when `before` holds exactly one version line
    and `after` exactly one, under the same key with another version; else None."""
    old = [m for line in before.splitlines() if (m := _LINE.match(line))]
    new = [m for line in after.splitlines() if (m := _LINE.match(line))]
    if len(old) != 1 or len(new) != 1:
        return None
    was, now = old[0], new[0]
    key = was.group("key") or f"<{was.group('tag')}>"
    if key != (now.group("key") or f"<{now.group('tag')}>"):
        return None
    if was.group("value") == now.group("value"):
        return None
    return key, was.group("value"), now.group("value")


def version_files(events: list[StoredEvent]) -> list[VersionFiles]:
    """The newest bump of a session that changed one version in two or more files."""
    failed = {
        e.content.get("tool_use_id")
        for e in events
        if e.event_type == EventType.TOOL_RESULT and e.content.get("is_error") is True
    }
    calls = {
        e.id: e.content.get("tool_use_id") for e in events if e.event_type == EventType.TOOL_CALL
    }
    #: (session, old, new) -> file -> (key, event id), in the order the files were bumped.
    bumps: dict[tuple[str, str, str], dict[str, tuple[str, str]]] = {}
    for edit in edits(events):
        if calls.get(edit.event_id) in failed:
            continue
        change = bumped(edit.before, edit.after)
        if change is None:
            continue
        key, old, new = change
        files = bumps.setdefault((edit.session_id or "", old, new), {})
        files.setdefault(edit.path, (key, edit.event_id))
    together = [(bump, files) for bump, files in bumps.items() if 2 <= len(files) <= MAX_FILES]
    if not together:
        return []
    (_session, old, new), files = together[-1]
    named = ", ".join(f"`{path}` (`{key}`)" for path, (key, _id) in files.items())
    content = (
        f"The version is written in {len(files)} files, which a bump changed together "
        f"({old} → {new}): {named}; a bump that misses one leaves them disagreeing."
    )
    return [
        VersionFiles(
            "pitfall:version_files",
            content,
            tuple(event_id for _key, event_id in files.values()),
            tuple(files),
        )
    ]
