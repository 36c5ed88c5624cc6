"""The project's files a continued conversation's summary lists as read or changed.

When a conversation runs out of context the host writes a summary and the session goes on from
it; the files the earlier conversation read and changed are gone from the records, but the
summary lists them in a part of its own ("3. Files and Code Sections:"), each under a bold or
quoted name:

    3. Files and Code Sections:
       - **internal/config/config.go**
         - Added validation of plugin settings
       - **go.mod**

Those names are the project's files as surely as the ones a search printed, and say what it is
written in the same way (`touched_languages`, weaker than files touched, listed by git, printed
by a search or a test runner; stronger than a README's drawing). The same reading for every
ecosystem:

- only a compaction summary, and only its part whose heading names the files (it ends at the
  summary's next numbered or markdown heading);
- only the name an item opens with, bold or in backticks, that looks like a file (a name with a
  suffix); a name in the item's description is not read;
- a path inside the project is made relative to its root; a path outside it (another
  repository, a home folder) says nothing of this project.
"""

from __future__ import annotations

import re

from squirrel_core.events import EventType, Origin
from squirrel_memory.models import StoredEvent

#: The part's heading: "3. Files and Code Sections:", "## Files and code sections".
_HEADING = re.compile(
    r"^\s*(?P<marks>#{1,6}\s*)?(?:\d{1,2}[.)]\s*)?\**\s*(?:key\s+|relevant\s+)?files?\s+(?:and|&)\s+"
    r"code(?:\s+sections?)?\s*:?\s*\**\s*:?\s*$",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"^\d{1,2}[.)]\s+\S")
_MARKDOWN = re.compile(r"^(?P<marks>#{1,6})\s+\S")
#: An item that opens with a name: "- **src/a.rs**", "- `src/a.rs` (new)", "### `src/a.rs`".
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)]|#{1,6})\s+(?:\*\*`?|`)(?P<names>[^*`\n]+)")
_PATH = re.compile(r"(?<![\w./~-])(?P<path>[~/]?[\w.-]+(?:/[\w.-]+)*\.[A-Za-z][\w]{0,9})(?![\w/])")


def _is_summary(event: StoredEvent) -> bool:
    return event.event_type == EventType.COMPACTION_SUMMARY or (
        event.event_type == EventType.USER_MESSAGE and event.origin == Origin.COMPACTION
    )


def _relative(path: str, root: str) -> str | None:
    """`path` from the project's root, or None for a path outside the project."""
    if path.startswith("~"):
        return None
    if path.startswith("/"):
        inside = root.rstrip("/") + "/"
        return path[len(inside) :] if len(inside) > 1 and path.startswith(inside) else None
    return path.removeprefix("./")


def listed_names(text: str) -> list[str]:
    """The file names the items of `text`'s files part open with, as written."""
    names: list[str] = []
    inside, level = False, 0
    for line in text.splitlines():
        if heading := _HEADING.match(line):
            inside, level = True, len((heading["marks"] or "").strip())
            continue
        if not inside:
            continue
        markdown = _MARKDOWN.match(line)
        if (markdown and (not level or len(markdown["marks"]) <= level)) or (
            not level and _NUMBERED.match(line)
        ):
            inside = False
            continue
        if (item := _ITEM.match(line)) is not None:
            names.extend(m["path"] for m in _PATH.finditer(item["names"]))
    return names


def summarised_paths(events: list[StoredEvent]) -> list[tuple[str, str]]:
    """(path from the root, event id) for each project file the compaction summaries of `events`
    list in their files part."""
    found: list[tuple[str, str]] = []
    for event in events:
        text = event.content.get("text")
        if not _is_summary(event) or not isinstance(text, str):
            continue
        for name in listed_names(text):
            path = _relative(name, event.project_id)
            if path and (path, event.id) not in found:
                found.append((path, event.id))
    return found
