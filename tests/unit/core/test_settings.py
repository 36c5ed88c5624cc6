from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.settings import (
    _only_comments,
    known_settings,
    load_settings,
    read_config_file,
    write_setting,
)

ROOT = Path(__file__).resolve().parents[3]


def test_defaults_apply_without_a_config_file(tmp_path: Path) -> None:
    settings = load_settings({"SQRL_HOME": str(tmp_path)})
    assert settings.home == tmp_path
    assert settings.int_("processor.batch_size") == 200
    assert settings.float_("processor.interval_seconds") == 30.0


def test_file_values_are_overridden_by_environment(tmp_path: Path) -> None:
    write_setting(tmp_path, "processor.min_events", "5")
    assert load_settings({"SQRL_HOME": str(tmp_path)}).int_("processor.min_events") == 5
    env = {"SQRL_HOME": str(tmp_path), "SQRL_PROCESSOR_MIN_EVENTS": "7"}
    assert load_settings(env).int_("processor.min_events") == 7


def test_anthropic_key_from_environment_wins_and_config_is_private(tmp_path: Path) -> None:
    write_setting(tmp_path, "anthropic.api_key", "sk-ant-stored")
    assert (tmp_path / "config.toml").stat().st_mode & 0o777 == 0o600
    assert load_settings({"SQRL_HOME": str(tmp_path)}).anthropic_api_key == "sk-ant-stored"
    env = {"SQRL_HOME": str(tmp_path), "ANTHROPIC_API_KEY": "sk-ant-env"}
    assert load_settings(env).anthropic_api_key == "sk-ant-env"


@pytest.mark.parametrize(
    ("key", "value"),
    [("processor.batch_size", "many"), ("gateway.allow_writes", "maybe"), ("nope.nothing", "1")],
)
def test_bad_values_and_unknown_keys_are_rejected(tmp_path: Path, key: str, value: str) -> None:
    with pytest.raises(InvalidArgumentError):
        write_setting(tmp_path, key, value)


def test_malformed_config_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("[processor\nbatch_size = ")
    with pytest.raises(InvalidArgumentError):
        load_settings({"SQRL_HOME": str(tmp_path)})


def test_every_setting_is_documented() -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text()
    documented = set(re.findall(r"`([a-z_]+\.[a-z_]+)`", doc))
    missing = {s.dotted for s in known_settings()} - documented
    assert not missing, f"undocumented settings: {sorted(missing)}"


def test_claude_config_dir_gives_the_claude_roots_unless_configured(tmp_path: Path) -> None:
    env = {"SQRL_HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": "/a/claude, /b/claude"}
    assert load_settings(env).list_("ingest.claude_roots") == [
        "/a/claude/projects",
        "/b/claude/projects",
    ]
    env["SQRL_INGEST_CLAUDE_ROOTS"] = "/mine"
    assert load_settings(env).list_("ingest.claude_roots") == ["/mine"]


_COMMENTS = st.text(
    alphabet=st.sampled_from(
        ["#", " ", "\t", "\n", "\r", "a", "=", "[", "é", "\x00", "\x7f", "\x1b"]
    ),
    max_size=40,
)


@settings(max_examples=400, deadline=None)
@given(text=_COMMENTS)
def test_a_file_of_comments_reads_as_toml_reads_it(text: str) -> None:
    """The parser is skipped only for text TOML reads as empty, and then gives the same."""
    try:
        parsed: object = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        parsed = None
    if _only_comments(text):
        assert parsed == {}


def test_the_file_sqrl_init_writes_is_read_without_the_parser(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("# Squirrel settings: see `sqrl config list`.\n\n")
    assert read_config_file(tmp_path) == {}
    (tmp_path / "config.toml").write_text("# a comment\n[general]\nlog_level = 'debug'\n")
    assert read_config_file(tmp_path) == {"general": {"log_level": "debug"}}
    (tmp_path / "config.toml").write_text("# a comment \x01 with a control character\n")
    with pytest.raises(InvalidArgumentError, match="not valid TOML"):
        read_config_file(tmp_path)


@pytest.mark.parametrize("relative", ["relhome", " ", "./sqrl", "x/../y"])
def test_a_relative_home_is_refused(relative: str) -> None:
    """A relative `SQRL_HOME` named another home from each folder a command ran in: `sqrl
    status` one `cd` away from the `sqrl up` that started the services said "not running"."""
    with pytest.raises(InvalidArgumentError, match="SQRL_HOME must be an absolute path"):
        load_settings({"SQRL_HOME": relative})


def test_an_absolute_home_one_under_the_user_home_or_none_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "user"
    monkeypatch.setenv("HOME", str(user))
    assert load_settings({"SQRL_HOME": str(tmp_path / "h")}).home == tmp_path / "h"
    assert load_settings({"SQRL_HOME": "~/h"}).home == user / "h"
    assert load_settings({"SQRL_HOME": ""}).home == user / ".sqrl"
