"""The Anthropic API as a `ToolCaller`: a forced tool call through the official SDK."""

from __future__ import annotations

from typing import Any

import anthropic

from squirrel_memory.extractors.anthropic import forced_tool_call
from squirrel_memory.llm.spending import LlmBudget


class AnthropicCaller:
    """Claude through the API key: the model must answer by calling the tool."""

    backend = "anthropic"

    def __init__(self, client: anthropic.AsyncAnthropic, *, model: str, budget: LlmBudget) -> None:
        self._client = client
        self._model = model
        self._budget = budget

    @property
    def model(self) -> str:
        return self._model

    @property
    def budget(self) -> LlmBudget:
        """The spending caps every call counts against."""
        return self._budget

    async def call_tool(
        self, *, system: str, message: str, tool: dict[str, Any], max_tokens: int
    ) -> dict[str, Any]:
        return await forced_tool_call(
            self._client,
            self._budget,
            model=self._model,
            max_tokens=max_tokens,
            system=system,
            message=message,
            tool=tool,
        )

    async def close(self) -> None:
        await self._client.close()
