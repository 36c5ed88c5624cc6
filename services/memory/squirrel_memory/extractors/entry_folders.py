"""Folders of entries that share one shape: a file written beside siblings read first, each
opening with the same kind of front matter.

Many projects keep a folder of small records, one file per change or decision, each opening
with a front matter block: changelog fragments and changesets, decision records, blog posts,
release notes. A session that adds one lists the folder, reads a sibling to copy its form and
writes the new file the same way. When the session wrote a new file in a folder, read a sibling
of the same suffix there whole before it, both open with a `---` front matter block of
`key: value` lines, and the folder is seen to hold at least `MIN_ENTRIES` such files (listed,
read or written), that is how the next entry there is written: "New entries in `.changes/` are
`.md` files written like `.changes/fix-cache.md`: a front matter block (`"pkg": patch` …)
then the text." A file without front matter, a sibling read only in part or after the
write, a folder with fewer entries, an edit of an existing file and a path outside the project
say nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import file_text, shown_paths, whole_read_output
from squirrel_memory.extractors.file_writes import applied_calls
from squirrel_memory.models import StoredEvent

#: Importance of a folder's entry shape: how the next entry there is written.
IMPORTANCE = 0.55
#: Files of the suffix the folder must be seen to hold, the new one included.
MIN_ENTRIES = 3
MAX_FOLDERS = 2
MAX_LINE_CHARS = 60

_FRONT_MATTER = re.compile(r"\A\s*---[ \t]*\n(?P<block>.*?)\n---[ \t]*(?:\n|\Z)", re.DOTALL)
_FIELD = re.compile(r"""^\s*(?:"[^"\n]+"|'[^'\n]+'|[\w@./-]+)\s*:\s*\S""")


@dataclass(frozen=True, slots=True)
class EntryFolder:
    """One folder's entry shape: key, sentence, the folder and the events behind it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def _fields(text: str) -> list[str]:
    """The `key: value` lines of the front matter `text` opens with ([] without one)."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return []
    return [line.strip() for line in match.group("block").splitlines() if _FIELD.match(line)]


def _own(path: str, project_id: str) -> str | None:
    rel = relative_path(path, project_id).removeprefix("./")
    if not rel or rel.startswith(("/", "~")) or ".." in rel.split("/"):
        return None
    return rel


def _written(events: list[StoredEvent]) -> list[tuple[str, str, StoredEvent]]:
    """(project path, text, call) of each new file a Write made, in order."""
    applied = applied_calls(events)
    found: list[tuple[str, str, StoredEvent]] = []
    for event in events:
        data = event.content.get("input")
        if (
            event.event_type != EventType.TOOL_CALL
            or event.content.get("tool_use_id") not in applied
            or not isinstance(data, dict)
            or not isinstance(data.get("content"), str)
            or "old_string" in data
        ):
            continue
        raw = data.get("file_path") or data.get("path")
        rel = _own(raw, event.project_id) if isinstance(raw, str) else None
        if rel is not None:
            found.append((rel, data["content"], event))
    return found


def _reads(events: list[StoredEvent]) -> list[tuple[str, str, StoredEvent]]:
    """(project path, text, result) of each whole file read, in order."""
    found: list[tuple[str, str, StoredEvent]] = []
    for event in events:
        output = whole_read_output(event)
        if output is None or len(event.file_paths) != 1:
            continue
        rel = _own(event.file_paths[0], event.project_id)
        if rel is not None:
            found.append((rel, file_text(output), event))
    return found


def entry_folders(events: list[StoredEvent]) -> list[EntryFolder]:
    """The entry shapes of the folders a session added a file to (see the module doc)."""
    ordered = sorted(events, key=lambda e: (e.timestamp, e.id))
    reads = _reads(ordered)
    read_paths = {path for path, _text, _event in reads}
    seen = set(shown_paths(ordered)) | read_paths
    found: dict[str, EntryFolder] = {}
    for path, text, call in _written(ordered):
        pure = PurePosixPath(path)
        folder, suffix = str(pure.parent), pure.suffix
        if folder in (".", "") or not suffix or folder in found or path in read_paths:
            continue
        written_fields = _fields(text)
        sibling = next(
            (
                (rel, fields, event)
                for rel, read_text, event in reads
                if rel != path
                and str(PurePosixPath(rel).parent) == folder
                and rel.endswith(suffix)
                and event.timestamp <= call.timestamp
                and (fields := _fields(read_text))
            ),
            None,
        )
        if not written_fields or sibling is None:
            continue
        entries = {
            p
            for p in seen | {path}
            if str(PurePosixPath(p).parent) == folder and p.endswith(suffix)
        }
        if len(entries) < MIN_ENTRIES:
            continue
        rel, fields, read_event = sibling
        example = next((f for f in fields if len(f) <= MAX_LINE_CHARS and "`" not in f), "")
        shape = f"a front matter block (`{example}` …)" if example else "a front matter block"
        text_out = (
            f"New entries in `{folder}/` are `{suffix}` files written like `{rel}`: {shape} "
            "then the text."
        )
        found[folder] = EntryFolder(
            f"pattern:entries:{folder}", text_out, folder, (read_event.id, call.id)
        )
        if len(found) >= MAX_FOLDERS:
            break
    return list(found.values())
