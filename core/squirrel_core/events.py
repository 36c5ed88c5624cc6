"""The normalized event every source is turned into, and the read cursor that travels with it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any


class SourceTool(StrEnum):
    """Which assistant or tool wrote the activity (the spec's `source_tool`)."""

    CLAUDE_CODE = "claude_code"
    CODEX = "codex"
    GEMINI_CLI = "gemini_cli"
    GIT = "git"
    MANUAL = "manual"


class EventType(StrEnum):
    """What happened (the spec's `event_type`)."""

    USER_MESSAGE = "user_message"
    ASSISTANT_RESPONSE = "assistant_response"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    CODE_CHANGE = "code_change"
    COMMAND_RUN = "command_run"
    TEST_RUN = "test_run"
    COMMIT = "commit"
    COMPACTION_SUMMARY = "compaction_summary"


@dataclass(frozen=True, slots=True)
class Event:
    """One normalized piece of activity, ready for redaction and delivery.

    `content` is a JSON-serialisable dict; its keys depend on `event_type`:

    - user_message / assistant_response / compaction_summary: `text`
    - tool_call: `tool`, `tool_use_id`, `input` (dict)
    - tool_result: `tool`, `tool_use_id`, `output` (str, capped), `is_error` (bool)
    - code_change: `tool`, `tool_use_id`, `path`, `summary`
    - command_run / test_run: `command`, `tool_use_id`, and once the result is known
      `exit_code` (int | None), `is_error` (bool), `output` (str, capped)
    - commit: `sha`, `message`, `author`, `files_changed`

    `cwd` is the working directory the record was written in; ingest maps it to the registered
    project whose root contains it (deepest match). `sidechain` marks subagent traffic, kept apart
    from the main session. `origin` says where in a source file the record was read, for cursors
    and diagnostics (never sent as content).
    """

    source_tool: SourceTool
    event_type: EventType
    timestamp: datetime
    content: dict[str, Any]
    session_id: str | None = None
    cwd: str | None = None
    file_paths: tuple[str, ...] = ()
    source_version: str | None = None
    sidechain: bool = False
    agent_id: str | None = None
    origin: EventOrigin | None = None


@dataclass(frozen=True, slots=True)
class EventOrigin:
    """Where an event was read: the file, its inode, and the byte offset just past the record."""

    path: str
    inode: int
    end_offset: int


@dataclass(frozen=True, slots=True)
class SourceCursor:
    """How far one source file has been read: every record ending at or before `offset` is done.

    Cursors are committed by the memory service in the same transaction as the events read before
    them, per project, so a crash anywhere loses nothing and repeats nothing.
    """

    source_tool: SourceTool
    path: str
    inode: int
    offset: int
    extra: dict[str, Any] = field(default_factory=dict)
