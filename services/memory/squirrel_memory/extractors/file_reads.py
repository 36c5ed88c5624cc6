"""A file read in the session: which tools read files, their output, and its text."""

from __future__ import annotations

import re
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.models import StoredEvent

#: Tools whose result is a file's content (Claude Code's Read, other assistants' equivalents).
READ_TOOLS = frozenset({"Read", "read_file", "view"})
#: Longest file output read for its text (characters); what matters is near the top.
MAX_READ_CHARS = 200_000

#: `     1→text` (Claude Code's Read) or `     1\ttext` (`cat -n`): the first line of a file.
_FIRST_LINE = re.compile(r"^\s*1(?:→|\t)")
#: Any numbered line of a file read.
_NUMBERED = re.compile(r"^\s*\d+(?:→|\t)")
_REMINDER = re.compile(r"<system-reminder>.*?(?:</system-reminder>|\Z)", re.DOTALL)


def read_output(event: StoredEvent) -> str | None:
    """The output of a successful file read, or None for any other event."""
    content: dict[str, Any] = event.content
    output = content.get("output")
    if (
        event.event_type != EventType.TOOL_RESULT
        or content.get("tool") not in READ_TOOLS
        or content.get("is_error")
        or not isinstance(output, str)
    ):
        return None
    return output


def from_first_line(output: str) -> bool:
    """Whether a read's output starts at the file's first line (or is not numbered at all)."""
    return bool(_FIRST_LINE.match(output)) or not _NUMBERED.match(output)


def whole_read_output(event: StoredEvent) -> str | None:
    """The output of a successful file read that starts at the file's first line, else None."""
    output = read_output(event)
    return output if output is not None and from_first_line(output) else None


def file_text(output: str) -> str:
    """A Read tool's output as the file's text: line-number prefixes and injected reminders
    removed (output without numbering is returned as it is)."""
    text = _REMINDER.sub("", output[:MAX_READ_CHARS])
    lines = text.splitlines()
    numbered = sum(1 for line in lines if _NUMBERED.match(line))
    if not lines or numbered < max(1, len(lines) // 2):
        return text
    return "\n".join(_NUMBERED.sub("", line, count=1) for line in lines)
