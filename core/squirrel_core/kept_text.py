"""How much of a long text an event keeps, and the shorter form an event's identity is read from.

Ingest first kept a tool's input strings and a shell command to 2,000 characters, and outputs
and message texts to 8,000, cut at the end with a mark (`\\n…[truncated N chars]`). Much of what
a session teaches sits past those bounds: the build and test commands deep in a subagent's
brief, the conclusion at the end of its report. The second bounds keep more:

- a tool call's input strings and a shell command whole up to `INPUT_KEPT`, then cut at the end;
- a message's text and a subagent's report whole up to `TEXT_KEPT`, then its first `HEAD_KEPT`
  and last `TAIL_KEPT` characters with the mark between them (a report ends on its conclusion);
- a file read's output whole up to `TEXT_KEPT`, then cut at the end (a README's build section
  past the first 8,000 characters).

An event holding more of a text than its first bound kept says so with `KEPT_KEY:
KEPT_VERSION` in its content, and is known by its first form (`first_content`): the content as
the first bounds cut it. Ingest carries that form beside the content (`Event.first`), redacts it
and moves it off a worktree as it does the content, and signs it into the content
(`IDENTITY_KEY`, `signed`): a secret or a worktree path that changes a text's length before the
first cut leaves the signature what the shorter event's was. The store's dedup hash reads that
signature (`identity_signature`; unsigned, the first form derived from the content). A
transcript read again after the upgrade (a cursor reset, a re-import, a Gemini chat document
read whole again) then gives the hash of the event stored before it, and the store keeps the
one it holds, shorter text and all: the extractors read it and memories cite it. An event whose
texts all fit the first bounds carries no mark and is the event it always was.

The signature is taken as sent (what it signs was redacted away before the store sees it), so
a store counts an event as a duplicate only of one the same author stored: on a team server, an
event claiming the identity of a teammate's event suppresses nothing but its sender's own.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Final

from squirrel_core.content_signature import content_signature
from squirrel_core.events import Event
from squirrel_core.host_tools import READ_TOOLS

#: The content key that marks an event kept past the first bounds, and its value.
KEPT_KEY: Final = "kept"
KEPT_VERSION: Final = 2
#: The content key of a marked event's signature of its first form, as ingest made it.
IDENTITY_KEY: Final = "identity"

#: First bounds: a tool input's strings (and a shell command), and an output or a message text.
FIRST_INPUT_LIMIT: Final = 2_000
FIRST_TEXT_LIMIT: Final = 8_000
#: Second bounds (`KEPT_VERSION`).
INPUT_KEPT: Final = 16_000
TEXT_KEPT: Final = 24_000
HEAD_KEPT: Final = 16_000
TAIL_KEPT: Final = 8_000

#: Tools whose result is a file's text, kept whole up to `TEXT_KEPT`, then cut at the end (a
#: read cut short stays one that reads as such).
READING_TOOLS: Final = READ_TOOLS

_SIGNATURE = re.compile(r"[0-9a-f]{64}")
_END_CUT = re.compile(r"\n…\[truncated (\d+) chars\]\Z")
_MIDDLE_CUT = re.compile(r"\n…\[truncated (\d+) chars\]\n")
_TEXT_TYPES: Final = frozenset({"user_message", "assistant_response", "compaction_summary"})
_COMMAND_TYPES: Final = frozenset({"command_run", "test_run"})


def cut_end(text: str, limit: int) -> str:
    """`text` cut to its first `limit` characters, with the mark saying how many were dropped."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n…[truncated {len(text) - limit} chars]"


def keep_ends(text: str) -> str:
    """`text` whole up to `TEXT_KEPT`, else its head and tail with the mark between them."""
    if len(text) <= TEXT_KEPT:
        return text
    dropped = len(text) - HEAD_KEPT - TAIL_KEPT
    return f"{text[:HEAD_KEPT]}\n…[truncated {dropped} chars]\n{text[-TAIL_KEPT:]}"


