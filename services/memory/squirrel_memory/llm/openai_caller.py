"""Any OpenAI-compatible chat-completions server as a `ToolCaller`: Ollama, LM Studio,
llama.cpp's server, vLLM, or a hosted endpoint.

The tool is offered as a function the model must call (`mode = tools`), or the answer is
constrained by the tool's JSON schema (`mode = json_schema`, for servers whose models do not
call tools). Either way an answer that arrives as plain text holding the JSON is accepted too.
"""

from __future__ import annotations

import json
from typing import Any, Final

import httpx2
import structlog

from squirrel_memory.extractors.base import PermanentExtractionError, RetryableExtractionError
from squirrel_memory.llm.answers import (
    MAX_ANSWER_CHARS,
    checked_input,
    json_instruction,
    tool_input_from_text,
)
from squirrel_memory.llm.spending import LlmBudget

log = structlog.get_logger()

MODES: Final = ("tools", "json_schema")
_RETRYABLE: Final = frozenset({408, 409, 425, 429})


class OpenAICompatibleCaller:
    """POSTs `/chat/completions` to `base_url` with the install's optional API key."""

    backend = "openai_compatible"

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str,
        budget: LlmBudget,
        timeout_seconds: float,
        mode: str = "tools",
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        if not model:
            raise ValueError("openai_compatible needs a model name (openai_compatible.model)")
        headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx2.AsyncClient(
            base_url=base_url.rstrip("/") + "/",
            headers=headers,
            timeout=timeout_seconds,
            transport=transport,
        )
        self._model = model
        self._budget = budget
        self._mode = mode

    @property
    def model(self) -> str:
        return self._model

    async def close(self) -> None:
        await self._client.aclose()

    def _body(
        self, system: str, message: str, tool: dict[str, Any], max_tokens: int
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self._model,
            "max_tokens": max_tokens,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": message},
            ],
        }
        if self._mode == "tools":
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": tool["name"],
                        "description": tool.get("description", ""),
                        "parameters": tool["input_schema"],
                    },
                }
            ]
            body["tool_choice"] = {"type": "function", "function": {"name": tool["name"]}}
        else:
            body["messages"][1]["content"] = f"{message}\n\n{json_instruction(tool)}"
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": tool["name"], "schema": tool["input_schema"]},
            }
        return body

    async def call_tool(
        self, *, system: str, message: str, tool: dict[str, Any], max_tokens: int
    ) -> dict[str, Any]:
        body = self._body(system, message, tool, max_tokens)
        estimate = len(json.dumps(body)) // 4 + max_tokens
        self._budget.reserve(estimate)
        try:
            response = await self._client.post("chat/completions", json=body)
        except httpx2.TimeoutException:
            raise RetryableExtractionError("the model server timed out") from None
        except httpx2.TransportError as exc:
            raise RetryableExtractionError(
                f"the model server is unreachable ({type(exc).__name__})"
            ) from None
        status = response.status_code
        if status >= 400:
            retry_after = _retry_after(response)
            if status in _RETRYABLE or status >= 500:
                raise RetryableExtractionError(
                    f"the model server answered {status}", retry_after=retry_after
                )
            if status in (401, 403):
                raise PermanentExtractionError(
                    f"the model server refused the key ({status}); set openai_compatible.api_key"
                )
            raise PermanentExtractionError(
                f"the model server answered {status} (is openai_compatible.model right?)"
            )
        if len(response.content) > MAX_ANSWER_CHARS * 4:
            raise PermanentExtractionError("the model server's answer is too large")
        try:
            data = response.json()
            choice = data["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise PermanentExtractionError(
                "the model server's answer is not chat completion JSON"
            ) from None
        usage = data.get("usage") if isinstance(data, dict) else None
        tokens = int(usage.get("total_tokens") or 0) if isinstance(usage, dict) else 0
        self._budget.record_tokens(tokens or estimate)
        return _tool_input(choice, tool)


def _retry_after(response: httpx2.Response) -> float | None:
    header = response.headers.get("retry-after")
    try:
        return max(0.0, float(header)) if header else None
    except ValueError:
        return None


def _tool_input(message: Any, tool: dict[str, Any]) -> dict[str, Any]:
    """The tool's arguments from a tool call, else from JSON in the message text."""
    if not isinstance(message, dict):
        raise PermanentExtractionError("the model server's message is not an object")
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or function.get("name") != tool["name"]:
            continue
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            return tool_input_from_text(arguments, tool)
        return checked_input(arguments, tool)
    content = message.get("content")
    if isinstance(content, str) and content.strip():
        return tool_input_from_text(content, tool)
    raise PermanentExtractionError(f"the model did not call {tool['name']}")
