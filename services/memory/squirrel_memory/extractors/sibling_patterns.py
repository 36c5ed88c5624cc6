"""A convention the files of one folder share, as the session read (and wrote) them.

Before adding a file the assistant reads two or three of its siblings to copy their shape:
`run_code_tool.rb` and `create_page_tool.rb`, then `web_fetch_tool.rb` written the same way.
When at least three whole files of one folder, read or written in a session, share a name
ending (`_tool.rb`, `Controller.java`, `.service.ts`) and each declares its main type on the
same base (a superclass, an implemented trait or interface, a used behaviour), that is the
folder's pattern: how the next file there is named and what it extends. Files that merely sit
together, or share a name but not a base, say nothing (a list of file names is no convention).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_headers import own_file
from squirrel_memory.extractors.file_reads import file_text, read_output, whole_read_output
from squirrel_memory.extractors.file_writes import applied_calls
from squirrel_memory.extractors.modules import CODE_SUFFIXES
from squirrel_memory.models import StoredEvent

#: Importance of a folder's pattern: how the next file there is written.
IMPORTANCE = 0.55
#: Files that must share the pattern, folders described per episode, file names listed.
MIN_FILES = 3
MAX_PATTERNS = 3
MAX_NAMED = 4
MAX_METHODS = 4

_CUT = re.compile(r"…\[truncated \d+ chars\]")

# (regex, which group is the type's name, which its base, how the base is related).
_DECLARATIONS: tuple[tuple[re.Pattern[str], int, int, str], ...] = (
    (re.compile(r"^\s*class\s+(\w+)\s*<\s*([A-Z][\w:]*)", re.M), 1, 2, "extending"),
    (re.compile(r"^\s*class\s+(\w+)\s*\(\s*([A-Za-z_][\w.]*)\s*[,)]", re.M), 1, 2, "extending"),
    (
        re.compile(
            r"^\s*(?:export\s+)?(?:default\s+)?(?:public\s+|internal\s+|final\s+|abstract\s+|"
            r"open\s+|sealed\s+)*(?:class|struct|object)\s+(\w+)(?:<[^>{]*>)?"
            r"(?:\([^){]*\))?\s*(?:extends|:)\s*([A-Z][\w.:]*)",
            re.M,
        ),
        1,
        2,
        "extending",
    ),
    (
        re.compile(
            r"^\s*(?:export\s+)?(?:public\s+|final\s+|abstract\s+)*class\s+(\w+)(?:<[^>{]*>)?"
            r"\s+implements\s+([A-Z][\w.\\]*)",
            re.M,
        ),
        1,
        2,
        "implementing",
    ),
    (
        re.compile(r"^\s*impl(?:<[^>]*>)?\s+([A-Z][\w:]*)(?:<[^>]*>)?\s+for\s+(\w+)", re.M),
        2,
        1,
        "implementing",
    ),
    (re.compile(r"^\s*(?:use|@behaviour)\s+([A-Z][\w.]*)", re.M), 0, 1, "using"),
)
_MODULE = re.compile(r"^[ \t]*defmodule\s+([\w.]+)", re.M)
_METHOD = re.compile(r"^[ \t]*(?:pub\s+)?(?:async\s+)?(?:def|fn|func|function)\s+(\w+)", re.M)
_NAME_PARTS = re.compile(r"[_\-.]|(?<=[a-z0-9])(?=[A-Z])")


@dataclass(frozen=True, slots=True)
class SiblingPattern:
    """A folder's shared shape: key, statement, the folder and the events that showed it."""

    key: str
    content: str
    folder: str
    files: tuple[str, ...]
    event_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Shape:
    path: str
    name: str  # the declared type's name ('' when the declaration names none)
    base: str
    relation: str
    methods: tuple[str, ...]
    event_id: str
    written: bool
    cut: bool  # the text arrived cut: its methods are not all known


def _whole_files(events: list[StoredEvent]) -> list[tuple[str, str, str, bool]]:
    """(project path, text, event id, written) of every whole code file read or written."""
    applied = applied_calls(events)
    found: list[tuple[str, str, str, bool]] = []
    for event in events:
        content: dict[str, Any] = event.content
        text: str | None = None
        written = False
        if read_output(event) is not None:
            output = whole_read_output(event)
            if output is None:
                continue
            text = file_text(output)
        elif event.event_type == EventType.TOOL_CALL and content.get("tool_use_id") in applied:
            data = content.get("input")
            if isinstance(data, dict) and isinstance(data.get("content"), str):
                text, written = data["content"], True
        if text is None:
            continue
        for raw in event.file_paths:
            path = relative_path(raw, event.project_id)
            if own_file(path) and PurePosixPath(path).suffix.lower() in CODE_SUFFIXES:
                found.append((path, text, event.id, written))
    return found


