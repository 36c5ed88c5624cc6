"""The model contract: one system prompt and message in, one tool's JSON input out.

Every backend — the Anthropic API, the user's own `claude` / `codex` / `gemini` CLI, or any
OpenAI-compatible server — answers the same `call_tool` request with the arguments of the named
tool, checked against its input schema, or raises an `ExtractionError` that says whether trying
later can help (rate limits, timeouts, a busy server) or not (not logged in, a bad model name,
output that never parses).
"""

from __future__ import annotations

from typing import Any, Protocol

BACKENDS = ("rules", "anthropic", "claude_cli", "codex_cli", "gemini_cli", "openai_compatible")
"""Every extractor backend, `rules` (offline, no model) first."""

LOCAL_BACKENDS = frozenset({"rules", "openai_compatible"})
"""Backends that may keep session text on this machine (a local server for openai_compatible);
the others send it to the vendor behind the CLI or API."""


class ToolCaller(Protocol):
    """A model that answers by calling one tool whose input matches a JSON schema."""

    @property
    def backend(self) -> str:
        """`anthropic`, `claude_cli`, `codex_cli`, `gemini_cli` or `openai_compatible`."""
        ...

    @property
    def model(self) -> str:
        """The model asked ("" when the backend's own default is used)."""
        ...

    async def call_tool(
        self, *, system: str, message: str, tool: dict[str, Any], max_tokens: int
    ) -> dict[str, Any]:
        """The tool's input for this request, schema-checked; raises `ExtractionError`."""
        ...

    async def close(self) -> None:
        """Release connections (no-op for process-per-call backends)."""
        ...


def written_by(caller: ToolCaller | None) -> str:
    """How a memory's writer is recorded: `rules`, or `<backend>:<model>`."""
    if caller is None:
        return "rules"
    return f"{caller.backend}:{caller.model}" if caller.model else caller.backend
