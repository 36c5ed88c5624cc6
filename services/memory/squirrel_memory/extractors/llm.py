"""Model-written extraction: the spec's prompt answered through one schema-checked tool call,
whichever backend (`squirrel_memory.llm`) runs the model."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import structlog

from squirrel_memory.extractors.base import PermanentExtractionError
from squirrel_memory.extractors.prompts import (
    EXTRACTION_SYSTEM_PROMPT,
    EXTRACTION_TOOL,
    EXTRACTION_TOOL_NAME,
    extraction_message,
    render_events,
)
from squirrel_memory.llm.base import ToolCaller, written_by
from squirrel_memory.models import Episode, MemoryCandidate, MemoryType, Scope, StoredEvent

log = structlog.get_logger()

MAX_KEY_CHARS = 120
MAX_CONTENT_CHARS = 1000
MAX_TAGS = 10


class LlmExtractor:
    """Extracts memories with any model backend: the episode as compact event lines, one
    schema-checked tool call (spec §5.1 step 2)."""

    def __init__(
        self,
        caller: ToolCaller,
        *,
        max_tokens: int = 2048,
        max_context_chars: int = 24_000,
        max_candidates: int = 20,
    ) -> None:
        if max_tokens <= 0 or max_context_chars <= 0 or max_candidates <= 0:
            raise ValueError("max_tokens, max_context_chars and max_candidates must be positive")
        self._caller = caller
        self._max_tokens = max_tokens
        self._max_context_chars = max_context_chars
        self._max_candidates = max_candidates

    @property
    def name(self) -> str:
        """The backend (`anthropic`, `claude_cli`, …), recorded with what it writes."""
        return self._caller.backend

    @property
    def caller(self) -> ToolCaller:
        return self._caller

    async def extract(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        """Candidates for `episode`; raises `ExtractionError` (retryable or permanent)."""
        wanted = set(episode.event_ids)
        mine = [e for e in events if not wanted or e.id in wanted]
        events_text, refs = render_events(mine, self._max_context_chars)
        if not refs:
            return []
        result = await self._caller.call_tool(
            system=EXTRACTION_SYSTEM_PROMPT,
            message=extraction_message(episode, events_text),
            tool=EXTRACTION_TOOL,
            max_tokens=self._max_tokens,
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
                candidates.append(replace(candidate, written_by=written_by(self._caller)))
        log.info(
            "llm_extracted",
            backend=self._caller.backend,
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
