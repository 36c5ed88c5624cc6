"""One settings object per process: defaults, then `<home>/config.toml`, then `SQRL_*` variables."""

from __future__ import annotations

import getpass
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomli_w

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.files import write_private_file

HOME_ENV = "SQRL_HOME"
ENV_PREFIX = "SQRL_"
ANTHROPIC_KEY_ENV = "ANTHROPIC_API_KEY"
CLAUDE_CONFIG_ENV = "CLAUDE_CONFIG_DIR"
CONFIG_FILE = "config.toml"


@dataclass(frozen=True, slots=True)
class Setting:
    """A documented setting: `section.name`, its type, default and meaning."""

    section: str
    name: str
    kind: type
    default: Any
    doc: str
    secret: bool = False

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.name}"

    @property
    def env(self) -> str:
        return f"{ENV_PREFIX}{self.section}_{self.name}".upper()


def _home_default() -> str:
    return str(Path("~/.sqrl").expanduser())


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "general",
        "user_id",
        str,
        "",
        "User id stored with events and memories (default: login name).",
    ),
    Setting(
        "general",
        "log_level",
        str,
        "info",
        "Log level of the services: debug, info, warning, error.",
    ),
    Setting(
        "memory", "port", int, 0, "Port of the memory service on 127.0.0.1 (0: any free port)."
    ),
    Setting(
        "ingest", "port", int, 0, "Port of the ingest service on 127.0.0.1 (0: any free port)."
    ),
    Setting("gateway", "port", int, 0, "gRPC port of the gateway on 127.0.0.1 (0: any free port)."),
    Setting(
        "gateway",
        "mcp_http_port",
        int,
        0,
        "Port of the MCP streamable-HTTP endpoint (0: any free port).",
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
    ),
    Setting("anthropic", "base_url", str, "", "Anthropic API base URL (empty: the SDK default)."),
    Setting(
        "anthropic",
        "model",
        str,
        "claude-haiku-4-5",
        "Model used for extraction, views and reasons.",
    ),
    Setting("anthropic", "max_calls_per_hour", int, 60, "Cap on LLM calls per hour."),
    Setting(
        "anthropic", "max_tokens_per_day", int, 500_000, "Cap on LLM tokens (in + out) per day."
    ),
    Setting("processor", "interval_seconds", float, 30.0, "Seconds between processing passes."),
    Setting("processor", "min_events", int, 20, "Unprocessed events that trigger a pass early."),
    Setting("processor", "batch_size", int, 200, "Events taken per processing pass."),
    Setting(
        "processor",
        "extractor",
        str,
        "auto",
        "`rules`, `anthropic`, or `auto` (anthropic when a key is set).",
    ),
    Setting(
        "ingest", "claude_roots", list, [], "Claude Code transcript roots (empty: the defaults)."
    ),
    Setting(
        "ingest", "codex_roots", list, [], "Codex CLI session roots (empty: ~/.codex/sessions)."
    ),
    Setting("ingest", "gemini_roots", list, [], "Gemini CLI roots (empty: ~/.gemini/tmp)."),
    Setting(
        "ingest", "rescan_seconds", float, 60.0, "Seconds between safety-net rescans of every root."
    ),
    Setting(
        "ingest",
        "git_poll_seconds",
        float,
        60.0,
        "Seconds between git log polls of registered projects.",
    ),
    Setting("ingest", "batch_events", int, 500, "Events per delivery batch."),
    Setting(
        "ingest",
        "batch_age_seconds",
        float,
        1.0,
        "Oldest an undelivered event may get before a flush.",
    ),
    Setting(
        "ingest",
        "buffer_events",
        int,
        20_000,
        "Events held while memory is unreachable before reading pauses.",
    ),
    Setting(
        "retention",
        "event_days",
        int,
        0,
        "Prune processed raw events older than this (0: keep forever).",
    ),
    Setting(
        "retention",
        "check_hours",
        float,
        6.0,
        "Hours between retention passes of the memory service (pruning, vacuum).",
    ),
    Setting(
        "retention",
        "vacuum_hours",
        float,
        168.0,
        "Hours between VACUUMs of each project database (0: never).",
    ),
    Setting(
        "supervisor",
        "start_timeout_seconds",
        float,
        60.0,
        "How long `sqrl up` waits for each service to serve.",
    ),
    Setting(
        "supervisor",
        "max_backoff_seconds",
        float,
        30.0,
        "Longest wait between restarts of a crashing service.",
    ),
)

_BY_DOTTED = {s.dotted: s for s in SETTINGS}


