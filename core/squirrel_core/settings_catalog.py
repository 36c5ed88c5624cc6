"""Every setting Squirrel has, as one documented table: name, type, default, meaning, limits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV_PREFIX = "SQRL_"


@dataclass(frozen=True, slots=True)
class Setting:
    """A documented setting: `section.name`, its type, default, meaning and allowed values.

    Numbers have a `minimum` and `maximum`; text has `choices`, or a `max_length` (and `url` or
    `nonempty` where that is the rule); lists hold up to `MAX_LIST_ITEMS` non-empty paths.
    """

    section: str
    name: str
    kind: type
    default: Any
    doc: str
    secret: bool = False
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    max_length: int = 1_000
    url: bool = False
    nonempty: bool = False

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.name}"

    @property
    def env(self) -> str:
        return f"{ENV_PREFIX}{self.section}_{self.name}".upper()

    @property
    def allowed(self) -> str:
        """What the setting accepts, in words (used in every error about it)."""
        if self.kind is bool:
            return "true or false"
        if self.kind is list:
            return f"a list of up to {MAX_LIST_ITEMS} paths"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind in (int, float):
            noun = "an integer" if self.kind is int else "a number"
            return f"{noun} from {_number(self.minimum)} to {_number(self.maximum)}"
        if self.url:
            return "empty, or an http:// or https:// URL"
        what = "non-empty text" if self.nonempty else "text"
        return f"{what} of at most {self.max_length} characters on one line"


MAX_LIST_ITEMS = 100


def _number(value: float | None) -> str:
    if value is None:
        return "any"
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def home_default() -> str:
    """Where the Squirrel home is unless `SQRL_HOME` says otherwise."""
    return str(Path("~/.sqrl").expanduser())


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "general",
        "user_id",
        str,
        "",
        "User id stored with events and memories (default: login name).",
        max_length=200,
    ),
    Setting(
        "general",
        "log_level",
        str,
        "info",
        "Log level of the services: debug, info, warning, error.",
        choices=("debug", "info", "warning", "error"),
    ),
    Setting(
        "memory",
        "port",
        int,
        0,
        "Port of the memory service on 127.0.0.1 (0: any free port).",
        minimum=0,
        maximum=65535,
    ),
    Setting(
        "ingest",
        "port",
        int,
        0,
        "Port of the ingest service on 127.0.0.1 (0: any free port).",
        minimum=0,
        maximum=65535,
    ),
    Setting(
        "gateway",
        "port",
        int,
        0,
        "gRPC port of the gateway on 127.0.0.1 (0: any free port).",
        minimum=0,
        maximum=65535,
    ),
    Setting(
        "gateway",
        "mcp_http_port",
        int,
        0,
        "Port of the MCP streamable-HTTP endpoint (0: any free port).",
        minimum=0,
        maximum=65535,
    ),
    Setting(
        "gateway", "allow_writes", bool, False, "Expose the `remember` and `forget` MCP tools."
    ),
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
    Setting(
        "ingest", "claude_roots", list, [], "Claude Code transcript roots (empty: the defaults)."
    ),
    Setting(
        "ingest", "codex_roots", list, [], "Codex CLI session roots (empty: ~/.codex/sessions)."
    ),
    Setting("ingest", "gemini_roots", list, [], "Gemini CLI roots (empty: ~/.gemini/tmp)."),
    Setting(
        "ingest",
        "cursor_roots",
        list,
        [],
        "Cursor `User` folders, holding globalStorage/ and workspaceStorage/ (empty: "
        "~/.config/Cursor/User, ~/Library/Application Support/Cursor/User and "
        "~/AppData/Roaming/Cursor/User).",
    ),
    Setting(
        "ingest",
        "cursor_poll_seconds",
        float,
        5.0,
        "Seconds between looks at Cursor's chat store (read only when it changed).",
        minimum=0.1,
        maximum=86_400.0,
    ),
    Setting(
        "ingest",
        "rescan_seconds",
        float,
        60.0,
        "Seconds between safety-net rescans of every root.",
        minimum=1.0,
        maximum=86_400.0,
    ),
    Setting(
        "ingest",
        "git_poll_seconds",
        float,
        60.0,
        "Seconds between git log polls of registered projects.",
        minimum=0.1,
        maximum=86_400.0,
    ),
    Setting(
        "ingest",
        "batch_events",
        int,
        500,
        "Events per delivery batch.",
        minimum=1,
        maximum=10_000,
    ),
    Setting(
        "ingest",
        "batch_age_seconds",
        float,
        0.2,
        "Oldest an undelivered event may get before a flush.",
        minimum=0.01,
        maximum=3_600.0,
    ),
    Setting(
        "ingest",
        "buffer_events",
        int,
        20_000,
        "Events held while memory is unreachable before reading pauses.",
        minimum=1,
        maximum=10**7,
    ),
    Setting(
        "retention",
        "event_days",
        int,
        0,
        "Prune processed raw events older than this (0: keep forever).",
        minimum=0,
        maximum=36_500,
    ),
    Setting(
        "storage",
        "location",
        str,
        "repo",
        "Where new project stores live: repo (<repo>/.ctx, kept out of git) or home "
        "(<home>/projects/<project>, for repositories on shared or synced disks).",
        choices=("repo", "home"),
    ),
    Setting(
        "retention",
        "tentative_days",
        int,
        30,
        "Forget a one-off (tentative) instruction that did not recur within this many days "
        "(0: keep).",
        minimum=0,
        maximum=36_500,
    ),
    Setting(
        "retention",
        "check_hours",
        float,
        6.0,
        "Hours between retention passes of the memory service (pruning, vacuum).",
        minimum=0.01,
        maximum=8_760.0,
    ),
    Setting(
        "retention",
        "vacuum_hours",
        float,
        168.0,
        "Hours between VACUUMs of each project database (0: never).",
        minimum=0.0,
        maximum=87_600.0,
    ),
    Setting(
        "supervisor",
        "start_timeout_seconds",
        float,
        60.0,
        "How long `sqrl up` waits for each service to serve.",
        minimum=1.0,
        maximum=3_600.0,
    ),
    Setting(
        "supervisor",
        "max_backoff_seconds",
        float,
        30.0,
        "Longest wait between restarts of a crashing service.",
        minimum=0.1,
        maximum=3_600.0,
    ),
    Setting(
        "hooks",
        "session_start",
        bool,
        True,
        "Hooks: inject the style, brief and top pitfalls when a session starts or is compacted.",
    ),
    Setting(
        "hooks",
        "prompt",
        bool,
        True,
        "Hooks: inject the task context for each prompt (nothing when Squirrel abstains).",
    ),
    Setting(
        "hooks",
        "session_end",
        bool,
        True,
        "Hooks: process a session's memories as soon as the host says the session ended.",
    ),
    Setting(
        "hooks",
        "session_budget",
        int,
        600,
        "Hooks: token budget of the session-start text.",
        minimum=128,
        maximum=2_000,
    ),
    Setting(
        "hooks",
        "prompt_budget",
        int,
        300,
        "Hooks: token budget of the per-prompt context.",
        minimum=128,
        maximum=2_000,
    ),
    Setting(
        "hooks",
        "deadline_ms",
        int,
        1000,
        "Hooks: milliseconds a hook may take before it gives up and prints nothing.",
        minimum=50,
        maximum=60_000,
    ),
    Setting(
        "hooks",
        "idle_end_seconds",
        float,
        300.0,
        "Hooks: a host with only a per-turn Stop hook has ended its session after this idle time.",
        minimum=10.0,
        maximum=86_400.0,
    ),
    Setting(
        "hooks",
        "record_served",
        bool,
        True,
        "Hooks: record which memories each session was served, so each gets an outcome "
        "(used, missed, contradicted, unused) when the session is processed.",
    ),
    Setting(
        "hooks",
        "learn_from_outcomes",
        bool,
        True,
        "Memory service: rank memories by their outcomes (used raises one, unused lowers it "
        "slowly) and keep a memory a session contradicted out of hooks, views and task context "
        "until it is confirmed or rewritten.",
    ),
    Setting(
        "storage",
        "backend",
        str,
        "sqlite",
        "Memory service: where events and memories are kept: sqlite (one file per project, "
        "vectors in FAISS) or postgres (every project in the database of storage.postgres_dsn, "
        "vectors in pgvector; needs the team extra).",
        choices=("sqlite", "postgres"),
    ),
    Setting(
        "storage",
        "postgres_dsn",
        str,
        "",
        "Memory service: Postgres connection string used when storage.backend is postgres "
        "(postgresql://user@host:5432/db?sslmode=require). Prefer a password in ~/.pgpass or "
        "PGPASSWORD over one in the DSN; the DSN is never logged.",
        secret=True,
        max_length=4096,
    ),
    Setting(
        "storage",
        "postgres_pool_size",
        int,
        10,
        "Memory service: most connections it opens to Postgres at once.",
        minimum=1,
        maximum=200,
    ),
    Setting(
        "storage",
        "postgres_ef_search",
        int,
        400,
        "Memory service on Postgres: candidates the HNSW vector search keeps (pgvector's "
        "hnsw.ef_search; at least the number of results asked for). Higher finds more of the "
        "true nearest memories and takes longer.",
        minimum=10,
        maximum=1000,
    ),
    Setting(
        "serve",
        "address",
        str,
        "",
        "Team server: host:port the memory service also listens on for laptops (empty: not a "
        "team server). Anything but loopback needs serve.tls_cert and serve.tls_key.",
        max_length=300,
    ),
    Setting(
        "serve",
        "tls_cert",
        str,
        "",
        "Team server: PEM file of the TLS certificate chain served on serve.address.",
        max_length=4096,
    ),
    Setting(
        "serve",
        "tls_key",
        str,
        "",
        "Team server: PEM file of the TLS private key of serve.tls_cert (keep it 0600).",
        max_length=4096,
    ),
    Setting(
        "team",
        "server",
        str,
        "",
        "Laptop: host:port of the team server to share memory with (empty: local memory only). "
        "The token is kept in <home>/team/token (0600), never here.",
        max_length=300,
    ),
    Setting(
        "team",
        "ca_file",
        str,
        "",
        "Laptop: PEM file of the CA that signed the team server's certificate (empty: the "
        "system's trusted roots).",
        max_length=4096,
    ),
    Setting(
        "team",
        "machine",
        str,
        "",
        "Laptop: name of this machine recorded with what it delivers (default: the host name).",
        max_length=200,
    ),
    Setting(
        "team",
        "deliver_seconds",
        float,
        5.0,
        "Laptop: seconds between deliveries of new events to the team server (and retries while "
        "it is down).",
        minimum=0.1,
        maximum=3_600.0,
    ),
)
