"""What a tool call wrote into files, the same on every host: read from what the call was given.

Hosts name their writing tools differently and shape the same writes alike: a whole file's
`content` beside its path (Claude Code's `Write`, Gemini CLI's `write_file`), an edit's
`new_string` replacing its `old_string` (`Edit`, Gemini CLI's `replace`), several such edits
under `edits` (`MultiEdit`), or a Codex CLI `apply_patch` body, where an added file is written
whole and each hunk of an updated one is an edit (`patch_edits`). Rules that need to know what
was written read it here, so a Codex or Gemini session gives the memories a Claude Code one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.patch_edits import added_files, patch_body, patch_edits
from squirrel_memory.models import StoredEvent

_PATH_KEYS = ("file_path", "path", "absolute_path", "notebook_path")


@dataclass(frozen=True, slots=True)
class Written:
    """One file a call wrote: its path (relative to the project when inside it), the text it
    replaced and the text it wrote, whether it wrote the whole file, and whether the edit
    replaced `every` place the text was found (`replace_all`)."""

    path: str
    before: str
    after: str
    whole: bool
    every: bool = False


def writes(event: StoredEvent) -> list[Written]:
    """Every file write or edit a tool call's input holds, in order; [] for any other event."""
    content: dict[str, Any] = event.content
    data = content.get("input")
    if event.event_type != EventType.TOOL_CALL or not isinstance(data, dict):
        return []
    if body := patch_body(data):
        added = set(added_files(body))
        return [
            Written(relative_path(path, event.project_id), before, after, path in added)
            for path, before, after in patch_edits(body)
        ]
    path = next((data[k] for k in _PATH_KEYS if isinstance(data.get(k), str)), None)
    if path is None:
        path = next(iter(event.file_paths), None)
    if not path:
        return []
    where = relative_path(path, event.project_id)
    if isinstance(data.get("content"), str):
        return [Written(where, "", data["content"], whole=True)]
    pairs = [data, *(e for e in data.get("edits") or () if isinstance(e, dict))]
    return [
        Written(
            where,
            str(e.get("old_string") or ""),
            e["new_string"],
            whole=False,
            every=e.get("replace_all") is True,
        )
        for e in pairs
        if isinstance(e.get("new_string"), str)
    ]


def applied_calls(events: list[StoredEvent]) -> set[str]:
    """The tool calls whose change was made: a code change was recorded for them (a call the
    user rejected, or one that failed, wrote nothing)."""
    return {
        str(e.content.get("tool_use_id"))
        for e in events
        if e.event_type == EventType.CODE_CHANGE and e.content.get("tool_use_id")
    }


def whole_writes(events: list[StoredEvent]) -> set[tuple[str, str]]:
    """(tool_use_id, path) of every file a call in `events` wrote whole."""
    found: set[tuple[str, str]] = set()
    for event in events:
        use_id = event.content.get("tool_use_id")
        if event.event_type == EventType.TOOL_CALL and isinstance(use_id, str):
            found.update((use_id, w.path) for w in writes(event) if w.whole)
    return found