@dataclass(frozen=True)
class Settings:
    """Every setting's value for this process, plus where the home is."""

    home: Path
    values: Mapping[str, Any] = field(default_factory=dict)

    def get(self, dotted: str) -> Any:
        if dotted not in _BY_DOTTED:
            raise InvalidArgumentError(f"unknown setting {dotted!r}; see `sqrl config list`")
        return self.values.get(dotted, _BY_DOTTED[dotted].default)

    def str_(self, dotted: str) -> str:
        return str(self.get(dotted))

    def int_(self, dotted: str) -> int:
        return int(self.get(dotted))

    def float_(self, dotted: str) -> float:
        return float(self.get(dotted))

    def bool_(self, dotted: str) -> bool:
        return bool(self.get(dotted))

    def list_(self, dotted: str) -> list[str]:
        return [str(v) for v in self.get(dotted)]

    @property
    def user_id(self) -> str:
        return self.str_("general.user_id") or _login_name()

    @property
    def anthropic_api_key(self) -> str:
        return self.str_("anthropic.api_key")

    def with_values(self, **updates: Any) -> Settings:
        """A copy with some values replaced (keys use `section__name`)."""
        merged = dict(self.values)
        merged.update({k.replace("__", "."): v for k, v in updates.items()})
        return replace(self, values=merged)


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "user"


def coerce(setting: Setting, raw: Any) -> Any:
    """Turns a TOML or environment value into the setting's type, or raises InvalidArgumentError."""
    try:
        if setting.kind is bool:
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in {"1", "true", "yes", "on"}:
                return True
            if text in {"0", "false", "no", "off"}:
                return False
            raise ValueError(raw)
        if setting.kind is list:
            if isinstance(raw, list):
                return [str(v) for v in raw]
            return [p for p in str(raw).split(os.pathsep) if p]
        if setting.kind is int and isinstance(raw, bool):
            raise ValueError(raw)
        return setting.kind(raw)
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"setting {setting.dotted} must be a {setting.kind.__name__}, got {raw!r}"
        ) from None


def home_from(environ: Mapping[str, str]) -> Path:
    """The Squirrel home: `$SQRL_HOME` or `~/.sqrl`."""
    return Path(environ.get(HOME_ENV) or _home_default()).expanduser().absolute()


def read_config_file(home: Path) -> dict[str, Any]:
    """The raw `config.toml` as nested tables ({} when absent)."""
    path = home / CONFIG_FILE
    if not path.exists():
        return {}
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidArgumentError(f"{path} is not valid TOML: {exc}") from None


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Builds the settings once at process start. Nothing else reads the environment."""
    env = os.environ if environ is None else environ
    home = home_from(env)
    values: dict[str, Any] = {}
    raw = read_config_file(home)
    for section, table in raw.items():
        if not isinstance(table, dict):
            continue
        for name, value in table.items():
            setting = _BY_DOTTED.get(f"{section}.{name}")
            if setting is not None:
                values[setting.dotted] = coerce(setting, value)
    for setting in SETTINGS:
        if setting.env in env:
            values[setting.dotted] = coerce(setting, env[setting.env])
    if env.get(ANTHROPIC_KEY_ENV):
        values["anthropic.api_key"] = env[ANTHROPIC_KEY_ENV]
    if env.get(CLAUDE_CONFIG_ENV) and "ingest.claude_roots" not in values:
        # Claude Code's own override (a comma-separated list): transcripts live in <dir>/projects.
        dirs = [d.strip() for d in env[CLAUDE_CONFIG_ENV].split(",") if d.strip()]
        values["ingest.claude_roots"] = [str(Path(d).expanduser() / "projects") for d in dirs]
    return Settings(home=home, values=values)


def lookup(dotted: str) -> Setting:
    """The documented setting named `section.name`."""
    setting = _BY_DOTTED.get(dotted)
    if setting is None:
        raise InvalidArgumentError(f"unknown setting {dotted!r}; see `sqrl config list`")
    return setting


def write_setting(home: Path, dotted: str, raw: str) -> Any:
    """Stores one setting in `config.toml` (mode 0600: it may hold the API key)."""
    setting = lookup(dotted)
    value = coerce(setting, raw)
    data = read_config_file(home)
    data.setdefault(setting.section, {})[setting.name] = value
    write_private_file(home / CONFIG_FILE, tomli_w.dumps(data).encode())
    return value


def unset_setting(home: Path, dotted: str) -> None:
    """Removes one setting from `config.toml` so its default applies again."""
    setting = lookup(dotted)
    data = read_config_file(home)
    data.get(setting.section, {}).pop(setting.name, None)
    write_private_file(home / CONFIG_FILE, tomli_w.dumps(data).encode())


def known_settings() -> tuple[Setting, ...]:
    return SETTINGS


__all__ = [
    "SETTINGS",
    "Setting",
    "Settings",
    "home_from",
    "known_settings",
    "load_settings",
    "lookup",
    "unset_setting",
    "write_setting",
]
