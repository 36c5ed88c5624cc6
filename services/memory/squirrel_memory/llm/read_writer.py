"""Claude as the writer of the read side's text: task-context packs, view summaries, search reasons.

Every call is a forced tool call under the shared `LlmBudget` and a short timeout. Any failure —
cap reached, timeout, API error, a reply without the tool call or with malformed input — returns
None, so the caller keeps its deterministic output; only the error type is logged.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import structlog

from squirrel_memory.llm.anthropic_caller import AnthropicCaller
from squirrel_memory.llm.read_prompts import (
    MAX_MARKDOWN_CHARS,
    MAX_REASON_CHARS,
    MAX_SUMMARY_CHARS,
    SEARCH_REASONS_SYSTEM_PROMPT,
    SEARCH_REASONS_TOOL,
    TASK_CONTEXT_SYSTEM_PROMPT,
    TASK_CONTEXT_TOOL,
    VIEW_SYSTEM_PROMPT,
    VIEW_TOOL,
    Note,
    one_line,
    search_reasons_message,
    task_context_message,
    view_message,
)
from squirrel_memory.llm.spending import LlmBudget

log = structlog.get_logger()

DEFAULT_TIMEOUT_SECONDS = 8.0
MIN_MAX_TOKENS = 512
MAX_MAX_TOKENS = 4096
TOKENS_PER_NOTE = 80


class MalformedAnswerError(ValueError):
    """The tool input does not have the shape the tool schema asks for."""


@dataclass(frozen=True, slots=True)
class PackDraft:
    """The model's task-context pack: (memory id, reason) in its order, and its markdown.

    An empty `selected` means the model found nothing relevant. `markdown` may be empty (the
    caller then renders the selection itself); it is not yet checked against the budget.
    """

    selected: tuple[tuple[str, str], ...]
    markdown: str


@dataclass(frozen=True, slots=True)
class ViewDraft:
    """The model's view: a normalised summary per entry id it answered for, and its markdown."""

    summaries: dict[str, str]
    markdown: str


class LlmWriter:
    """Writes read-side text with Claude; every method returns None when the deterministic text
    should be used instead."""

    def __init__(
        self, caller: AnthropicCaller, *, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    ) -> None:
        if not timeout_seconds > 0:
            raise ValueError("timeout_seconds must be positive")
        self._caller = caller
        self._timeout = timeout_seconds

    @property
    def budget(self) -> LlmBudget:
        """The spending caps every call counts against."""
        return self._caller.budget

    async def close(self) -> None:
        """Close the HTTP client."""
        await self._caller.close()

    async def task_context(
        self, task: str, candidates: Sequence[Note], budget_tokens: int
    ) -> PackDraft | None:
        """Spec §5.5 step 2 over `candidates` (ids are memory ids); None to keep the rules."""
        if not candidates:
            return None
        message, refs = task_context_message(task, candidates, budget_tokens)
        answer = await self._call(
            "task_context",
            TASK_CONTEXT_SYSTEM_PROMPT,
            message,
            TASK_CONTEXT_TOOL,
            _max_tokens(budget_tokens, len(candidates)),
        )
        if answer is None:
            return None
        try:
            draft = parse_pack(answer, refs)
        except MalformedAnswerError:
            _fell_back("task_context", "MalformedAnswerError")
            return None
        log.info("llm_text_written", kind="task_context", selected=len(draft.selected))
        return draft

    async def view(
        self, title: str, heading: str, entries: Sequence[Note], budget_tokens: int
    ) -> ViewDraft | None:
        """Normalised summaries and markdown for one view's `entries`; None to keep the rules."""
        if not entries:
            return None
        message, refs = view_message(title, heading, entries, budget_tokens)
        answer = await self._call(
            "view", VIEW_SYSTEM_PROMPT, message, VIEW_TOOL, _max_tokens(budget_tokens, len(entries))
        )
        if answer is None:
            return None
        try:
            draft = parse_view(answer, refs)
        except MalformedAnswerError:
            _fell_back("view", "MalformedAnswerError")
            return None
        log.info("llm_text_written", kind="view", items=len(draft.summaries))
        return draft

    async def search_reasons(self, query: str, results: Sequence[Note]) -> dict[str, str] | None:
        """memory id → reason for one page of results (one call); None to keep the rules."""
        if not results:
            return None
        message, refs = search_reasons_message(query, results)
        answer = await self._call(
            "search_reasons",
            SEARCH_REASONS_SYSTEM_PROMPT,
            message,
            SEARCH_REASONS_TOOL,
            _max_tokens(0, len(results)),
        )
        if answer is None:
            return None
        try:
            reasons = parse_reasons(answer, refs)
        except MalformedAnswerError:
            _fell_back("search_reasons", "MalformedAnswerError")
            return None
        log.info("llm_text_written", kind="search_reasons", results=len(reasons))
        return reasons

    async def _call(
        self, kind: str, system: str, message: str, tool: dict[str, Any], max_tokens: int
    ) -> dict[str, Any] | None:
        try:
            async with asyncio.timeout(self._timeout):
                return await self._caller.call_tool(
                    system=system, message=message, tool=tool, max_tokens=max_tokens
                )
        except Exception as error:  # any failure keeps the deterministic text
            _fell_back(kind, type(error).__name__)
            return None


