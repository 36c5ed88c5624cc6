"""The Anthropic extractor: the spec's extraction prompt, answered through a forced tool call."""

from __future__ import annotations

import json
from typing import Any, cast

import anthropic
import structlog

from squirrel_memory.extractors.base import (
    ExtractionError,
    PermanentExtractionError,
    RetryableExtractionError,
)
from squirrel_memory.extractors.budget import LlmBudget
from squirrel_memory.extractors.prompts import (
    EXTRACTION_SYSTEM_PROMPT,
    EXTRACTION_TOOL,
    EXTRACTION_TOOL_NAME,
    extraction_message,
    render_events,
)
from squirrel_memory.models import Episode, MemoryCandidate, MemoryType, Scope, StoredEvent

log = structlog.get_logger()

#: HTTP statuses worth retrying later; every other 4xx is permanent.
RETRYABLE_STATUSES = frozenset({408, 409, 429})
MAX_KEY_CHARS = 120
MAX_CONTENT_CHARS = 1000
MAX_TAGS = 10


def map_sdk_error(error: anthropic.AnthropicError) -> ExtractionError:
    """An SDK failure as a retryable (429, 5xx, 408/409, connection) or permanent error."""
    if isinstance(error, anthropic.APIConnectionError):
        return RetryableExtractionError(f"Anthropic API unreachable: {type(error).__name__}")
    if isinstance(error, anthropic.APIStatusError):
        status = error.status_code
        if status in RETRYABLE_STATUSES or status >= 500:
            retry_after: float | None = None
            header = error.response.headers.get("retry-after")
            if header:
                try:
                    retry_after = max(0.0, float(header))
                except ValueError:
                    retry_after = None
            return RetryableExtractionError(
                f"Anthropic API returned {status}", retry_after=retry_after
            )
        return PermanentExtractionError(f"Anthropic API returned {status}")
    return PermanentExtractionError(f"Anthropic SDK error: {type(error).__name__}")


async def forced_tool_call(
    client: anthropic.AsyncAnthropic,
    budget: LlmBudget,
    *,
    model: str,
    max_tokens: int,
    system: str,
    message: str,
    tool: dict[str, Any],
) -> dict[str, Any]:
    """Send one request that must answer by calling `tool`; return the tool's input.

    The budget is checked (and the call counted) first, and the tokens the response reports
    are recorded after. SDK errors become `ExtractionError`s.
    """
    estimate = (len(system) + len(message) + len(json.dumps(tool))) // 4 + max_tokens
    budget.reserve(estimate)
    try:
        response = await client.messages.create(
            model=model,
            max_tokens=max_tokens,
            system=system,
            messages=[{"role": "user", "content": message}],
            tools=[cast(Any, tool)],
            tool_choice={"type": "tool", "name": tool["name"]},
        )
    except anthropic.AnthropicError as error:
        mapped = map_sdk_error(error)
        log.warning(
            "llm_call_failed", error=type(error).__name__, retryable=mapped.retryable, model=model
        )
        raise mapped from error
    usage = response.usage
    budget.record_tokens(usage.input_tokens + usage.output_tokens)
    for block in response.content:
        if block.type == "tool_use" and block.name == tool["name"]:
            return dict(block.input)
    raise PermanentExtractionError(f"response did not call {tool['name']}")


class AnthropicExtractor:
    """Extracts memories with Claude: the episode as compact event lines, a forced tool call."""

    name = "anthropic"

    def __init__(
        self,
        client: anthropic.AsyncAnthropic,
        *,
        model: str,
        max_tokens: int = 2048,
        budget: LlmBudget,
        max_context_chars: int = 24_000,
        max_candidates: int = 20,
    ) -> None:
        if max_tokens <= 0 or max_context_chars <= 0 or max_candidates <= 0:
            raise ValueError("max_tokens, max_context_chars and max_candidates must be positive")
        self._client = client
        self._model = model
        self._max_tokens = max_tokens
        self._budget = budget
        self._max_context_chars = max_context_chars
        self._max_candidates = max_candidates

    async def extract(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        """Candidates for `episode`; raises `ExtractionError` (retryable or permanent)."""
        wanted = set(episode.event_ids)
        mine = [e for e in events if not wanted or e.id in wanted]
        events_text, refs = render_events(mine, self._max_context_chars)
        if not refs:
            return []
        result = await forced_tool_call(
            self._client,
            self._budget,
            model=self._model,
            max_tokens=self._max_tokens,
            system=EXTRACTION_SYSTEM_PROMPT,
            message=extraction_message(episode, events_text),
            tool=EXTRACTION_TOOL,
        )
        raw = result.get("memories")
        if not isinstance(raw, list):
            raise PermanentExtractionError(f"{EXTRACTION_TOOL_NAME} input has no memories list")
        candidates: list[MemoryCandidate] = []
        rejected = 0
        for item in raw[: self._max_candidates]:
            candidate = parse_candidate(item, episode, refs)
            if candidate is None:
                rejected += 1
            else:
                candidates.append(candidate)
        log.info(
            "llm_extracted",
            episode_id=episode.id,
            candidate_count=len(candidates),
            rejected_count=rejected + max(0, len(raw) - self._max_candidates),
        )
        return candidates


def _strings(value: object, limit: int, item_chars: int = 200) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    found = [v.strip()[:item_chars] for v in value if isinstance(v, str) and v.strip()]
    return tuple(dict.fromkeys(found))[:limit]


def parse_candidate(item: object, episode: Episode, refs: dict[str, str]) -> MemoryCandidate | None:
    """One model-proposed memory checked against the schema, or None if it is unusable.

    Event refs (`e3`) map back to event ids; ids that are not in the episode are dropped,
    and a memory citing none of the episode's events is credited to all of them.
    """
    if not isinstance(item, dict):
        return None
    data = cast(dict[str, Any], item)
    try:
        kind = MemoryType(str(data.get("type")))
    except ValueError:
        return None
    key, content = data.get("key"), data.get("content")
    if not isinstance(key, str) or not isinstance(content, str):
        return None
    key, content = key.strip()[:MAX_KEY_CHARS], " ".join(content.split())[:MAX_CONTENT_CHARS]
    if not key or not content:
        return None
    importance = data.get("importance")
    if not isinstance(importance, int | float) or isinstance(importance, bool):
        importance = 0.5
    scope = Scope.USER if data.get("scope") == "user" else Scope.PROJECT
    known = set(episode.event_ids) | set(refs.values())
    cited = [refs.get(ref, ref) for ref in _strings(data.get("source_event_ids"), 200)]
    event_ids = tuple(e for e in dict.fromkeys(cited) if e in known) or tuple(refs.values())
    return MemoryCandidate(
        type=kind,
        key=key,
        content=content,
        tags=tuple(t.lower() for t in _strings(data.get("tags"), MAX_TAGS, 40)),
        importance=round(min(1.0, max(0.0, float(importance))), 3),
        file_paths=_strings(data.get("file_paths"), 50, 500),
        source_episode_id=episode.id,
        source_event_ids=event_ids,
        scope=scope,
    )
