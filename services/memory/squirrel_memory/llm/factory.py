"""The model backend the settings choose, built once per service (nothing runs until chosen)."""

from __future__ import annotations

from pathlib import Path

from squirrel_core.backend_choice import chosen_backend
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_memory.llm.base import ToolCaller
from squirrel_memory.llm.spending import LlmBudget

WORKDIR_NAME = "llm-workdir"
"""Folder under the home's run folder where the assistant CLIs run. Their own transcripts name
it as their working folder, which is how ingest recognises and skips them."""


def workdir(settings: Settings) -> Path:
    return HomeLayout(settings.home).run / WORKDIR_NAME


def budget_for(settings: Settings, backend: str) -> LlmBudget:
    """The caps of `backend`, their windows kept in `<home>/run/llm-spending-<section>.json`."""
    section = "anthropic" if backend == "anthropic" else "extractor"
    return LlmBudget(
        calls_per_hour=settings.int_(f"{section}.max_calls_per_hour"),
        tokens_per_day=settings.int_(f"{section}.max_tokens_per_day"),
        ledger=HomeLayout(settings.home).run / f"llm-spending-{section}.json",
    )


def build_caller(settings: Settings, budget: LlmBudget | None = None) -> ToolCaller | None:
    """The chosen model backend, or None for `rules`. Raises `InvalidArgumentError` for a
    choice that cannot run (no API key, no model name)."""
    backend = chosen_backend(settings)
    if backend == "rules":
        return None
    budget = budget or budget_for(settings, backend)
    timeout = settings.float_("extractor.timeout_seconds")
    if backend == "anthropic":
        key = settings.anthropic_api_key
        if not key:
            raise InvalidArgumentError(
                "the extractor backend is `anthropic` but no API key is set "
                "(sqrl config set anthropic.api_key … or ANTHROPIC_API_KEY)"
            )
        import anthropic  # noqa: PLC0415 - only loaded when this backend is chosen

        from squirrel_memory.llm.anthropic_caller import AnthropicCaller  # noqa: PLC0415

        client = anthropic.AsyncAnthropic(
            api_key=key, base_url=settings.str_("anthropic.base_url") or None, max_retries=0
        )
        return AnthropicCaller(client, model=settings.str_("anthropic.model"), budget=budget)
    if backend == "openai_compatible":
        model = settings.str_("openai_compatible.model")
        if not model:
            raise InvalidArgumentError(
                "the extractor backend is `openai_compatible` but no model is set "
                "(sqrl config set openai_compatible.model …)"
            )
        from squirrel_memory.llm.openai_caller import OpenAICompatibleCaller  # noqa: PLC0415

        return OpenAICompatibleCaller(
            base_url=settings.str_("openai_compatible.base_url"),
            model=model,
            api_key=settings.str_("openai_compatible.api_key"),
            budget=budget,
            timeout_seconds=timeout,
            mode=settings.str_("openai_compatible.mode"),
        )
    from squirrel_memory.llm.cli_caller import CliCaller  # noqa: PLC0415

    return CliCaller(
        backend,
        command=settings.str_(f"{backend}.command"),
        model=settings.str_(f"{backend}.model"),
        workdir=workdir(settings),
        budget=budget,
        timeout_seconds=timeout,
        passthrough=tuple(
            name.strip() for name in settings.str_("extractor.cli_env").split(",") if name.strip()
        ),
    )
