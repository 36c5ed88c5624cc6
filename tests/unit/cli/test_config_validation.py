"""Settings refuse nonsense everywhere (`config set`, load, doctor), and a broken config.toml is
one clear line on every command until `sqrl doctor --repair` rewrites it, keeping a backup."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_cli.main import main
from squirrel_core.config_repair import repair_config
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.settings import coerce, known_settings, load_settings, lookup

INVALID = [
    ("processor.interval_seconds", "0"),
    ("processor.interval_seconds", "-5"),
    ("processor.interval_seconds", "nan"),
    ("memory.port", "99999"),
    ("memory.port", "-1"),
    ("processor.extractor", "gpt"),
    ("general.log_level", "loud"),
    ("processor.batch_size", "1.5"),
    ("anthropic.base_url", "file:///etc/passwd"),
    ("anthropic.model", ""),
    ("general.user_id", "x" * 10_000),
]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    for name in [k for k in os.environ if k.startswith("SQRL_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("SQRL_HOME", str(home))
    return home


def test_every_setting_has_a_type_and_a_range_or_choices() -> None:
    for setting in known_settings():
        if setting.kind in (int, float):
            assert setting.minimum is not None and setting.maximum is not None, setting.dotted
            assert setting.minimum <= setting.default <= setting.maximum, setting.dotted
        assert lookup(setting.dotted).allowed
        assert coerce(setting, setting.default) == setting.default


@pytest.mark.parametrize(("key", "value"), INVALID)
def test_config_set_refuses_values_that_are_not_allowed(
    home: Path, key: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "set", key, value]) == 2  # a bad argument value
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert key in err[0] and "must be" in err[0]
    assert (
        not (home / "config.toml").exists()
        or key.split(".")[1] not in (home / "config.toml").read_text()
    )


@pytest.mark.parametrize(("key", "value"), INVALID[:7])
def test_values_that_are_not_allowed_are_refused_at_load(home: Path, key: str, value: str) -> None:
    section, name = key.split(".")
    home.mkdir()
    typed = lookup(key).kind
    literal = value if typed in (int, float) and value not in ("nan",) else json.dumps(value)
    (home / "config.toml").write_text(f"[{section}]\n{name} = {literal}\n")
    with pytest.raises(InvalidArgumentError, match=key.replace(".", r"\.")):
        load_settings({"SQRL_HOME": str(home)})
    env_name = lookup(key).env
    with pytest.raises(InvalidArgumentError, match=env_name):
        load_settings({"SQRL_HOME": str(home / "elsewhere"), env_name: value})


def test_allowed_values_still_load(home: Path) -> None:
    assert main(["config", "set", "processor.interval_seconds", "1"]) == 0
    assert main(["config", "set", "memory.port", "65535"]) == 0
    assert main(["config", "set", "processor.extractor", "rules"]) == 0
    settings = load_settings({"SQRL_HOME": str(home)})
    assert settings.float_("processor.interval_seconds") == 1.0
    assert settings.int_("memory.port") == 65535


def test_one_broken_line_is_one_clear_line_on_every_command_and_doctor_repairs_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "set", "processor.min_events", "5"]) == 0
    assert main(["config", "set", "general.log_level", "debug"]) == 0
    path = home / "config.toml"
    lines = path.read_text().splitlines()
    lines.insert(2, "min_events = = 7 oops")
    path.write_text("\n".join(lines) + "\n")
    broken = path.read_bytes()
    capsys.readouterr()
    for argv in (["status"], ["config", "list"], ["memories"], ["search", "x"]):
        assert main(argv) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "config.toml" in err[0] and "doctor --repair" in err[0], err
    assert main(["doctor", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    [config] = [c for c in report["checks"] if c["name"] == "config"]
    assert not config["ok"]
    main(["doctor", "--repair"])
    capsys.readouterr()
    backups = list(home.glob("config.toml.broken-*"))
    assert len(backups) == 1 and backups[0].read_bytes() == broken
    assert backups[0].stat().st_mode & 0o777 == 0o600
    repaired = tomllib.loads(path.read_text())
    assert repaired == {"general": {"log_level": "debug"}, "processor": {"min_events": 5}}
    assert main(["config", "get", "processor.min_events"]) == 0
    assert capsys.readouterr().out.strip() == "5"


def test_repair_drops_disallowed_values_and_leaves_a_good_file_alone(home: Path) -> None:
    home.mkdir()
    path = home / "config.toml"
    path.write_text('[processor]\ninterval_seconds = 0\nextractor = "rules"\n[nope]\nx = 1\n')
    done = repair_config(home)
    assert done.backup is not None and done.kept == ["processor.extractor"]
    assert len(done.dropped) == 2
    assert tomllib.loads(path.read_text()) == {"processor": {"extractor": "rules"}}
    again = repair_config(home)
    assert again.backup is None
    assert len(list(home.glob("config.toml.broken-*"))) == 1


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe\x00garbage", b"[[[[", b"x" * 100_000 + b" = \n", b"[a]\n" * 5_000 + b"=\n", b""],
)
def test_repair_survives_hostile_files(home: Path, content: bytes) -> None:
    home.mkdir()
    (home / "config.toml").write_bytes(content)
    repair_config(home)
    assert load_settings({"SQRL_HOME": str(home)}).home == home


def test_a_secret_is_never_echoed_in_the_error(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = "sk-ant-" + "a" * 600
    assert main(["config", "set", "anthropic.api_key", secret]) == 2  # a bad argument value
    assert secret[:20] not in capsys.readouterr().err


def test_two_repairs_within_one_second_keep_both_originals(home: Path) -> None:
    home.mkdir()
    path = home / "config.toml"
    second = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)  # the backup's name is to the second
    originals = [b"[processor\nmin_events = 5\n", b"[general]\nlog_level = = 1\n"]
    backups = []
    for broken in originals:
        path.write_bytes(broken)
        done = repair_config(home, now=second)
        assert done.backup is not None
        backups.append(done.backup)
    assert [b.name for b in backups] == [
        "config.toml.broken-20260304T050607Z",
        "config.toml.broken-20260304T050607Z-2",
    ]
    assert [b.read_bytes() for b in backups] == originals
    assert all(b.stat().st_mode & 0o777 == 0o600 for b in backups)
    assert repair_config(home, now=second).backup is None  # a good file: no third


def test_a_broken_config_does_not_keep_sqrl_down_from_stopping_the_services(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """config.toml broken while the services ran: every command said so, `sqrl down` too, and
    nothing could stop them short of `kill`. `sqrl down` stops them."""
    (home / "run").mkdir(parents=True)
    (home / "config.toml").write_text("[memory\nport = \n")
    stand_in = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        state = {"pid": stand_in.pid, "started_at": 0.0, "services": {}}
        (home / "run" / "supervisor.json").write_text(json.dumps(state))

        assert main(["down"]) == 0, capsys.readouterr().err
        assert stand_in.wait(timeout=60) == -signal.SIGTERM
    finally:
        if stand_in.poll() is None:
            stand_in.kill()
            stand_in.wait()
    assert capsys.readouterr().out.strip() == "Squirrel stopped."
