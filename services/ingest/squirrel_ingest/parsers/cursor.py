"""Cursor chat parser: one composer (a chat) and its bubbles (messages) into events.

A composer (`composerData:<id>` in Cursor's global store) lists its bubbles in order in
`fullConversationHeadersOnly` (older versions hold them inline in `conversation`, or in
`conversationMap`). A bubble (`bubbleId:<composer>:<bubble>`) is `type` 1 (the user) or 2 (the
assistant: text, and a tool call in `toolFormerData` whose `params` and `result` are JSON text).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

import structlog

from squirrel_core.events import Event, EventType, Origin, SourcePosition, SourceTool
from squirrel_core.host_tools import HOSTS
from squirrel_core.timestamps import parse_timestamp
from squirrel_ingest.parsers.base import (
    PendingTool,
    RecordContext,
    completion_events,
    relative_path,
    str_or_none,
    text_of,
)
from squirrel_ingest.parsers.classify import PATH_KEYS
from squirrel_ingest.parsers.kept_values import cap_value, keep_input, keep_text
from squirrel_ingest.parsers.speaker import answer_content, said_events, split_user_text

log = structlog.get_logger()

USER_BUBBLE: Final = 1
ASSISTANT_BUBBLE: Final = 2
#: Tool names that run a shell command (`params.command`).
SHELL_TOOLS: Final = HOSTS["cursor"].run
#: Tool statuses after which a call is over and its result final.
DONE_STATUSES: Final = frozenset(
    {"completed", "success", "error", "failed", "cancelled", "canceled", "aborted", "rejected"}
)
_FAILED_STATUSES: Final = frozenset(
    {"error", "failed", "cancelled", "canceled", "aborted", "rejected"}
)
#: Cursor's own names for the file a tool works on, beside the shared ones.
_CURSOR_PATH_KEYS: Final = ("targetFile", "target_file", "relativeWorkspacePath", "filePath")
_OUTPUT_KEYS: Final = ("output", "stdout", "contents", "content", "error", "message")
#: Fields kept of a bubble too large to load whole (JSON paths, read inside SQLite).
SLIM_BUBBLE_PATHS: Final = {
    "type": "$.type",
    "bubbleId": "$.bubbleId",
    "text": "$.text",
    "createdAt": "$.createdAt",
    "tool_name": "$.toolFormerData.name",
    "tool_status": "$.toolFormerData.status",
    "tool_call_id": "$.toolFormerData.toolCallId",
    "tool_params": "$.toolFormerData.params",
    "tool_raw_args": "$.toolFormerData.rawArgs",
    "tool_result": "$.toolFormerData.result",
}


@dataclass(frozen=True, slots=True)
class Composer:
    """What one chat says about itself; `headers` are its bubble ids in conversation order."""

    composer_id: str
    created_at: datetime | None
    updated_at: datetime | None
    generating: bool
    headers: tuple[str, ...]
    inline: dict[str, dict[str, Any]] = field(default_factory=dict)
    generating_ids: frozenset[str] = frozenset()
    branch: str | None = None
    parent_id: str | None = None


def composer_from_json(value: object, composer_id: str) -> Composer | None:
    """The composer in a `composerData` value, or None when it is not one (never raises)."""
    try:
        return _composer(value, composer_id)
    except Exception as error:  # one odd chat must not stop the others
        log.warning("record_parse_failed", source="cursor", error=type(error).__name__)
        return None


def _composer(value: object, composer_id: str) -> Composer | None:
    if not isinstance(value, dict):
        return None
    own_id = str_or_none(value.get("composerId")) or composer_id
    inline: dict[str, dict[str, Any]] = {}
    headers: list[str] = []
    listed = value.get("fullConversationHeadersOnly")
    conversation = value.get("conversation")
    if isinstance(listed, list):
        headers = [h["bubbleId"] for h in listed if _has_id(h)]
    elif isinstance(conversation, list):
        for bubble in conversation:
            if _has_id(bubble):
                headers.append(bubble["bubbleId"])
                inline[bubble["bubbleId"]] = bubble
    mapped = value.get("conversationMap")
    if isinstance(mapped, dict):
        for bubble_id, bubble in mapped.items():
            if isinstance(bubble, dict) and isinstance(bubble_id, str):
                inline.setdefault(bubble_id, bubble)
    generating = value.get("generatingBubbleIds")
    subagent = value.get("subagentInfo")
    parent = subagent.get("parentComposerId") if isinstance(subagent, dict) else None
    return Composer(
        composer_id=own_id,
        created_at=parse_timestamp(value.get("createdAt")),
        updated_at=parse_timestamp(value.get("lastUpdatedAt")),
        generating=value.get("status") == "generating",
        headers=tuple(dict.fromkeys(headers)),
        inline=inline,
        generating_ids=frozenset(g for g in generating if isinstance(g, str))
        if isinstance(generating, list)
        else frozenset(),
        branch=str_or_none(value.get("createdOnBranch")),
        parent_id=str_or_none(parent),
    )


def slim_bubble(fields: dict[str, object]) -> dict[str, Any]:
    """A bubble rebuilt from the fields `SLIM_BUBBLE_PATHS` extracted of an oversized value."""
    bubble: dict[str, Any] = {}
    for name in ("type", "bubbleId", "text", "createdAt"):
        if name in fields:
            bubble[name] = _scalar(fields[name])
    tool = {
        key: fields[f"tool_{name}"]
        for key, name in (
            ("name", "name"),
            ("status", "status"),
            ("toolCallId", "call_id"),
            ("params", "params"),
            ("rawArgs", "raw_args"),
            ("result", "result"),
        )
        if f"tool_{name}" in fields
    }
    if tool:
        bubble["toolFormerData"] = tool
    return bubble


def is_settled(bubble: dict[str, Any], composer: Composer) -> bool:
    """Whether a bubble is final: not being generated, and any tool call in it is over."""
    bubble_id = bubble.get("bubbleId")
    if isinstance(bubble_id, str) and bubble_id in composer.generating_ids:
        return False
    tool = bubble.get("toolFormerData")
    if isinstance(tool, dict) and tool.get("name") is not None:
        return str(tool.get("status") or "").lower() in DONE_STATUSES
    return True


def bubble_events(bubble: object, ctx: RecordContext, skipped: Counter[str]) -> list[Event]:
    """The events of one bubble; what cannot be read is counted in `skipped`, never raised."""
    try:
        return _bubble_events(bubble, ctx, skipped)
    except Exception as error:  # one odd bubble must not stop the chat
        skipped["internal_error"] += 1
        log.warning("record_parse_failed", source="cursor", error=type(error).__name__)
        return []


def _bubble_events(bubble: object, ctx: RecordContext, skipped: Counter[str]) -> list[Event]:
    if not isinstance(bubble, dict):
        skipped["not_an_object"] += 1
        return []
    kind = bubble.get("type")
    if kind == USER_BUBBLE:
        text = text_of(bubble.get("text"))
        if not text.strip():
            skipped["empty_text"] += 1
            return []
        return said_events(ctx, split_user_text(text))
    if kind != ASSISTANT_BUBBLE:
        skipped["unknown_bubble_type"] += 1
        return []
    events: list[Event] = []
    text = text_of(bubble.get("text"))
    if text.strip():
        content = {"text": keep_text(text), "message_id": str_or_none(bubble.get("bubbleId"))}
        events.append(ctx.event(EventType.ASSISTANT_RESPONSE, content, kept=True))
    tool = bubble.get("toolFormerData")
    if isinstance(tool, dict) and (tool.get("name") is not None or tool.get("tool") is not None):
        events.extend(_tool_events(tool, str_or_none(bubble.get("bubbleId")), ctx, skipped))
    if not events:
        skipped["empty_bubble"] += 1
    return events


def bubble_context(
    bubble: dict[str, Any],
    composer: Composer,
    cwd: str,
    position: SourcePosition,
) -> RecordContext | None:
    """The envelope of a bubble's events (None without any time to stamp them with)."""
    timestamp = (
        parse_timestamp(bubble.get("createdAt")) or composer.updated_at or composer.created_at
    )
    if timestamp is None:
        return None
    sidechain = composer.parent_id is not None
    return RecordContext(
        source_tool=SourceTool.CURSOR,
        timestamp=timestamp,
        position=position,
        session_id=composer.parent_id or composer.composer_id,
        cwd=cwd,
        sidechain=sidechain,
        agent_id=composer.composer_id if sidechain else None,
        git_branch=composer.branch,
    )