def _fell_back(kind: str, cause: str) -> None:
    log.warning("llm_text_fell_back", kind=kind, cause=cause)


def _max_tokens(budget_tokens: int, notes: int) -> int:
    wanted = 256 + 2 * max(0, budget_tokens) + TOKENS_PER_NOTE * notes
    return max(MIN_MAX_TOKENS, min(MAX_MAX_TOKENS, wanted))


def _resolve(value: object, refs: dict[str, str]) -> str | None:
    """A ref (m3) or a candidate's own id to that id; anything else to None."""
    if not isinstance(value, str):
        return None
    text = value.strip().strip("[]")
    if text in refs:
        return refs[text]
    return text if text in refs.values() else None


def _reasons(raw: object, refs: dict[str, str], field: str, limit: int) -> list[tuple[str, str]]:
    """(id, text) for each entry naming a known ref, first mention wins; entries naming no
    candidate are ignored. Raises `MalformedAnswerError` when `raw` is not a list."""
    if not isinstance(raw, list):
        raise MalformedAnswerError(f"expected a list of {field}s")
    found: dict[str, str] = {}
    for entry in raw:
        if not isinstance(entry, dict):
            continue
        target = _resolve(entry.get("ref", entry.get("memory_id")), refs)
        if target is None or target in found:
            continue
        text = entry.get(field)
        found[target] = one_line(text, limit) if isinstance(text, str) else ""
    return list(found.items())


def _markdown(value: object) -> str:
    if not isinstance(value, str):
        return ""
    return value.strip()[:MAX_MARKDOWN_CHARS]


def parse_pack(answer: dict[str, Any], refs: dict[str, str]) -> PackDraft:
    """The task-context tool input as a draft; ids come back through `refs` (ref → id).

    Entries naming no candidate are ignored; if entries were given but none names a
    candidate, or `selected_memories` is not a list, raises `MalformedAnswerError`.
    """
    raw = answer.get("selected_memories")
    selected = _reasons(raw, refs, "reason", MAX_REASON_CHARS)
    if not selected and isinstance(raw, list) and raw:
        raise MalformedAnswerError("no selected memory names a candidate")
    return PackDraft(tuple(selected), _markdown(answer.get("markdown")))


def parse_view(answer: dict[str, Any], refs: dict[str, str]) -> ViewDraft:
    """The view tool input as a draft; raises `MalformedAnswerError` when it has neither
    a usable summary nor markdown."""
    summaries = {
        k: v for k, v in _reasons(answer.get("items"), refs, "summary", MAX_SUMMARY_CHARS) if v
    }
    markdown = _markdown(answer.get("markdown"))
    if not summaries and not markdown:
        raise MalformedAnswerError("neither summaries nor markdown")
    return ViewDraft(summaries, markdown)


def parse_reasons(answer: dict[str, Any], refs: dict[str, str]) -> dict[str, str]:
    """The search-reasons tool input as memory id → reason (non-empty reasons only); raises
    `MalformedAnswerError` when no entry names a result with a reason."""
    reasons = {
        k: v for k, v in _reasons(answer.get("results"), refs, "reason", MAX_REASON_CHARS) if v
    }
    if not reasons:
        raise MalformedAnswerError("no reason names a result")
    return reasons
