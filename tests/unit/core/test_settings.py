from __future__ import annotations

import re
from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.settings import known_settings, load_settings, write_setting

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
