"""Where things live, as the assistant's own reply lists the project's folders after looking.

Having listed or read the project, the assistant often answers "what is in this repo?" with
the folders and what each holds, under a lead-in or a heading:

    The repository has three parts:

    - `api/` — the HTTP server and its handlers
    - `worker/` — the background job runner

A subagent's report of the same shape is read by `report_layout`; this rule reads the main
agent's replies, the same way and the same for every ecosystem, with more care since the main
agent also plans and reports its own work:

- the lead-in or heading names the layout (files, folders, modules, the structure, its parts
  or layers …) and names no change, plan, proposal, layout to come or trouble ("Files
  changed", "I'll create this structure", "Target layout" are not the layout);
- the item opens with a folder (in backticks or bold) that a listing printed or that holds a
  file the session read, searched or listed without writing it: a folder only a write of the
  session names may be new, and a list of files is a report of the work, not the layout;
- what it says of the folder is a short declarative phrase (`report_layout.path_item`);
- the reply is about this project (`elsewhere`) and no later reply or user message takes it
  back (`subagent_findings.taken_back`).

One memory per (folder, what it is), at most `MAX_ITEMS` per episode; a folder a statement
already placed is left to that statement.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.file_reads import printed_paths
from squirrel_memory.extractors.placements import KEY_PREFIX, Placement
from squirrel_memory.extractors.report_layout import (
    layout_items,
    path_item,
    resolve_seen,
    says_something,
)
from squirrel_memory.extractors.session_paths import FILE_SUFFIX, excluded, seen_paths
from squirrel_memory.extractors.stack_mentions import unshown_stack
from squirrel_memory.extractors.subagent_findings import taken_back
from squirrel_memory.extractors.tool_texts import tools_saw
from squirrel_memory.extractors.wording import key_slug, sentence
from squirrel_memory.models import StoredEvent

#: Folders kept per episode.
MAX_ITEMS = 4
#: A lead-in or heading that names the layout: a subagent's words, and the parts a reply
#: sums up ("three parts", "the layers").
_LAYOUT = re.compile(
    r"\b(?:files?|paths?|locations?|layout|structure|organi[sz]ation|director(?:y|ies)|"
    r"folders?|modules?|components?|entry ?points?|where|parts?|layers?|tiers?|pieces?|"
    r"packages?|crates?|apps?)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ListedFolder(Placement):
    """A folder the assistant's reply lists with what it holds (a placement of its own rule)."""


def _file_named(span: str, path: str, folders: set[str]) -> bool:
    """Whether an item names a file, not a folder: written without a final `/`, no folder the
    session read from, and a file's suffix on its name (`SKILL.md`, `main.go`)."""
    name = PurePosixPath(path).name
    return (
        not span.rstrip().endswith("/")
        and path not in folders
        and not name.startswith(".")
        and bool(FILE_SUFFIX.search(name))
    )


def _written(events: list[StoredEvent]) -> set[str]:
    return {
        relative_path(p, e.project_id)
        for e in events
        if e.event_type == EventType.CODE_CHANGE
        for p in e.file_paths
        if p
    }


def _looked_into(
    folder: str,
    files: set[str],
    written: set[str],
    listed: dict[str, str],
    listed_before: Callable[[str], bool],
) -> bool:
    """Whether the session looked into `folder`: a listing printed it before the reply
    (`listed_before`, given the listing's event id) and the session wrote no file into it, or
    it holds a file the session read or searched and did not write."""
    if folder in listed:
        made = any(folder in {str(p) for p in PurePosixPath(w).parents} for w in written)
        return listed_before(listed[folder]) and not made
    return any(
        folder in {str(p) for p in PurePosixPath(f).parents} for f in files if f not in written
    )


def _came_before(position: dict[str, int], index: int, event_id: str) -> bool:
    return position.get(event_id, index) < index


def reply_layout(events: list[StoredEvent]) -> list[ListedFolder]:
    """The project folders the main agent's replies in `events` list with what each holds, at
    most `MAX_ITEMS`."""
    elsewhere = replies_elsewhere(events)
    replies = [
        (index, e)
        for index, e in enumerate(events)
        if e.event_type == EventType.ASSISTANT_RESPONSE
        and not e.sidechain
        and e.id not in elsewhere
        and isinstance(e.content.get("text"), str)
    ]
    if not replies:
        return []
    main = [e for e in events if not e.sidechain]
    seen = seen_paths(main)
    listed = printed_paths(main)
    written = _written(main)
    saw = tools_saw(main)
    root = events[0].project_id
    kept: dict[str, ListedFolder] = {}
    position = {e.id: n for n, e in enumerate(events)}
    for index, event in replies:
        if taken_back(events, index):
            continue
        for body in layout_items(event.content["text"], _LAYOUT):
            found = path_item(body)
            if found is None:
                continue
            span, label, role = found
            path = resolve_seen(span, seen, listed, root)
            if path is None or excluded(path) or path in seen.files or path in written:
                continue  # a file, or nothing seen: a report of the work, not the layout
            if _file_named(span, path, seen.folders):
                continue  # "`SKILL.md` — the orchestrator": a file's name, not a folder
            before = partial(_came_before, position, index)
            if not _looked_into(path, set(seen.files), written, listed, before):
                continue
            if not says_something(path, label, role) or unshown_stack(f"{label} {role}", saw):
                continue
            said = sentence(f"`{path}/` ({label}): {role}" if label else f"`{path}/`: {role}")
            key = f"{KEY_PREFIX}{path}:{key_slug(role or label) or 'role'}"
            if said is None or any(p.path == path for p in kept.values()):
                continue
            sources = seen.files.get(path, [])[:2] or ([listed[path]] if path in listed else [])
            kept[key] = ListedFolder(key, said, path, (), (event.id, *sources))
            if len(kept) >= MAX_ITEMS:
                return list(kept.values())
    return list(kept.values())
