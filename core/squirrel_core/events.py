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
    CURSOR = "cursor"


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
    SESSION_REPOSITORY = "session_repository"


class Origin(StrEnum):
    """Who said it: the speaker of an event, decided once where events are built.

    Parsers classify every user-role record of a transcript; extraction reads the origin and
    never re-guesses it from text. Subagent traffic keeps its speaker (its first prompt is
    `PARENT_AGENT`, its commands are `ASSISTANT`) and is marked by `Event.sidechain`.
    """

    TYPED = "typed"
    """Typed by the user at the prompt."""
    QUEUED = "queued"
    """Typed by the user while the assistant was working, delivered later."""
    SLASH_COMMAND = "slash_command"
    """A slash command the user ran; `content` has `command` and `args` (the user's words)."""
    ANSWER = "answer"
    """The user's answer to a question the assistant asked."""
    TOOL_RESULT = "tool_result"
    """Output of a tool the assistant called."""
    HOOK = "hook"
    """Output of a hook or validator."""
    HARNESS = "harness"
    """Text the host added: system reminders, command caveats, skill bodies, environment context."""
    PARENT_AGENT = "parent_agent"
    """A parent agent's prompt to a subagent."""
    COMPACTION = "compaction"
    """A summary written when the conversation was compacted."""
    ASSISTANT = "assistant"
    """The assistant's own text and tool calls."""
    GIT = "git"
    """What git recorded."""


LOADED_FILE = "loaded_file"
"""The content key of a host-spoken (`HARNESS`) user message that carries an instruction file the
host loaded into the session itself (Codex's `AGENTS.md`, a sub-folder's `CLAUDE.md`): the file's
path; `text` is the file's text."""

USER_VOICE: frozenset[Origin] = frozenset(
    {Origin.TYPED, Origin.QUEUED, Origin.SLASH_COMMAND, Origin.ANSWER}
)

_DEFAULT_ORIGINS: dict[EventType, Origin] = {
    EventType.USER_MESSAGE: Origin.TYPED,
    EventType.ASSISTANT_RESPONSE: Origin.ASSISTANT,
    EventType.TOOL_CALL: Origin.ASSISTANT,
    EventType.TOOL_RESULT: Origin.TOOL_RESULT,
    EventType.CODE_CHANGE: Origin.ASSISTANT,
    EventType.COMMAND_RUN: Origin.ASSISTANT,
    EventType.TEST_RUN: Origin.ASSISTANT,
    EventType.COMMIT: Origin.GIT,
    EventType.COMPACTION_SUMMARY: Origin.COMPACTION,
    EventType.SESSION_REPOSITORY: Origin.HARNESS,
}


def is_user_voice(origin: Origin | str | None) -> bool:
    """True only for the user's own words: typed, queued, slash-command arguments, answers.

    The one test every extractor applies before anything can become user_style or "the user
    asked"; unknown or missing origins are never the user's voice.
    """
    return origin in USER_VOICE


def default_origin(event_type: EventType | str) -> Origin:
    """The origin of an event whose sender did not classify it, by event type.

    A user message without an origin was written before origins existed, when parsers kept only
    the text a user typed as a user message; it reads as `TYPED`.
    """
    try:
        return _DEFAULT_ORIGINS[EventType(event_type)]
    except ValueError:
        return Origin.HARNESS


def parse_origin(value: str | None, event_type: EventType | str) -> Origin:
    """A stored or sent origin; empty or unknown values take `default_origin(event_type)`."""
    if value:
        try:
            return Origin(value)
        except ValueError:
            pass
    return default_origin(event_type)


@dataclass(frozen=True, slots=True)
class Event:
    """One normalized piece of activity, ready for redaction and delivery.

    `content` is a JSON-serialisable dict; its keys depend on `event_type`:

    - user_message / assistant_response / compaction_summary: `text`
    - tool_call: `tool`, `tool_use_id`, `input` (dict)
    - tool_result: `tool`, `tool_use_id`, `output` (str, capped), `is_error` (bool); a file
      read that may not have returned the whole file adds `partial` (true) and `lines`
      ([first, last] line it returned)
    - code_change: `tool`, `tool_use_id`, `path`, `summary`
    - command_run / test_run: `command`, `tool_use_id`, and once the result is known
      `exit_code` (int | None), `is_error` (bool), `output` (str, capped)
    - commit: `sha`, `message`, `author`, `files_changed`
    - session_repository: `repository_url` (credentials removed), and `branch`, `commit` when
      the host recorded them: the repository the session ran in, as the host wrote it when the
      session opened (Codex's `session_meta`)

    `cwd` is the working directory the record was written in; ingest maps it to the registered
    project whose root contains it (deepest match). `sidechain` marks subagent traffic, kept apart
    from the main session. `origin` says who said it (None: not classified, stored as
    `default_origin(event_type)`). `position` says where in a source file the record was read,
    for cursors and diagnostics (never sent). `git_branch` is the branch the session had checked
    out, when the transcript says (it routes sessions of removed worktrees; never sent).
    `first` is, for an event whose texts ingest kept past the first bounds, its content as
    those bounds cut it (`squirrel_core.kept_text`): redacted and moved with the content, and
    signed into it before delivery (never sent itself).
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
    position: SourcePosition | None = None
    origin: Origin | None = None
    git_branch: str | None = None
    first: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class SourcePosition:
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
