"""Codex CLI rollout parser: `~/.codex/sessions/**/rollout-*.jsonl`, bare and wrapped eras."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

import structlog

from squirrel_core.events import Event, EventType, Origin, SourcePosition, SourceTool
from squirrel_core.timestamps import parse_timestamp
from squirrel_ingest.parsers.base import RecordContext, str_or_none, text_of
from squirrel_ingest.parsers.codex_calls import CodexCalls
from squirrel_ingest.parsers.codex_exec import CodeCells
from squirrel_ingest.parsers.codex_forks import ForkCopy
from squirrel_ingest.parsers.codex_git import session_repository
from squirrel_ingest.parsers.codex_mcp_items import is_mcp_item, mcp_item_events
from squirrel_ingest.parsers.codex_user_shell import user_shell_end
from squirrel_ingest.parsers.custom_prompts import CustomPrompts, codex_prompt_folder
from squirrel_ingest.parsers.kept_values import keep_input, keep_text
from squirrel_ingest.parsers.loaded_files import Held, codex_loaded, held_from, held_json
from squirrel_ingest.parsers.records import decode_record
from squirrel_ingest.parsers.speaker import (
    Utterance,
    said_events,
    split_user_text,
    user_shell_command,
)

log = structlog.get_logger()

_WRAPPED_TYPES = frozenset(
    {"session_meta", "response_item", "event_msg", "turn_context", "compacted"}
)
_IGNORED_WRAPPED = frozenset(
    {
        "world_state",
        "inter_agent_communication",
        "inter_agent_communication_metadata",
        "token_usage_record",  # 0.171: a turn's token counts
    }
)
_INJECTED_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "<permissions instructions>",
    "<INSTRUCTIONS>",
    "# AGENTS.md",
    "<user_shell_command>",
    "<turn_aborted>",
)


def opens_transcript(record: dict[str, Any]) -> bool:
    """Whether `record` can open a Codex rollout: a wrapped record (`session_meta` …) with its
    `payload`, or the bare meta line of the pre-Sept-2025 format (an `id`, no `type`)."""
    kind = record.get("type")
    if isinstance(kind, str):
        return kind in _WRAPPED_TYPES and isinstance(record.get("payload"), dict)
    return "type" not in record and isinstance(record.get("id"), str) and "timestamp" in record


class CodexFileParser:
    """Turns the lines of one Codex rollout into events.

    Calls are paired with their outputs by `call_id` (`codex_calls.CodexCalls`); a shell command
    whose output says it is still running waits for its `exec_command_end` to learn the exit
    code; code-mode cells are read by `codex_exec.CodeCells`. User turns come from
    `event_msg/user_message` (what the person typed), assistant turns from `response_item`
    messages; `agent_message` events repeat those and are skipped.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.skipped: Counter[str] = Counter()
        self._custom_prompts = CustomPrompts(codex_prompt_folder(path))
        self._fork = ForkCopy(path)
        self._cells = CodeCells()
        self._calls = CodexCalls(self._cells, self.skipped)
        self._session_id: str | None = None
        self._cwd: str | None = None
        self._version: str | None = None
        self._sidechain = False
        self._agent_id: str | None = None
        self._bare = False
        self._repository: str | None = None
        """The repository URL of the last `session_repository` event, so a session's meta
        written again (a resumed session) does not repeat it."""
        self._last_timestamp: datetime | None = None
        self._line: tuple[bytes, SourcePosition] | None = None
        self._held: Held | None = None
        """A message that carries the project's AGENTS.md (its text, line and place), held until
        the next record: the host's own is followed by anything but the same text as typed, a
        block the user pasted by its `user_message` (then it is what the user typed)."""
        self._prompt: tuple[str, str] | None = None
        """The last typed prompt (where it was read, its text) not yet seen from the other
        place a version writes it: `user_message` events, or (0.171) `item_completed`."""

    def feed(self, line: bytes, position: SourcePosition) -> list[Event]:
        """Events for one complete JSONL line; bad input is counted in `skipped`, never raised."""
        try:
            held = self._held
            events = self._feed(line, position)
            if held is not None and self._held is held:  # not pasted: the host loaded it
                self._held = None
                events = self._replay(held) + events
            return events
        except Exception as error:  # a parser bug must not stop ingest of the rest of the file
            self.skipped["internal_error"] += 1
            log.warning("record_parse_failed", source="codex", error=type(error).__name__)
            return []

    def export_state(self) -> dict[str, Any]:
        """Session facts and calls awaiting results, for a cursor's `extra`."""
        return {
            "session_id": self._session_id,
            "cwd": self._cwd,
            "version": self._version,
            "sidechain": self._sidechain,
            "agent_id": self._agent_id,
            "bare": self._bare,
            "repository": self._repository,
            "prompt": list(self._prompt) if self._prompt else None,
            "held": held_json(self._held),
            **self._calls.state(),
            "fork": self._fork.state(),
            "cells": self._cells.state(),
        }

    def restore_state(self, state: dict[str, Any]) -> None:
        """Take back what `export_state` returned (unknown shapes are ignored)."""
        self._session_id = str_or_none(state.get("session_id"))
        self._cwd = str_or_none(state.get("cwd"))
        self._version = str_or_none(state.get("version"))
        self._sidechain = state.get("sidechain") is True
        self._agent_id = str_or_none(state.get("agent_id"))
        self._bare = state.get("bare") is True
        self._repository = str_or_none(state.get("repository"))
        self._held = held_from(state.get("held"))
        self._fork.restore(state.get("fork"))
        self._cells.restore(state.get("cells"))
        prompt = state.get("prompt")
        if isinstance(prompt, list) and len(prompt) == 2:
            where, text = prompt
            if isinstance(where, str) and isinstance(text, str):
                self._prompt = (where, text)
        self._calls.restore(state)

    def _replay(self, held: Held) -> list[Event]:
        """The events of a held message, now known to be the host's."""
        _, line, position = held
        return self._feed(line, position, holding=False)

    def _feed(self, line: bytes, position: SourcePosition, *, holding: bool = True) -> list[Event]:
        self._line = (line, position) if holding else None
        record = decode_record(line, self.skipped)
        if record is None:
            return []
        if self._fork.copied(record):  # the source's line, copied into a fork: the source's
            self.skipped["forked_copy"] += 1
            return []
        kind = record.get("type")
        payload = record.get("payload")
        if isinstance(kind, str) and kind in _WRAPPED_TYPES and isinstance(payload, dict):
            timestamp = parse_timestamp(record.get("timestamp"))
            if timestamp is None:
                self.skipped["missing_timestamp"] += 1
                return []
            self._last_timestamp = timestamp
            return self._wrapped(kind, payload, timestamp, position)
        if isinstance(kind, str) and kind in _IGNORED_WRAPPED:
            self.skipped[f"ignored_{kind}"] += 1
            return []
        if isinstance(payload, dict) and "timestamp" in record:
            # A wrapped record of a type this parser does not know; never a bare-era item.
            self.skipped["unknown_type"] += 1
            return []
        return self._bare_record(record, position)

    def _bare_record(self, record: dict[str, Any], position: SourcePosition) -> list[Event]:
        """The pre-Sept-2025 format: a bare meta line, then bare response items."""
        if "record_type" in record:
            self.skipped["ignored_state"] += 1
            return []
        timestamp = parse_timestamp(record.get("timestamp")) or self._last_timestamp
        if "type" not in record and isinstance(record.get("id"), str):
            self._bare = True
            self._session_id = self._session_id or record["id"]
            if timestamp is not None:
                self._last_timestamp = timestamp
            self.skipped["session_meta"] += 1
            return []
        if not isinstance(record.get("type"), str):
            self.skipped["unknown_type"] += 1
            return []
        if timestamp is None:
            self.skipped["missing_timestamp"] += 1
            return []
        self._bare = True
        return self._response_item(record, self._context(timestamp, position))

    def _context(self, timestamp: datetime, position: SourcePosition) -> RecordContext:
        return RecordContext(
            source_tool=SourceTool.CODEX,
            timestamp=timestamp,
            position=position,
            session_id=self._session_id,
            cwd=self._cwd,
            source_version=self._version,
            sidechain=self._sidechain,
            agent_id=self._agent_id,
        )

    def _wrapped(
        self, kind: str, payload: dict[str, Any], timestamp: datetime, position: SourcePosition
    ) -> list[Event]:
        if kind == "session_meta":
            return self._session_meta(payload, timestamp, position)
        if kind == "turn_context":
            self._cwd = str_or_none(payload.get("cwd")) or self._cwd
            self.skipped["turn_context"] += 1
            return []
        ctx = self._context(timestamp, position)
        if kind == "compacted":
            text = text_of(payload.get("message"))
            if not text.strip():
                self.skipped["empty_compaction"] += 1
                return []
            return [ctx.event(EventType.COMPACTION_SUMMARY, {"text": keep_text(text)}, kept=True)]
        if kind == "event_msg":
            return self._event_msg(payload, ctx)
        return self._response_item(payload, ctx)

    def _session_meta(
        self, payload: dict[str, Any], timestamp: datetime, position: SourcePosition
    ) -> list[Event]:
        """Take the session's facts; the repository it ran in, when Codex recorded one that
        this file has not said yet, becomes a `session_repository` event (the main session's
        only: a subagent works in its parent's repository)."""
        session_id = str_or_none(payload.get("id"))
        if self._session_id is None:
            self._fork.opened(payload)
        if self._session_id is not None and session_id not in (None, self._session_id):
            self.skipped["replayed_session_meta"] += 1
            return []
        self.skipped["session_meta"] += 1
        self._session_id = session_id or self._session_id
        self._cwd = str_or_none(payload.get("cwd")) or self._cwd
        self._version = str_or_none(payload.get("cli_version")) or self._version
        source = payload.get("source")
        if isinstance(source, dict) and "subagent" in source:
            # A subagent's work is its parent session's work; its prompts are the parent's.
            self._sidechain = True
            self._agent_id = str_or_none(payload.get("agent_nickname")) or session_id
            parent = str_or_none(payload.get("parent_thread_id"))
            self._session_id = parent or _parent_thread(source["subagent"]) or self._session_id
        repository = session_repository(payload)
        if self._sidechain or repository is None:
            return []
        if repository["repository_url"] == self._repository:
            return []
        self._repository = repository["repository_url"]
        ctx = self._context(timestamp, position)
        return [ctx.event(EventType.SESSION_REPOSITORY, repository, origin=Origin.HARNESS)]

    def _event_msg(self, payload: dict[str, Any], ctx: RecordContext) -> list[Event]:
        kind = payload.get("type")
        if kind == "user_message":
            if self._bare:
                self.skipped["duplicate_user_message"] += 1
                return []
            if self._held and self._held[0] == text_of(payload.get("message")).strip():
                self._held = None  # the user pasted it: what they typed, not a loaded file
                self.skipped["pasted_instructions"] += 1
            return self._typed(text_of(payload.get("message")), "user_message", ctx)
        item = payload.get("item")
        prompt = isinstance(item, dict) and item.get("type") == "UserMessage"
        if kind == "item_completed" and prompt and isinstance(item, dict):
            return self._typed(text_of(item.get("content")), "item_completed", ctx)
        file_change = isinstance(item, dict) and item.get("type") == "FileChange"
        if kind == "patch_apply_end" or (kind == "item_completed" and file_change):
            return self._patch_end(payload if kind == "patch_apply_end" else item, ctx)
        cell = self._calls.open_cell()
        if kind == "item_completed" and isinstance(item, dict) and is_mcp_item(item):
            return mcp_item_events(item, ctx, cell)
        if kind == "item_completed" and (ended := self._calls.recorded(item, ctx)) is not None:
            return ended  # a command still running after its cell's answer, now ended
        if kind == "item_completed" and (ran := self._cells.recorded(item, ctx, cell)) is not None:
            if not ran:
                self.skipped["duplicate_command_item"] += 1
            return ran
        if kind == "exec_command_end":
            return self._exec_end(payload, ctx)
        if kind == "agent_message":
            self.skipped["duplicate_agent_message"] += 1
        else:
            self.skipped["ignored_event"] += 1
        return []

    def _patch_end(self, record: object, ctx: RecordContext) -> list[Event]:
        """The host's word on a patch (`patch_apply_end`, or from 0.171 an `item_completed`
        `FileChange`): what its cell's patch takes, or the patch of the cell awaiting its answer
        that the cell's source does not show; else a repeat of an `apply_patch` call's own."""
        if not isinstance(record, dict):
            self.skipped["ignored_event"] += 1
            return []
        if self._cells.patch_ended(record, ctx.cwd):
            self.skipped["cell_patch_end"] += 1  # its cell's patch takes what it says
            return []
        adopted = self._cells.patch_only_recorded(record, ctx, self._calls.open_cell())
        if adopted is not None:
            return adopted
        self.skipped["duplicate_patch_end"] += 1
        return []

    def _typed(self, text: str, where: str, ctx: RecordContext) -> list[Event]:
        """What the user typed, read from `where`; once, when a version writes it in both
        places."""
        if not text.strip():
            self.skipped["empty_text"] += 1
            return []
        if self._prompt is not None and self._prompt[0] != where and self._prompt[1] == text:
            self._prompt = None
            self.skipped["duplicate_user_message"] += 1
            return []
        self._prompt = (where, text)
        expanded = self._custom_prompts.expanded(text)
        return said_events(ctx, expanded if expanded is not None else split_user_text(text))

    def _exec_end(self, payload: dict[str, Any], ctx: RecordContext) -> list[Event]:
        if user_shell_end(payload):  # the user's `!cmd`: its own message says it
            self.skipped["user_shell_end"] += 1
            return []
        return self._calls.exec_end(payload, ctx)

    def _response_item(self, item: dict[str, Any], ctx: RecordContext) -> list[Event]:
        kind = item.get("type")
        if kind == "message":
            return self._message(item, ctx)
        if kind in ("function_call", "custom_tool_call", "local_shell_call"):
            return self._calls.call(item, ctx)
        if kind in ("function_call_output", "custom_tool_call_output", "local_shell_call_output"):
            return self._calls.output(item, ctx)
        if kind == "web_search_call":
            content = {
                "tool": "web_search",
                "tool_use_id": None,
                "input": keep_input(item.get("action")),
            }
            return [ctx.event(EventType.TOOL_CALL, content, kept=True)]
        if kind == "reasoning":
            self.skipped["reasoning"] += 1
        else:
            self.skipped["ignored_item"] += 1
        return []

    def _message(self, item: dict[str, Any], ctx: RecordContext) -> list[Event]:
        role = item.get("role")
        text = text_of(item.get("content"))
        if role == "assistant":
            if not text.strip():
                self.skipped["empty_text"] += 1
                return []
            return [ctx.event(EventType.ASSISTANT_RESPONSE, {"text": keep_text(text)}, kept=True)]
        if role == "user" and (typed_command := user_shell_command(text)) is not None:
            return said_events(ctx, typed_command)  # `!cmd` in the TUI: the user ran it
        if role == "user" and text.strip().startswith(_INJECTED_PREFIXES):
            loaded, rest = codex_loaded(item.get("content"), self._cwd)
            if loaded and not self._bare and self._line is not None:
                earlier, self._held = self._held, (text.strip(), *self._line)
                return self._replay(earlier) if earlier else []
            said = [Utterance(Origin.HARNESS, rest)] if rest else []
            return [file.event(ctx) for file in loaded] + said_events(ctx, said)
        if role == "user" and not self._bare:
            # The project's AGENTS.md may share a message with other injected parts (0.154).
            loaded, _ = codex_loaded(item.get("content"), self._cwd)
            if loaded:
                return [file.event(ctx) for file in loaded]
        if role == "user" and self._bare:
            if not text.strip():
                self.skipped["empty_text"] += 1
                return []
            return said_events(ctx, split_user_text(text))
        self.skipped["injected_context" if role == "developer" else "duplicate_user_message"] += 1
        return []


def _parent_thread(subagent: object) -> str | None:
    """The parent thread id of a subagent rollout's `source.subagent`, when it names one."""
    if not isinstance(subagent, dict):
        return None
    for spawn in subagent.values():
        if isinstance(spawn, dict) and (parent := str_or_none(spawn.get("parent_thread_id"))):
            return parent
    return None
