"""Legacy whole-file Gemini chats (`session-*.json`): every read parses the whole document and
yields only what earlier reads did not; the seen set travels in the source cursor."""

from __future__ import annotations

from collections import Counter
from typing import Any

from squirrel_core.events import Event, SourcePosition
from squirrel_ingest.parsers.gemini import (
    SEEN_LIMIT,
    SeenKeys,
    call_id_of,
    load_document,
    message_events_of,
    session_of,
)


def message_keys(message: dict[str, Any]) -> list[str]:
    """The seen-set keys of one message: `m:<id>` plus `t:<id>` for each of its tool calls."""
    message_id = message.get("id")
    if not isinstance(message_id, str):
        return []
    keys = [f"m:{message_id}"]
    calls = message.get("toolCalls")
    if isinstance(calls, list):
        keys.extend(f"t:{call_id_of(message_id, index, call)}" for index, call in enumerate(calls))
    return keys


def parse_gemini_json_document(
    data: bytes,
    path: str,
    inode: int,
    already_seen_ids: set[str],
    *,
    cwd: str | None = None,
    skipped: Counter[str] | None = None,
) -> tuple[list[Event], set[str]]:
    """Events for the messages of a legacy `session-*.json` not seen in earlier reads of it.

    The file is rewritten in full on every update; `already_seen_ids` (from the previous call,
    or from `seen_ids_from_cursor`) holds `m:<message id>` and `t:<tool call id>` keys. A tool
    call is emitted once it has finished (success, error or cancelled). Returns the events and
    the new seen set. Never raises: an unreadable document yields no events and the old set.
    """
    counter = skipped if skipped is not None else Counter()
    document = load_document(data, counter)
    if document is None:
        return [], set(already_seen_ids)
    messages = document.get("messages")
    if not isinstance(messages, list):
        counter["missing_messages"] += 1
        return [], set(already_seen_ids)
    session = session_of(document, path, cwd)
    position = SourcePosition(path=path, inode=inode, end_offset=len(data))
    seen = SeenKeys(already_seen_ids)
    events: list[Event] = []
    for message in messages:
        events.extend(message_events_of(message, session, position, seen, counter))
    return events, seen.as_set()


def cursor_extra_for_document(data: bytes, seen_ids: set[str]) -> dict[str, Any]:
    """A bounded form of `seen_ids` for `SourceCursor.extra`.

    Stores how many leading messages are fully done and the id of the last of them, plus the
    seen keys of the messages after that (usually only the last one or two).
    """
    document = load_document(data, Counter())
    messages = document.get("messages") if document else None
    if not isinstance(messages, list):
        return {"gemini_done_count": 0, "gemini_done_last_id": None, "gemini_tail_seen": []}
    done = 0
    for message in messages:
        keys = message_keys(message) if isinstance(message, dict) else []
        if not keys or any(key not in seen_ids for key in keys):
            break
        done += 1
    last_id = messages[done - 1].get("id") if done else None
    tail = [
        key
        for message in messages[done:]
        if isinstance(message, dict)
        for key in message_keys(message)
    ]
    return {
        "gemini_done_count": done,
        "gemini_done_last_id": last_id,
        "gemini_tail_seen": [key for key in tail if key in seen_ids][-SEEN_LIMIT:],
    }


def seen_ids_from_cursor(data: bytes, extra: dict[str, Any]) -> set[str]:
    """Rebuild the seen set for the current document from `cursor_extra_for_document` output.

    If the done prefix no longer ends where it did (the chat was rewound or replaced), every
    message up to the last remembered id still counts as seen.
    """
    tail = extra.get("gemini_tail_seen")
    seen = {key for key in tail if isinstance(key, str)} if isinstance(tail, list) else set()
    document = load_document(data, Counter())
    messages = document.get("messages") if document else None
    count = extra.get("gemini_done_count")
    last_id = extra.get("gemini_done_last_id")
    if not isinstance(messages, list) or not isinstance(count, int) or not isinstance(last_id, str):
        return seen
    ids = [message.get("id") if isinstance(message, dict) else None for message in messages]
    if 0 < count <= len(ids) and ids[count - 1] == last_id:
        upto = count
    elif last_id in ids:
        upto = ids.index(last_id) + 1
    else:
        return seen
    for message in messages[:upto]:
        if isinstance(message, dict):
            seen.update(message_keys(message))
    return seen


class GeminiDocumentParser:
    """A legacy whole-file Gemini chat as the engine reads it: each read parses the whole
    document and yields only messages not seen before; the seen set travels in the cursor."""

    def __init__(self, *, cwd: str | None = None) -> None:
        self.skipped: Counter[str] = Counter()
        self._cwd = cwd
        self._seen: set[str] = set()
        self._restored: dict[str, Any] | None = None
        self._data = b""

    def parse_document(self, data: bytes, position: SourcePosition) -> list[Event]:
        if self._restored is not None:
            self._seen = seen_ids_from_cursor(data, self._restored)
            self._restored = None
        events, self._seen = parse_gemini_json_document(
            data, position.path, position.inode, self._seen, cwd=self._cwd, skipped=self.skipped
        )
        self._data = data
        return events

    def export_state(self) -> dict[str, Any]:
        return cursor_extra_for_document(self._data, self._seen)

    def restore_state(self, state: dict[str, Any]) -> None:
        self._restored = dict(state)
