"""One settings object per process: defaults, then `<home>/config.toml`, then `SQRL_*` variables."""

from __future__ import annotations

import getpass
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError
from squirrel_core.files import write_private_file
from squirrel_core.setting import MAX_LIST_ITEMS, Setting
from squirrel_core.settings_catalog import SETTINGS, home_default

HOME_ENV = "SQRL_HOME"
ANTHROPIC_KEY_ENV = "ANTHROPIC_API_KEY"
CLAUDE_CONFIG_ENV = "CLAUDE_CONFIG_DIR"
CONFIG_FILE = "config.toml"


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
    """Turns a TOML or environment value into the setting's type and checks it is allowed.

    Raises InvalidArgumentError naming the key, the value and what is allowed.
    """
    try:
        value = _typed(setting, raw)
    except (TypeError, ValueError, OverflowError):
        value = None
    if value is None or not _in_range(setting, value):
        raise InvalidArgumentError(
            f"setting {setting.dotted} cannot be {_shown(setting, raw)}: "
            f"it must be {setting.allowed}"
        )
    return value


def _shown(setting: Setting, raw: Any) -> str:
    if setting.secret:
        return "the value given"
    text = repr(raw)
    return text if len(text) <= 80 else text[:77] + "..."


def _typed(setting: Setting, raw: Any) -> Any:
    if setting.kind is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in {"1", "true", "yes", "on"}:
            return True
        if text in {"0", "false", "no", "off"}:
            return False
        return None
    if setting.kind is list:
        if isinstance(raw, list):
            return [v if isinstance(v, str) else None for v in raw]
        if isinstance(raw, str):
            return [p for p in raw.split(os.pathsep) if p]
        return None
    if isinstance(raw, (bool, dict, list)):
        return None
    if setting.kind is int:
        if isinstance(raw, float) and not raw.is_integer():
            return None
        return int(str(raw).strip()) if isinstance(raw, str) else int(raw)
    if setting.kind is float:
        value = float(raw)
        return value if math.isfinite(value) else None
    return raw if isinstance(raw, str) else None


def _in_range(setting: Setting, value: Any) -> bool:
    if setting.kind is bool:
        return True
    if setting.kind is list:
        return len(value) <= MAX_LIST_ITEMS and all(
            isinstance(v, str) and v.strip() and "\n" not in v and len(v) <= 4096 for v in value
        )
    if setting.kind in (int, float):
        low = setting.minimum if setting.minimum is not None else -math.inf
        high = setting.maximum if setting.maximum is not None else math.inf
        return bool(low <= value <= high)
    text = str(value)
    if "\n" in text or "\r" in text or len(text) > setting.max_length:
        return False
    if setting.choices:
        return text in setting.choices
    if setting.url:
        return text == "" or (
            text.startswith(("http://", "https://")) and len(text) > len("https://")
        )
    return bool(text.strip()) or not setting.nonempty


def home_from(environ: Mapping[str, str]) -> Path:
    """The Squirrel home: `$SQRL_HOME` or `~/.sqrl`. A relative `$SQRL_HOME` is refused: it
    named another home from each folder a command ran in (and the hooks, run from the
    project's folder, looked in yet another), so `sqrl status` said "not running" one `cd` away
    from the `sqrl up` that started the services."""
    configured = environ.get(HOME_ENV)
    home = Path(configured or home_default()).expanduser()
    if configured and not home.is_absolute():
        raise InvalidArgumentError(
            f"{HOME_ENV} must be an absolute path (or start with ~), not {configured!r}: a"
            " relative one names another folder from each folder a command runs in"
        )
    return home.absolute()


REPAIR_HINT = "`sqrl doctor --repair` rewrites it, keeping a backup"


