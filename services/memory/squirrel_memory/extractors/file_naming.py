"""How the files of a folder are named, when a session writes one the way its siblings are.

Notes vaults, journals and analysis folders carry their order in their file names: a daily
note is `2026-05-04.md`, a post `2026-05-04-release-notes.md`, an analysis step
`02_weights.R`. When a session writes a new file into a folder and the folder's other files
(listed with `ls`, read or written in the session) are named the same way, the convention is
noted for that folder, so the next new file follows it. A listing alone writes nothing (a file
list tells nobody anything), nor do a few files among many named otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_core.host_tools import WRITE_TOOLS
from squirrel_memory.extractors.activity import commands, core_tokens, relative_path, split_segments
from squirrel_memory.extractors.file_writes import whole_writes
from squirrel_memory.models import StoredEvent

#: Importance of a folder's naming convention.
IMPORTANCE = 0.5
#: Other files of the folder named the same way needed besides the one written.
MIN_SIBLINGS = 2
#: Share of the folder's files of the written file's kind that must follow the convention.
MIN_SHARE = 0.75
#: Folders noted per episode.
MAX_FOLDERS = 3
MAX_LISTED_NAMES = 500

_SKIPPED_DIRS = frozenset(
    {"node_modules", "vendor", ".venv", "venv", "site-packages", "__pycache__", ".git"}
    | {"dist", "build", "target", "_build", ".next", "migrations", "versions"}
)
_LONG_LISTING = re.compile(r"^[dlcbps-][rwxsStT-]{9}[@+.]?\s")


@dataclass(frozen=True, slots=True)
class _Pattern:
    """A naming convention: how a name is matched and how the convention is written."""

    name: str
    regex: re.Pattern[str]
    says: str


_PATTERNS = (
    _Pattern(
        "date",
        re.compile(r"^(?:19|20)\d\d-[01]\d-[0-3]\d(?P<rest>[-_ .].*)?$"),
        "by date",
    ),
    _Pattern(
        "ordered",
        re.compile(r"^(?P<digits>\d{2,3})(?P<sep>[-_])[A-Za-z].*$"),
        "with a number giving their order",
    ),
)


@dataclass(frozen=True, slots=True)
class Naming:
    """A folder's naming convention: key, the sentence, the folder and the events behind it."""

    key: str
    content: str
    folder: str
    event_ids: tuple[str, ...]


@dataclass(slots=True)
class _Folder:
    written: dict[str, list[str]] = field(default_factory=dict)  # name -> event ids
    seen: dict[str, list[str]] = field(default_factory=dict)  # name -> event ids


def _split(path: str) -> tuple[str, str] | None:
    """(folder, file name) of a project-relative file path in a folder worth noting."""
    pure = PurePosixPath(path)
    if path.startswith(("/", "~")) or ".." in pure.parts or len(pure.parts) < 2:
        return None
    if any(part in _SKIPPED_DIRS or part.startswith(".") for part in pure.parts[:-1]):
        return None
    return str(pure.parent), pure.name


def _listed(events: list[StoredEvent]) -> Iterator[tuple[str, str, str]]:
    """(folder, name, event id) for each entry of a successful `ls` of one project folder."""
    for run in commands(events):
        segments = split_segments(run.command)
        if run.ok is not True or not segments:
            continue
        tokens = core_tokens(segments[0])
        args = [t for t in tokens[1:] if not t.startswith("-")]
        root = events[0].project_id.rstrip("/")
        if not tokens or tokens[0] != "ls" or len(args) != 1 or run.cwd not in (None, root):
            continue
        folder = relative_path(args[0].rstrip("/"), root).removeprefix("./")
        if _split(f"{folder}/x") is None:
            continue
        for line in run.output.splitlines()[:MAX_LISTED_NAMES]:
            name = line.split()[-1] if _LONG_LISTING.match(line) else line.strip()
            if name and "/" not in name and " " not in name and not name.startswith("."):
                yield folder, name, run.event_id


def _folders(events: list[StoredEvent]) -> dict[str, _Folder]:
    folders: dict[str, _Folder] = {}
    whole = whole_writes(events)
    for event in events:
        if event.event_type == EventType.CODE_CHANGE:
            use_id, path = event.content.get("tool_use_id"), event.content.get("path")
            # A whole-file write of any host (`host_tools`), or a change whose call wrote the
            # file whole (`file_writes`: a Codex patch's added file); an edit only shows a name.
            written = event.content.get("tool") in WRITE_TOOLS or (
                isinstance(path, str) and (use_id, relative_path(path, event.project_id)) in whole
            )
        elif event.event_type == EventType.TOOL_RESULT and not event.content.get("is_error"):
            written = False
        else:
            continue
        for raw in event.file_paths:
            found = _split(relative_path(raw, event.project_id)) if raw else None
            if found is None:
                continue
            entry = folders.setdefault(found[0], _Folder())
            (entry.written if written else entry.seen).setdefault(found[1], []).append(event.id)
    for folder, name, event_id in _listed(events):
        folders.setdefault(folder, _Folder()).seen.setdefault(name, []).append(event_id)
    return folders


def _suffix(name: str) -> str:
    return PurePosixPath(name).suffix.lower()


def _shape(pattern: _Pattern, name: str) -> str:
    """The name's shape under `pattern` (`YYYY-MM-DD-<title>.md`), "" when it does not match."""
    match = pattern.regex.match(name)
    if match is None:
        return ""
    ext = PurePosixPath(name).suffix
    if pattern.name == "date":
        rest = (match.group("rest") or "").removesuffix(ext)
        return f"YYYY-MM-DD{rest[:1] + '<title>' if rest else ''}{ext}"
    return f"{'N' * len(match.group('digits'))}{match.group('sep')}<name>{ext}"


def _convention(folder: str, entry: _Folder) -> tuple[str, tuple[str, ...]] | None:
    for written, written_ids in entry.written.items():
        kind = _suffix(written)
        others = {n: ids for n, ids in entry.seen.items() if n not in entry.written}
        same_kind = {n: ids for n, ids in others.items() if _suffix(n) == kind}
        for pattern in _PATTERNS:
            shape = _shape(pattern, written)
            if not shape:
                continue
            following = [n for n in same_kind if _shape(pattern, n) == shape]
            if (
                len(following) < MIN_SIBLINGS
                or len(following) < MIN_SHARE * len(same_kind)
                or len({*following, written}) < MIN_SIBLINGS + 1
            ):
                continue
            text = f"Files in `{folder}/` are named {pattern.says}: `{shape}` (e.g. `{written}`)."
            ids = [*written_ids, *(i for n in following for i in same_kind[n])]
            return text, tuple(dict.fromkeys(ids))
    return None


def file_naming(events: list[StoredEvent]) -> list[Naming]:
    """The naming conventions of the folders `events` wrote a new file into."""
    if not events:
        return []
    found: list[Naming] = []
    for folder, entry in sorted(_folders(events).items()):
        said = _convention(folder, entry) if entry.written else None
        if said is None:
            continue
        found.append(Naming(f"naming:{folder}", said[0], folder, said[1]))
        if len(found) >= MAX_FOLDERS:
            break
    return found
