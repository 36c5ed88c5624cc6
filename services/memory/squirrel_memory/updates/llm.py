"""Update decisions by the LLM (forced tool call), falling back to the rules on any failure."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import structlog

from squirrel_memory.extractors.base import ExtractionError
from squirrel_memory.extractors.prompts import UPDATE_SYSTEM_PROMPT, UPDATE_TOOL, update_message
from squirrel_memory.llm.base import ToolCaller
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.updates.rules import decide_update, merge_contents

log = structlog.get_logger()


class LlmUpdateDecider:
    """Asks the model for the decision (forced tool call); falls back to `decide_update`.

    Any failure — budget cap, API error, a reply naming an unknown memory or an action the
    rules forbid (changing a manual memory) — yields the rule-based decision, marked with
    `extra["fallback"]`. With no existing memory nothing is asked: the answer is ADD_NEW.
    """

    def __init__(self, caller: ToolCaller, *, max_tokens: int = 512) -> None:
        self._caller = caller
        self._max_tokens = max_tokens

    async def decide(
        self, candidate: MemoryCandidate, existing: list[MemoryItem]
    ) -> UpdateDecision:
        """The decision for `candidate` against `existing` (same anchor)."""
        live = [m for m in existing if not m.deleted and m.type == candidate.type]
        if not live:
            return UpdateDecision(UpdateAction.ADD_NEW, candidate, reason="no existing memory")
        message, refs = update_message(candidate, live)
        try:
            answer = await self._caller.call_tool(
                system=UPDATE_SYSTEM_PROMPT,
                message=message,
                tool=UPDATE_TOOL,
                max_tokens=self._max_tokens,
            )
        except ExtractionError as error:
            return self._fallback(candidate, live, type(error).__name__)
        decision = self._parse(answer, candidate, live, refs)
        if decision is None:
            return self._fallback(candidate, live, "invalid_decision")
        return decision

    def _parse(
        self,
        answer: dict[str, Any],
        candidate: MemoryCandidate,
        live: list[MemoryItem],
        refs: dict[str, str],
    ) -> UpdateDecision | None:
        try:
            action = UpdateAction(str(answer.get("action")))
        except ValueError:
            return None
        reason = str(answer.get("reason") or "")[:300]
        extra: dict[str, Any] = {"decided_by": "llm"}
        if action in (UpdateAction.ADD_NEW, UpdateAction.NOOP):
            return UpdateDecision(action, candidate, reason=reason, extra=extra)
        raw_target = str(answer.get("target_id") or "")
        target_id = refs.get(raw_target, raw_target)
        target = next((m for m in live if m.id == target_id), None)
        if target is None or target.source == MemorySource.MANUAL:
            return None
        merged: str | None = None
        if action == UpdateAction.UPDATE_EXISTING:
            text = answer.get("merged_content")
            merged = " ".join(text.split()) if isinstance(text, str) and text.strip() else None
            merged = merged or merge_contents(target.content, candidate.content)
        return UpdateDecision(action, candidate, target.id, merged, reason, extra)

    def _fallback(
        self, candidate: MemoryCandidate, live: list[MemoryItem], cause: str
    ) -> UpdateDecision:
        decision = decide_update(candidate, live)
        log.info("update_decision_fell_back", cause=cause, action=decision.action.value)
        return replace(decision, extra={**decision.extra, "fallback": cause})