def _tool_events(
    tool: dict[str, Any], bubble_id: str | None, ctx: RecordContext, skipped: Counter[str]
) -> list[Event]:
    name = str_or_none(tool.get("name")) or f"tool_{tool.get('tool')}"
    args = _json_object(tool.get("params")) or _json_object(tool.get("rawArgs")) or {}
    call_id = str_or_none(tool.get("toolCallId")) or bubble_id
    raw_paths = [
        value
        for key in (*PATH_KEYS, *_CURSOR_PATH_KEYS)
        if isinstance(value := args.get(key), str) and value
    ]
    paths = tuple(dict.fromkeys(relative_path(path, ctx.cwd) for path in raw_paths))
    command = args.get("command") if name in SHELL_TOOLS else None
    pending = PendingTool(
        name=name, command=command if isinstance(command, str) else None, paths=paths
    )
    call = ctx.event(
        EventType.TOOL_CALL,
        {"tool": name, "tool_use_id": call_id, "input": keep_input(args)},
        paths,
        kept=True,
    )
    status = str(tool.get("status") or "").lower()
    if status not in DONE_STATUSES:
        skipped["unfinished_tool"] += 1
        return [call]
    result = _json_value(tool.get("result"))
    output = _output_of(result)
    exit_code = _exit_code(result)
    if pending.command is not None and exit_code is None and status in ("completed", "success"):
        exit_code = 0
    is_error = (
        status in _FAILED_STATUSES
        or exit_code not in (None, 0)
        or (isinstance(result, dict) and bool(result.get("error")))
    )
    events = [
        call,
        *completion_events(ctx, call_id, pending, output, is_error=is_error, exit_code=exit_code),
    ]
    if name == "ask_question" and not is_error:
        pairs = _answers(args, result)
        if pairs:
            events.append(
                ctx.event(
                    EventType.USER_MESSAGE, answer_content(pairs, call_id), origin=Origin.ANSWER
                )
            )
    return events


