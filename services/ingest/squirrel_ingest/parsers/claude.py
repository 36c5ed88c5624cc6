"""Claude Code transcript parser: one `~/.claude/projects/**.jsonl` file, line by line."""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections import Counter
from typing import Any

import structlog

from squirrel_core.events import Event, EventType, Origin, SourcePosition, SourceTool
from squirrel_core.timestamps import parse_timestamp
from squirrel_ingest.parsers.background_runs import BackgroundRuns, sent_away
from squirrel_ingest.parsers.base import (
    PENDING_LIMIT,
    PendingTool,
    RecordContext,
    remember,
    str_or_none,
    text_of,
)
from squirrel_ingest.parsers.claude_hooks import hook_events, stop_hook_events
from squirrel_ingest.parsers.claude_tools import result_events, tool_call
from squirrel_ingest.parsers.kept_values import keep_text
from squirrel_ingest.parsers.loaded_files import claude_loaded
from squirrel_ingest.parsers.records import decode_record
from squirrel_ingest.parsers.speaker import (
    Utterance,
    answer_content,
    answers,
    chosen_descriptions,
    queued,
    said_events,
    split_user_text,
)

log = structlog.get_logger()

#: Record types that carry no conversation (titles, undo snapshots, UI state, hook noise).
IGNORED_TYPES = frozenset(
    {
        "summary",
        "file-history-snapshot",
        "progress",
        "permission-mode",
        "mode",  # {"type":"mode","mode":"normal",sessionId}: the input mode, from `--continue`
        # 2.1.332 bookkeeping: the API requests it sent (a copy of what the user and
        # assistant records hold), which tools a session used, what it cost.
        "api-request",
        "api-request-blob",
        "api-request-shape",
        "atis-latch",
        "cost-state",
        "tools-used",
        "last-prompt",
        "custom-title",
        "ai-title",
        "agent-name",
        "agent-color",
        "agent-setting",
        "tag",
        "pr-link",
    }
)
#: Records that are not messages but may carry what the user or a hook said.
_SIDE_TYPES = frozenset({"queue-operation", "attachment", "system"})
#: Queued prompts remembered until delivered (the queue is short: a few typed lines).
QUEUE_LIMIT = 16
_QUESTION_TOOLS = frozenset({"AskUserQuestion"})
_ANSWERED = "User has answered your question"
_AGENT_FILE = re.compile(r"^agent-(.+)\.jsonl$")


def opens_transcript(record: dict[str, Any]) -> bool:
    """Whether `record` can open a Claude Code transcript: a bare record of a type this parser
    reads or knowingly skips (never a Codex record wrapping a `payload`)."""
    kind = record.get("type")
    if not isinstance(kind, str) or "payload" in record:
        return False
    return kind in ("user", "assistant") or kind in IGNORED_TYPES or kind in _SIDE_TYPES


def agent_id_from_path(path: str) -> str | None:
    """The agent id in a subagent file name (`agent-<id>.jsonl`), if it is one."""
    match = _AGENT_FILE.match(posixpath.basename(path))
    return match.group(1) if match else None