def read_config_file(home: Path) -> dict[str, Any]:
    """The raw `config.toml` as nested tables ({} when absent); one clear error when unreadable."""
    path = home / CONFIG_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except NotADirectoryError:
        raise FailedPreconditionError(
            f"the Squirrel home {home} cannot be used: part of its path is a file, not a folder;"
            " set SQRL_HOME to a folder you can write"
        ) from None
    except OSError as exc:
        raise FailedPreconditionError(
            f"{path} cannot be read ({exc.strerror or exc}); make the Squirrel home readable, or"
            " set SQRL_HOME to a folder you can read and write"
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidArgumentError(f"{path} is not UTF-8 text; {REPAIR_HINT}") from None
    if _only_comments(text):
        return {}  # the file `sqrl init` writes: no need to load the TOML parser
    import tomllib  # noqa: PLC0415 - ~5 ms, for a file that sets something

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidArgumentError(f"{path} is not valid TOML ({exc}); {REPAIR_HINT}") from None
    except RecursionError:  # arrays or tables nested past the parser's depth
        raise InvalidArgumentError(
            f"{path} is not valid TOML (nested too deep); {REPAIR_HINT}"
        ) from None


def _only_comments(text: str) -> bool:
    """True when TOML would read `text` as nothing: blank lines and comments, none holding a
    control character TOML refuses in a comment."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        # A carriage return is allowed only before a line feed (CRLF).
        body = (line.removesuffix("\r") if index < len(lines) - 1 else line).strip(" \t")
        if body and not body.startswith("#"):
            return False
        if any((ch < " " and ch != "\t") or ch == "\x7f" for ch in body):
            return False
    return True


def file_values(raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(the allowed values of known settings in a parsed config file, a line per problem).

    Unknown keys are reported but do not stop a load (a newer Squirrel may have written them).
    """
    values: dict[str, Any] = {}
    problems: list[str] = []
    for section, table in raw.items():
        if not isinstance(table, dict):
            problems.append(f"{section} is not a [section] of settings")
            continue
        for name, value in table.items():
            setting = _BY_DOTTED.get(f"{section}.{name}")
            if setting is None:
                problems.append(f"unknown setting {section}.{name}")
                continue
            try:
                values[setting.dotted] = coerce(setting, value)
            except InvalidArgumentError as exc:
                problems.append(str(exc))
    return values, problems


def config_problems(home: Path) -> list[str]:
    """Everything wrong with `config.toml` (empty when it is fine or absent)."""
    try:
        raw = read_config_file(home)
    except InvalidArgumentError as exc:
        return [str(exc)]
    return file_values(raw)[1]


def load_settings(environ: Mapping[str, str] | None = None, *, lenient: bool = False) -> Settings:
    """Builds the settings once at process start. Nothing else reads the environment.

    A value that is not allowed, in `config.toml` or a `SQRL_*` variable, is an error naming it;
    with `lenient` (what `sqrl doctor` uses, so it can run to repair) it is skipped instead.
    """
    env = os.environ if environ is None else environ
    home = home_from(env)
    try:
        raw = read_config_file(home)
    except InvalidArgumentError:
        if not lenient:
            raise
        raw = {}
    values, problems = file_values(raw)
    invalid = [p for p in problems if not p.startswith("unknown setting")]
    if invalid and not lenient:
        raise InvalidArgumentError(f"{home / CONFIG_FILE}: {invalid[0]}; {REPAIR_HINT}")
    for setting in SETTINGS:
        if setting.env in env:
            try:
                values[setting.dotted] = coerce(setting, env[setting.env])
            except InvalidArgumentError as exc:
                if not lenient:
                    raise InvalidArgumentError(f"{setting.env}: {exc}") from None
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
    _write_config_file(home, data)
    return value


def _write_config_file(home: Path, data: dict[str, Any]) -> None:
    import tomli_w  # noqa: PLC0415 - writers only: reading commands do not load it

    write_private_file(home / CONFIG_FILE, tomli_w.dumps(data).encode())


def unset_setting(home: Path, dotted: str) -> None:
    """Removes one setting from `config.toml` so its default applies again."""
    setting = lookup(dotted)
    data = read_config_file(home)
    data.get(setting.section, {}).pop(setting.name, None)
    _write_config_file(home, data)


def known_settings() -> tuple[Setting, ...]:
    return SETTINGS


__all__ = [
    "REPAIR_HINT",
    "SETTINGS",
    "Setting",
    "Settings",
    "coerce",
    "config_problems",
    "file_values",
    "home_from",
    "known_settings",
    "load_settings",
    "lookup",
    "unset_setting",
    "write_setting",
]