def first_form(text: str, limit: int, *, exact: bool = False) -> str:
    """The text the first bound `limit` kept of the text `text` was kept from.

    A text no longer than `limit` is its own first form. `exact` reads a text as ingest just
    kept it (before redaction): a mark counts only where the second bounds put it, so a text
    that quotes an earlier cut (`…[truncated 40 chars]`) is not taken for one."""
    if len(text) <= limit:
        return text
    head, length = text, len(text)
    end = _END_CUT.search(text)
    middle = _MIDDLE_CUT.match(text, HEAD_KEPT) if exact else _MIDDLE_CUT.search(text)
    if end is not None and (not exact or end.start() in (INPUT_KEPT, TEXT_KEPT)):
        head, length = text[: end.start()], end.start() + int(end.group(1))
    elif middle is not None and (not exact or len(text) - middle.end() == TAIL_KEPT):
        head = text[: middle.start()]
        length = len(text) - (middle.end() - middle.start()) + int(middle.group(1))
    if length <= limit:
        return head
    return f"{head[:limit]}\n…[truncated {length - limit} chars]"


def _first_strings(value: Any, limit: int, exact: bool) -> Any:
    if isinstance(value, str):
        return first_form(value, limit, exact=exact)
    if isinstance(value, dict):
        return {key: _first_strings(item, limit, exact) for key, item in value.items()}
    if isinstance(value, list):
        return [_first_strings(item, limit, exact) for item in value]
    return value


def _cut_by(value: Any, limit: int) -> bool:
    """Whether the first bound `limit` would cut a string of `value` shorter than it is."""
    if isinstance(value, str):
        return len(value) > limit and first_form(value, limit, exact=True) != value
    if isinstance(value, dict):
        return any(_cut_by(item, limit) for item in value.values())
    if isinstance(value, list):
        return any(_cut_by(item, limit) for item in value)
    return False


def _kept_fields(event_type: str, content: dict[str, Any]) -> list[tuple[str, int]]:
    """The (content key, first bound) of the texts the second bounds keep for this event."""
    if event_type == "tool_call":
        return [("input", FIRST_INPUT_LIMIT)]
    if event_type in _COMMAND_TYPES:
        return [("command", FIRST_INPUT_LIMIT)]
    if event_type in _TEXT_TYPES:
        return [("text", FIRST_TEXT_LIMIT)]
    if event_type == "tool_result":
        return [("output", FIRST_TEXT_LIMIT)]
    return []


def past_first_bounds(event_type: str, content: dict[str, Any]) -> bool:
    """Whether a text of this content holds more than its first bound kept (it is then
    marked)."""
    return any(_cut_by(content.get(key), limit) for key, limit in _kept_fields(event_type, content))


def marked(event_type: str, content: dict[str, Any]) -> dict[str, Any]:
    """`content` with `KEPT_KEY` set when a text of it is longer than its first bound."""
    if past_first_bounds(event_type, content):
        return {**content, KEPT_KEY: KEPT_VERSION}
    return content


def first_content(
    event_type: str, content: dict[str, Any], *, exact: bool = False
) -> dict[str, Any]:
    """The content an event's identity is read from: a marked event's texts as the first bounds
    cut them, without the mark; any other content as it is. `exact`: see `first_form`."""
    if content.get(KEPT_KEY) != KEPT_VERSION:
        return content
    first = {key: value for key, value in content.items() if key not in (KEPT_KEY, IDENTITY_KEY)}
    for key, limit in _kept_fields(event_type, first):
        if key in first:
            first[key] = _first_strings(first[key], limit, exact)
    return first


def identity_signature(event_type: str, content: dict[str, Any]) -> str:
    """The content signature an event's identity is read from: a marked event's `IDENTITY_KEY`
    when ingest signed it, else the signature of its `first_content`."""
    if content.get(KEPT_KEY) == KEPT_VERSION:
        signed = content.get(IDENTITY_KEY)
        if isinstance(signed, str) and _SIGNATURE.fullmatch(signed):
            return signed
    return content_signature(first_content(event_type, content))


def signed(event: Event) -> Event:
    """`event` as it leaves ingest: a marked event's first form (`Event.first`, redacted and
    moved as its content was) signed into its content under `IDENTITY_KEY`, and let go."""
    if event.first is None:
        return event
    content = {**event.content, IDENTITY_KEY: content_signature(event.first)}
    return dataclasses.replace(event, content=content, first=None)
