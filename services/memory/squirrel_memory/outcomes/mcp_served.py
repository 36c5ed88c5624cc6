"""What a session was served through MCP, read back from its transcript.

An MCP tool call carries no session id, so the gateway cannot say which session an answer went
to. The transcript can: when a session is processed, each `tool_result` of a Squirrel read tool
(`get_task_context`, the three views, `search_project_memory`, under whatever prefix the host
gives MCP tools, e.g. `mcp__squirrel__search_project_memory`) is the answer the model read. Its
lines name the memories it showed:

- a search result names its memory by id or handle (`(score 0.82, mem_7k2m9q4x)`);
- every other line is `- ` (and `[type] ` for task context) and the memory's text on one line,
  whole or shortened at a word break with `…`.

A line names a memory when its text starts with the memory's whole text, or when its shortened
text (at least `MIN_PREFIX_CHARS` before the `…`) starts exactly one live memory of the project;
a shortened text that several memories start with names none of them. Lines that are no memory
(headings, the budget footer, module summaries) match nothing. The memories found are recorded
as served to that session with the channel `mcp`, at the tool result's time, and are judged like
hook-served ones. A failed tool call (`is_error`) served nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Final

from squirrel_core import handles
from squirrel_core.budget import ELLIPSIS
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.storage import Store
from squirrel_memory.storage.outcome_log import ServedRecord

CHANNEL: Final = "mcp"
READ_TOOLS: Final = frozenset(
    {
        "get_task_context",
        "get_user_style_view",
        "get_project_brief_view",
        "get_pitfalls_view",
        "search_project_memory",
    }
)
MIN_PREFIX_CHARS: Final = 24
"""A shortened line names a memory only with this much text before its `…`."""
_ID: Final = re.compile(r"\bmem_[0-9A-Za-z]+\b")
_TYPE_TAG: Final = re.compile(r"^\[[a-z_]+\] ")
_SEPARATORS: Final = re.compile(r"__|[./:]")


def is_read_tool(name: str) -> bool:
    """A Squirrel read tool, by its bare name or the name a host gives it (`mcp__squirrel__x`)."""
    return _SEPARATORS.split(name)[-1] in READ_TOOLS if name else False


def mcp_answers(events: Sequence[StoredEvent]) -> list[tuple[str, datetime, str]]:
    """(session id, time, text) of each successful Squirrel read tool result in `events`."""
    found: list[tuple[str, datetime, str]] = []
    for event in events:
        if event.event_type != "tool_result" or not event.session_id:
            continue
        content = event.content
        if content.get("is_error") or not is_read_tool(str(content.get("tool") or "")):
            continue
        text = content.get("output")
        if isinstance(text, str) and text:
            found.append((event.session_id, event.timestamp, text))
    return found


class MemoryText:
    """The project's live memories, by text and by id or handle, to read answers against."""

    def __init__(self, texts: Sequence[tuple[str, str]], every_id: Sequence[str]) -> None:
        self._texts = {memory_id: " ".join(text.split()) for memory_id, text in texts}
        self._names: dict[str, str] = {m: m for m in self._texts}
        for memory_id, handle in handles.handles(every_id).items():
            if memory_id in self._texts:
                self._names[handle] = memory_id

    def named_in(self, answer: str) -> list[str]:
        """The memories `answer` shows, in the order it shows them."""
        found: dict[str, None] = {}
        for token in _ID.findall(answer):
            if token in self._names:
                found[self._names[token]] = None
        for line in answer.splitlines():
            memory_id = self._line_memory(line)
            if memory_id is not None:
                found[memory_id] = None
        return list(found)

    def _line_memory(self, line: str) -> str | None:
        if not line.startswith("- "):
            return None
        body = _TYPE_TAG.sub("", line[2:], count=1)
        cut = body.find(ELLIPSIS)
        if cut < 0:
            whole = [m for m, text in self._texts.items() if _begins(body, text)]
            # The longest text that the line starts with: one text may begin another.
            return max(whole, key=lambda m: len(self._texts[m]), default=None)
        prefix = body[:cut].rstrip()
        if len(prefix) < MIN_PREFIX_CHARS:
            return None
        starts = [m for m, text in self._texts.items() if text.startswith(prefix)]
        return starts[0] if len(starts) == 1 else None


def _begins(line: str, text: str) -> bool:
    """`line` starts with the whole of `text`, followed by nothing or a space."""
    return bool(text) and line.startswith(text) and line[len(text) : len(text) + 1] in ("", " ")


async def memory_text(store: Store) -> MemoryText:
    """The live memories of the store's project, read once for a processing round."""
    texts: list[tuple[str, str]] = []
    for memory_type in MemoryType:
        texts.extend(await store.memory_texts(store.project_id, memory_type))
    every = await store.memory_ids_with_prefix(handles.ID_PREFIX, 10_000_000)
    return MemoryText(texts, every)


async def served_through_mcp(store: Store, events: Sequence[StoredEvent]) -> list[ServedRecord]:
    """The memories the Squirrel MCP answers in `events` showed, as served records."""
    answers = mcp_answers(events)
    if not answers:
        return []
    known = await memory_text(store)
    records: list[ServedRecord] = []
    for session_id, at, text in answers:
        records.extend(
            ServedRecord(session_id, memory_id, at, CHANNEL) for memory_id in known.named_in(text)
        )
    return records