def _shape(path: str, text: str, event_id: str, written: bool) -> _Shape | None:
    """The file's main declaration on a base, or None when it declares none."""
    for pattern, name_group, base_group, relation in _DECLARATIONS:
        match = pattern.search(text)
        if match is None:
            continue
        module = _MODULE.search(text)
        if not name_group and module is None:
            continue  # `use`/`@behaviour` declare a base only inside a module definition
        name = match.group(name_group) if name_group else ""
        if not name and module is not None:
            name = module.group(1).rsplit(".", 1)[-1]
        base = match.group(base_group)
        if base in {"object", "Object", "Exception", "Error", "Struct"}:
            return None
        methods = tuple(dict.fromkeys(_METHOD.findall(text)))
        cut = _CUT.search(text) is not None
        return _Shape(path, name, base, relation, methods, event_id, written, cut)
    return None


def _ending(path: str) -> str | None:
    """The file name's last word and extension (`_tool.rb`, `Controller.java`), or None
    when the name is one word."""
    name = PurePosixPath(path).name
    stem, dot, suffix = name.partition(".")
    if "." in suffix:  # `order.service.ts`: the middle word names the kind
        return dot + suffix
    cuts = [m.start() for m in _NAME_PARTS.finditer(stem) if m.start() > 0]
    if not cuts:
        return None
    return stem[cuts[-1] :] + dot + suffix


def _common_suffix(names: list[str]) -> str:
    shortest = min(names, key=len)
    size = 0
    while size < len(shortest) and all(n[-size - 1] == shortest[-size - 1] for n in names):
        size += 1
    tail = shortest[len(shortest) - size :] if size else ""
    # Only a whole word: `Tool` of `RunCodeTool`, not `ol`.
    while tail and not tail[0].isupper():
        tail = tail[1:]
    return tail


def sibling_patterns(events: list[StoredEvent]) -> list[SiblingPattern]:
    """The shared shape of each folder whose files the session read or wrote whole."""
    groups: dict[tuple[str, str], dict[str, _Shape]] = {}
    for path, text, event_id, written in _whole_files(events):
        ending = _ending(path)
        shape = _shape(path, text, event_id, written)
        if ending is None or shape is None:
            continue
        folder = str(PurePosixPath(path).parent)
        groups.setdefault((folder, ending), {})[path] = shape
    found: list[SiblingPattern] = []
    for (folder, ending), shapes in groups.items():
        if len(shapes) < MIN_FILES or len({(s.base, s.relation) for s in shapes.values()}) != 1:
            continue
        text = _statement(folder, ending, list(shapes.values()))
        files = tuple(shapes)
        ids = tuple(dict.fromkeys(s.event_id for s in shapes.values()))
        key = f"pattern:{folder}/*{ending}"
        found.append(SiblingPattern(key, text, folder, files, ids))
        if len(found) >= MAX_PATTERNS:
            break
    return found


def _statement(folder: str, ending: str, shapes: list[_Shape]) -> str:
    where = "the project root" if folder == "." else f"`{folder}/`"
    base, relation = shapes[0].base, shapes[0].relation
    read = [PurePosixPath(s.path).name for s in shapes if not s.written]
    written = [PurePosixPath(s.path).name for s in shapes if s.written]
    seen = ", ".join(f"`{n}`" for n in (read or written)[:MAX_NAMED])
    after = (
        f"; {', '.join(f'`{n}`' for n in written[:MAX_NAMED])} written the same way"
        if read and written
        else ""
    )
    names = [s.name for s in shapes if s.name]
    tail = _common_suffix(names) if len(names) == len(shapes) else ""
    declared = f"a type `<Name>{tail}`" if tail else "its main type"
    whole = [s for s in shapes if not s.cut] or shapes[:1]
    methods = [m for m in whole[0].methods if all(m in s.methods for s in whole)]
    defines = f", defining {', '.join(f'`{m}`' for m in methods[:MAX_METHODS])}" if methods else ""
    return (
        f"Files `<name>{ending}` in {where} share one pattern (seen in {seen}{after}): each "
        f"declares {declared} {relation} `{base}`{defines}."
    )
