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
from squirrel_memory.extractors.llm import LlmExtractor, parse_candidate
from squirrel_memory.llm.spending import LlmBudget

__all__ = ["AnthropicExtractor", "forced_tool_call", "map_sdk_error", "parse_candidate"]

log = structlog.get_logger()

#: HTTP statuses worth retrying later; every other 4xx is permanent.
RETRYABLE_STATUSES = frozenset({408, 409, 429})


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


class AnthropicExtractor(LlmExtractor):
    """Extracts memories with Claude through the API: an `LlmExtractor` over `AnthropicCaller`."""

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
        from squirrel_memory.llm.anthropic_caller import AnthropicCaller  # noqa: PLC0415

        super().__init__(
            AnthropicCaller(client, model=model, budget=budget),
            max_tokens=max_tokens,
            max_context_chars=max_context_chars,
            max_candidates=max_candidates,
        )