class ClaudeFileParser:
    """Turns the lines of one Claude Code transcript into events.

    State kept between lines is small: tool calls awaiting results (id → name, command,
    paths; at most `PENDING_LIMIT`), background commands awaiting their exit status (launch call
    id → command and task id; as many) and 8-byte digests of the record uuids already seen, so a
    history repeated inside the same file (resume, compaction copies) is emitted once.
    """

    def __init__(self, path: str, *, sidechain: bool | None = None) -> None:
        self.path = path
        self.skipped: Counter[str] = Counter()
        self._file_agent_id = agent_id_from_path(path)
        self._sidechain = sidechain if sidechain is not None else self._file_agent_id is not None
        self._compaction_agent = (self._file_agent_id or "").startswith("acompact")
        self._pending: dict[str, PendingTool] = {}
        self._runs = BackgroundRuns()
        self._seen: set[bytes] = set()
        self._queued: list[dict[str, Any]] = []
        self._cwd: str | None = None

    def feed(self, line: bytes, position: SourcePosition) -> list[Event]:
        """Events for one complete JSONL line; bad input is counted in `skipped`, never raised."""
        try:
            return self._feed(line, position)
        except Exception as error:  # a parser bug must not stop ingest of the rest of the file
            self.skipped["internal_error"] += 1
            log.warning("record_parse_failed", source="claude_code", error=type(error).__name__)
            return []

    def export_state(self) -> dict[str, Any]:
        """Tool calls still awaiting results and prompts still queued, for a cursor's `extra`."""
        state: dict[str, Any] = {
            "pending": {key: tool.to_json() for key, tool in self._pending.items()}
        }
        if self._runs.running:
            state["running"] = {key: tool.to_json() for key, tool in self._runs.running.items()}
        if self._queued:
            state["queued"] = [dict(item) for item in self._queued]
        if self._cwd:
            state["cwd"] = self._cwd
        return state

    def restore_state(self, state: dict[str, Any]) -> None:
        """Take back what `export_state` returned (unknown shapes are ignored)."""
        self._cwd = str_or_none(state.get("cwd")) or self._cwd
        queued = state.get("queued")
        if isinstance(queued, list):
            self._queued = [
                {"text": item["text"], "delivered": item.get("delivered") is True}
                for item in queued[-QUEUE_LIMIT:]
                if isinstance(item, dict) and isinstance(item.get("text"), str)
            ]
        for name, target in (("pending", self._pending), ("running", self._runs.running)):
            kept = state.get(name)
            if not isinstance(kept, dict):
                continue
            for key, value in list(kept.items())[-PENDING_LIMIT:]:
                tool = PendingTool.from_json(value)
                if isinstance(key, str) and tool is not None:
                    remember(target, key, tool)

    def _feed(self, line: bytes, position: SourcePosition) -> list[Event]:
        record = decode_record(line, self.skipped)
        if record is None:
            return []
        kind = record.get("type")
        if not isinstance(kind, str):
            self.skipped["missing_type"] += 1
            return []
        if kind in IGNORED_TYPES:
            self.skipped[f"ignored_{kind}"] += 1
            return []
        if kind not in ("user", "assistant") and kind not in _SIDE_TYPES:
            self.skipped["unknown_type"] += 1
            return []
        uuid = record.get("uuid")
        digest = (
            hashlib.blake2b(uuid.encode(), digest_size=8).digest()
            if isinstance(uuid, str)
            else None
        )
        if digest is not None and digest in self._seen:
            self.skipped["duplicate_uuid"] += 1
            return []
        timestamp = parse_timestamp(record.get("timestamp"))
        if timestamp is None:
            self.skipped["missing_timestamp"] += 1
            return []
        message = record.get("message")
        if not isinstance(message, dict) and kind not in _SIDE_TYPES:
            self.skipped["malformed_message"] += 1
            return []
        if digest is not None:
            self._seen.add(digest)
        version = str_or_none(record.get("version"))
        ctx = RecordContext(
            source_tool=SourceTool.CLAUDE_CODE,
            timestamp=timestamp,
            position=position,
            session_id=str_or_none(record.get("sessionId")),
            cwd=self._cwd_of(record),
            source_version=version,
            sidechain=self._sidechain or record.get("isSidechain") is True,
            agent_id=str_or_none(record.get("agentId")) or self._file_agent_id,
            git_branch=str_or_none(record.get("gitBranch")),
        )
        if kind == "queue-operation":
            return self._queue_operation(record, ctx)
        if kind == "attachment":
            return self._attachment(record, ctx)
        if kind == "system":
            return self._system(record, ctx)
        assert isinstance(message, dict)
        if kind == "user":
            return self._user(record, message, ctx)
        return self._assistant(message, ctx)

    def _cwd_of(self, record: dict[str, Any]) -> str | None:
        """The record's working directory; queue records have none and take the last one seen."""
        cwd = str_or_none(record.get("cwd"))
        if cwd is not None:
            self._cwd = cwd
        return cwd or self._cwd

    # --- who said it -------------------------------------------------------------------------

    def _queue_operation(self, record: dict[str, Any], ctx: RecordContext) -> list[Event]:
        """Prompts typed while the assistant works: `enqueue` holds one, `dequeue` hands it over
        as the next user record, `remove` folds it into the running turn (its only trace),
        `popAll` takes them back into the input box for editing."""
        operation = record.get("operation")
        if operation == "enqueue":
            text = text_of(record.get("content"))
            if text.strip():
                self._queued.append({"text": text, "delivered": False})
                del self._queued[:-QUEUE_LIMIT]
        elif operation == "dequeue":
            if self._queued:
                self._queued.pop(0)
        elif operation == "popAll":
            self._queued.clear()
        elif operation == "remove" and self._queued:
            item = self._queued.pop(0)
            if not item["delivered"]:
                ended = self._runs.notified(item["text"], ctx)
                return ended + said_events(ctx, queued(split_user_text(item["text"])))
        self.skipped[f"queue_{operation}" if isinstance(operation, str) else "queue_unknown"] += 1
        return []

    def _attachment(self, record: dict[str, Any], ctx: RecordContext) -> list[Event]:
        attachment = record.get("attachment")
        kind = attachment.get("type") if isinstance(attachment, dict) else None
        if not isinstance(attachment, dict) or not isinstance(kind, str):
            self.skipped["malformed_attachment"] += 1
            return []
        if kind == "queued_command":
            return self._queued_command(attachment, ctx)
        if kind.startswith("hook_"):
            return self._hook(attachment, kind, ctx)
        if loaded := claude_loaded(attachment):
            return [file.event(ctx) for file in loaded]
        self.skipped["ignored_attachment"] += 1
        return []

    def _queued_command(self, attachment: dict[str, Any], ctx: RecordContext) -> list[Event]:
        """A prompt typed while the assistant worked, folded into its turn (newer hosts)."""
        text = text_of(attachment.get("prompt"))
        if not text.strip():
            self.skipped["empty_text"] += 1
            return []
        for item in self._queued:
            if not item["delivered"] and item["text"].strip() == text.strip():
                item["delivered"] = True
                break
        speaker = attachment.get("origin")
        human = not isinstance(speaker, dict) or speaker.get("kind") in (None, "human")
        mode = attachment.get("commandMode")
        ended = self._runs.notified(text, ctx)
        if attachment.get("isMeta") is True or not human or mode not in (None, "prompt"):
            return ended + said_events(ctx, [Utterance(Origin.HARNESS, text)])
        return ended + said_events(ctx, queued(split_user_text(text)))

    def _hook(self, attachment: dict[str, Any], kind: str, ctx: RecordContext) -> list[Event]:
        events = hook_events(attachment, kind, ctx)
        if events is None:
            self.skipped[kind] += 1
        return events or []

    def _system(self, record: dict[str, Any], ctx: RecordContext) -> list[Event]:
        events = stop_hook_events(record, ctx)
        if events is None:
            self.skipped["ignored_system"] += 1
        return events or []

    def _user(
        self, record: dict[str, Any], message: dict[str, Any], ctx: RecordContext
    ) -> list[Event]:
        content = message.get("content")
        if record.get("isCompactSummary") is True:
            text = text_of(content)
            if not text:
                self.skipped["empty_text"] += 1
                return []
            return [ctx.event(EventType.COMPACTION_SUMMARY, {"text": keep_text(text)}, kept=True)]
        if isinstance(content, str):
            return self._prompt(record, content, ctx)
        if not isinstance(content, list):
            self.skipped["malformed_content"] += 1
            return []
        events: list[Event] = []
        texts: list[str] = []
        results = [
            block
            for block in content
            if isinstance(block, dict) and block.get("type") == "tool_result"
        ]
        for block in content:
            if not isinstance(block, dict):
                self.skipped["malformed_block"] += 1
            elif block.get("type") == "text":
                texts.append(text_of(block))
            elif block.get("type") == "tool_result":
                structured = record.get("toolUseResult") if len(results) == 1 else None
                events.extend(self._tool_result(block, structured, ctx))
        if texts:
            events.extend(self._prompt(record, "\n".join(t for t in texts if t), ctx))
        return events

    def _prompt(self, record: dict[str, Any], text: str, ctx: RecordContext) -> list[Event]:
        """What a user-role text said, after the background commands it says have ended."""
        return self._runs.notified(text, ctx) + self._said(record, text, ctx)

    def _said(self, record: dict[str, Any], text: str, ctx: RecordContext) -> list[Event]:
        stripped = text.strip()
        if not stripped:
            self.skipped["empty_text"] += 1
            return []
        if record.get("isMeta") is True or record.get("planContent"):
            # `planContent`: the plan the assistant wrote in plan mode, handed to the new
            # context by the host ("Implement the following plan: …"), not typed by the user.
            return said_events(ctx, [Utterance(Origin.HARNESS, stripped)])
        if ctx.sidechain and stripped == "Warmup":
            self.skipped["warmup_prompt"] += 1
            return []
        events = said_events(ctx, split_user_text(text))
        if not events:
            self.skipped["empty_text"] += 1
        return events

    def _tool_result(
        self, block: dict[str, Any], structured: object, ctx: RecordContext
    ) -> list[Event]:
        tool_use_id = str_or_none(block.get("tool_use_id"))
        pending = self._pending.pop(tool_use_id, None) if tool_use_id else None
        if pending is None:
            self.skipped["unpaired_tool_result"] += 1
        output = text_of(block.get("content"))
        is_error = block.get("is_error") is True
        asked = pending.name in _QUESTION_TOOLS if pending else output.startswith(_ANSWERED)
        pairs = answers(structured, output) if asked and not is_error else []
        if pairs:
            content = answer_content(pairs, tool_use_id, chosen_descriptions(structured, pairs))
            return [ctx.event(EventType.USER_MESSAGE, content, origin=Origin.ANSWER)]
        ended: list[Event] = []
        if pending is not None and pending.command is not None and sent_away(pending, structured):
            pending, ended = self._runs.launched(
                tool_use_id, pending, output, structured, ctx, is_error=is_error
            )
        elif pending is not None and pending.task_id is not None and not is_error:
            ended = self._runs.read_result(pending, output, structured, ctx)
        return (
            result_events(ctx, tool_use_id, pending, output, structured, is_error=is_error) + ended
        )

    def _assistant(self, message: dict[str, Any], ctx: RecordContext) -> list[Event]:
        if message.get("model") == "<synthetic>":
            self.skipped["synthetic_message"] += 1
            return []
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            self.skipped["malformed_content"] += 1
            return []
        message_id = str_or_none(message.get("id"))
        model = str_or_none(message.get("model"))
        events: list[Event] = []
        for block in blocks:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "text":
                text = text_of(block)
                if text.strip():
                    said = {"text": keep_text(text), "message_id": message_id, "model": model}
                    origin = Origin.COMPACTION if self._compaction_agent else None
                    events.append(
                        ctx.event(EventType.ASSISTANT_RESPONSE, said, origin=origin, kept=True)
                    )
                else:
                    self.skipped["empty_text"] += 1
            elif kind == "tool_use":
                events.extend(self._tool_use(block, ctx))
            elif kind in ("thinking", "redacted_thinking"):
                self.skipped["thinking_block"] += 1
            else:
                self.skipped["unknown_block"] += 1
        return events

    def _tool_use(self, block: dict[str, Any], ctx: RecordContext) -> list[Event]:
        call = tool_call(block, ctx)
        if call is None:
            self.skipped["malformed_tool_use"] += 1
            return []
        tool_use_id, pending, event = call
        remember(self._pending, tool_use_id, pending)
        return [event]
