"""The settings of the extraction models: the Anthropic API, the processor, the extractor and
the assistant CLIs or OpenAI-compatible servers it can run."""

from __future__ import annotations

from squirrel_core.setting import Setting

EXTRACTION_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "anthropic",
        "api_key",
        str,
        "",
        "Anthropic API key; `ANTHROPIC_API_KEY` wins when set.",
        True,
        max_length=500,
    ),
    Setting(
        "anthropic",
        "base_url",
        str,
        "",
        "Anthropic API base URL (empty: the SDK default).",
        url=True,
    ),
    Setting(
        "anthropic",
        "model",
        str,
        "claude-haiku-4-5",
        "Model used for extraction, views and reasons.",
        max_length=200,
        nonempty=True,
    ),
    Setting(
        "anthropic",
        "max_calls_per_hour",
        int,
        60,
        "Cap on LLM calls per hour.",
        minimum=1,
        maximum=100_000,
    ),
    Setting(
        "anthropic",
        "max_tokens_per_day",
        int,
        500_000,
        "Cap on LLM tokens (in + out) per day.",
        minimum=1_000,
        maximum=10**10,
    ),
    Setting(
        "processor",
        "interval_seconds",
        float,
        30.0,
        "Seconds between processing passes.",
        minimum=1.0,
        maximum=86_400.0,
    ),
    Setting(
        "processor",
        "session_idle_seconds",
        float,
        180.0,
        "A session whose transcript is idle this long is processed (its episode split stays"
        " at the 20-minute gap).",
        minimum=10.0,
        maximum=1_200.0,
    ),
    Setting(
        "processor",
        "min_events",
        int,
        20,
        "Unprocessed events that trigger a pass early.",
        minimum=1,
        maximum=10**9,
    ),
    Setting(
        "processor",
        "batch_size",
        int,
        200,
        "Events taken per processing pass.",
        minimum=1,
        maximum=100_000,
    ),
    Setting(
        "processor",
        "extractor",
        str,
        "auto",
        "Older name of extractor.backend: `anthropic` chooses it; `rules` and `auto` (a key "
        "alone never chooses a model) keep the rules.",
        choices=("auto", "rules", "anthropic"),
    ),
    Setting(
        "extractor",
        "backend",
        str,
        "auto",
        "Who writes memories: `rules` (offline), `anthropic` (API key), `claude_cli`, "
        "`codex_cli`, `gemini_cli` (your logged-in CLI), `openai_compatible` (a local or "
        "hosted server); `auto` follows processor.extractor (rules unless it says anthropic). "
        "A key in the environment never chooses a backend.",
        choices=(
            "auto",
            "rules",
            "anthropic",
            "claude_cli",
            "codex_cli",
            "gemini_cli",
            "openai_compatible",
        ),
    ),
    Setting(
        "extractor",
        "timeout_seconds",
        float,
        120.0,
        "Hard limit on one model call (a CLI run is killed past it).",
        minimum=5.0,
        maximum=1_800.0,
    ),
    Setting(
        "extractor",
        "max_calls_per_hour",
        int,
        60,
        "Cap on model calls per hour for the CLI and openai_compatible backends.",
        minimum=1,
        maximum=100_000,
    ),
    Setting(
        "extractor",
        "max_tokens_per_day",
        int,
        500_000,
        "Cap on model tokens (in + out) per day for the CLI and openai_compatible backends.",
        minimum=1_000,
        maximum=1_000_000_000,
    ),
    Setting(
        "extractor",
        "consolidate_hours",
        float,
        24.0,
        "Hours between the model backend's tidy-up of each project's memories (0: never).",
        minimum=0.0,
        maximum=8_760.0,
    ),
    Setting(
        "extractor",
        "cli_env",
        str,
        "",
        "Comma-separated names of environment variables also passed to a CLI backend (e.g. "
        "GEMINI_API_KEY); every other variable but PATH, HOME, locale, proxies and the CLI's "
        "own config folder is withheld.",
    ),
    Setting("claude_cli", "command", str, "claude", "The Claude Code CLI to run.", nonempty=True),
    Setting(
        "claude_cli", "model", str, "haiku", "Model for `claude -p` (empty: the CLI's default)."
    ),
    Setting("codex_cli", "command", str, "codex", "The Codex CLI to run.", nonempty=True),
    Setting("codex_cli", "model", str, "", "Model for `codex exec` (empty: the CLI's default)."),
    Setting("gemini_cli", "command", str, "gemini", "The Gemini CLI to run.", nonempty=True),
    Setting(
        "gemini_cli",
        "model",
        str,
        "gemini-2.5-flash",
        "Model for `gemini -p` (empty: the CLI's default).",
    ),
    Setting(
        "openai_compatible",
        "base_url",
        str,
        "http://127.0.0.1:11434/v1",
        "Base URL of an OpenAI-compatible server (Ollama's by default; LM Studio: :1234/v1).",
        url=True,
    ),
    Setting(
        "openai_compatible", "model", str, "", "Model name on that server (required to use it)."
    ),
    Setting(
        "openai_compatible",
        "api_key",
        str,
        "",
        "API key for that server, if it wants one.",
        True,
    ),
    Setting(
        "openai_compatible",
        "mode",
        str,
        "tools",
        "`tools` (the model calls a function) or `json_schema` (constrained JSON output).",
        choices=("tools", "json_schema"),
    ),
)