def _answers(args: dict[str, Any], result: object) -> list[tuple[str, str]]:
    """(question, chosen option label) pairs of an `ask_question` call the user answered."""
    labels: dict[str, tuple[str, str]] = {}
    questions = args.get("questions")
    for question in questions[:20] if isinstance(questions, list) else []:
        if not isinstance(question, dict):
            continue
        prompt = str_or_none(question.get("prompt")) or str_or_none(question.get("question")) or ""
        options = question.get("options")
        for option in options[:50] if isinstance(options, list) else []:
            if isinstance(option, dict) and isinstance(option.get("id"), str):
                label = str_or_none(option.get("label")) or option["id"]
                labels[option["id"]] = (prompt, label)
    answers = result.get("answers") if isinstance(result, dict) else None
    pairs: list[tuple[str, str]] = []
    for answer in answers[:20] if isinstance(answers, list) else []:
        chosen = answer.get("questionId") if isinstance(answer, dict) else answer
        if isinstance(chosen, str) and chosen in labels:
            pairs.append(labels[chosen])
    return pairs


def _has_id(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get("bubbleId"), str)


def _scalar(value: object) -> object:
    """A number that SQLite handed back as text is a number again."""
    if isinstance(value, str) and value.lstrip("-").isdigit() and len(value) < 20:
        return int(value)
    return value


def _json_value(value: object) -> object:
    """A JSON value given as text (as Cursor stores tool params and results), else as it is."""
    if isinstance(value, str):
        text = value.strip()
        if text[:1] in ("{", "["):
            try:
                return json.loads(text)
            except (ValueError, RecursionError):
                return value
    return value


def _json_object(value: object) -> dict[str, Any] | None:
    decoded = _json_value(value)
    return decoded if isinstance(decoded, dict) else None


def _output_of(result: object) -> str:
    if isinstance(result, str):
        return result
    if isinstance(result, dict):
        parts = [text_of(result.get(key)) for key in _OUTPUT_KEYS]
        text = "\n".join(part for part in parts if part)
        if text:
            return text
    if result is None:
        return ""
    try:
        return json.dumps(cap_value(result), ensure_ascii=False)
    except (TypeError, ValueError):
        return ""


def _exit_code(result: object) -> int | None:
    if not isinstance(result, dict):
        return None
    for key in ("exitCode", "exit_code", "exitStatus"):
        value = result.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and -(2**31) <= value < 2**31:
            return value
    return None
