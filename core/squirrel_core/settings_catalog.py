"""Every setting Squirrel has, as one documented table: name, type, default, meaning, limits."""

from __future__ import annotations

from pathlib import Path

from squirrel_core.extraction_settings import EXTRACTION_SETTINGS
from squirrel_core.setting import Setting


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
    *EXTRACTION_SETTINGS,
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
        "(<home>/projects/<project>, for repositories on shared or synced disks, or ones you "
        "cannot write).",
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
        "How long `sqrl up` waits for each service to serve before it runs the others without it"
        " (the late one joins once it serves; `sqrl status` says what it waits for).",
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
        "supervisor",
        "crash_limit",
        int,
        5,
        "A service that exits this many times the same way (the same exit code or signal)"
        " within `supervisor.crash_window_seconds` is no longer restarted; `sqrl status` and"
        " the log say why.",
        minimum=2,
        maximum=1_000,
    ),
    Setting(
        "supervisor",
        "crash_window_seconds",
        float,
        300.0,
        "The window `supervisor.crash_limit` counts exits in.",
        minimum=1.0,
        maximum=86_400.0,
    ),
    Setting(
        "supervisor",
        "stop_grace_seconds",
        float,
        60.0,
        "How long a service asked to stop (SIGTERM) may take before it is killed; the memory "
        "service first ends a model load under way.",
        minimum=1.0,
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
        "start_wait_ms",
        int,
        3000,
        "Hooks: milliseconds a session start waits for services `sqrl up` is still starting"
        " (never when they are down; 0: never waits), before its deadline begins.",
        minimum=0,
        maximum=3500,
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
        "storage",
        "postgres_hnsw_m",
        int,
        16,
        "Memory service on Postgres: neighbours per node of an HNSW vector index it makes "
        "(pgvector's m, 2 to 100). Higher finds more of the true nearest memories at the same "
        "postgres_ef_search and takes longer to build. An index built with another value is "
        "rebuilt at start.",
        minimum=2,
        maximum=100,
    ),
    Setting(
        "storage",
        "postgres_hnsw_ef_construction",
        int,
        128,
        "Memory service on Postgres: candidates kept while an HNSW vector index it makes is "
        "built (pgvector's ef_construction, 4 to 1000, at least twice postgres_hnsw_m). Higher "
        "builds a better graph, more slowly. An index built with another value is rebuilt at "
        "start.",
        minimum=4,
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
