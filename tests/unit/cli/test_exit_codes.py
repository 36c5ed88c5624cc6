"""`sqrl`'s exit codes (docs/cli.md's table, a test per code): a bad argument exits 2, whether
argparse refuses it or the command refuses its value; a refusal that is not the argument's fault
(a path registered nowhere, services down, a check inside a service, a setting) exits 1. Each is
one line on stderr, without a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from squirrel_cli import exits
from squirrel_cli import main as cli_main
from squirrel_core.errors import SquirrelError, error_named
from squirrel_memory.index import VectorRefusedError
from squirrel_memory.storage.postgres.database import PostgresDatabase

Sqrl = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def project(sqrl: Sqrl, sqrl_home: Path, tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    done = sqrl("init", "--no-git", str(root))
    assert done.returncode == 0, done.stderr
    return root


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ("remember", "Tests run with make check", "--importance", "2"),
        ("remember", "Tests run with make check", "--importance", "-0.5"),
        ("remember", "Tests run with make check", "--key", ""),
        ("remember", "Tests run with make check", "--key", "  "),
        ("context", "add a login page", "--budget", "0"),
        ("search", "login", "--budget", "-3"),
        ("memories", "--project", ""),
        ("hooks", "install", "--hosts", "emacs"),
    ],
)
def test_a_value_the_command_refuses_exits_2_like_a_usage_error(
    sqrl: Sqrl, project: Path, sqrl_home: Path, args: tuple[str, ...]
) -> None:
    before = json.loads((sqrl_home / "projects.json").read_text())

    done = sqrl(*args, cwd=project)

    assert done.returncode == 2, done.stderr
    assert _one_line(done).startswith("sqrl")
    assert json.loads((sqrl_home / "projects.json").read_text()) == before


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("search", "login", "-k", "100000000000000000000"), "-k/--top-k"),
        (("search", "login", "-k", "0"), "-k/--top-k"),
        (("context", "add a login page", "--budget", "99999999999999999999999"), "--budget"),
        (("view", "brief", "--budget", "10"), "--budget"),
        (("search", "login", "--budget", "40000"), "--budget"),
        (("memories", "--limit", "100000000000000000000"), "--limit"),
        (("memories", "--limit", "0"), "--limit"),
    ],
)
def test_a_number_out_of_range_is_refused_naming_its_flag_before_any_service(
    sqrl: Sqrl, project: Path, args: tuple[str, ...], flag: str
) -> None:
    """Too large for the wire (a traceback before) or out of what the services take (their
    message named the wire field and its default, not the flag): one line naming the flag,
    exit 2, services down or not."""
    done = sqrl(*args, cwd=project)

    assert done.returncode == 2, done.stderr
    line = _one_line(done)
    assert line.startswith(f"sqrl: error: {flag} must be from "), line


@pytest.mark.parametrize("token", ["garbage", "abc==", "bzotMQ==", "bzp4"])
def test_a_page_token_no_service_issued_is_refused_naming_the_flag(
    sqrl: Sqrl, project: Path, token: str
) -> None:
    """`sqrl memories --page-token` with a token it never printed (a typo, one cut short,
    `o:-1`, `o:x`): the memory service's refusal named its request's field ("page_token is
    not one this service issued"); one line naming the flag, exit 2, services down or not."""
    done = sqrl("memories", "--page-token", token, cwd=project)

    assert done.returncode == 2, done.stderr
    line = _one_line(done)
    assert line.startswith(f"sqrl: error: --page-token {token!r} is not one"), line
    assert "page_token" not in line


def test_a_page_token_far_too_long_is_refused_without_being_printed_back(
    sqrl: Sqrl, project: Path
) -> None:
    """A paste gone wrong (100,000 characters) was printed back whole in the error line."""
    done = sqrl("memories", "--page-token", "x" * 100_000, cwd=project)

    assert done.returncode == 2, done.stderr[:300]
    line = _one_line(done)
    assert line.startswith("sqrl: error: --page-token of 100,000 characters is not one"), line
    assert len(line) < 300


@pytest.mark.parametrize(
    "args", [("remember", "caf\udce9 au lait"), ("search", "caf\udce9"), ("init", "caf\udce9")]
)
def test_an_argument_that_is_not_utf8_is_refused_in_one_line(
    sqrl: Sqrl, project: Path, sqrl_home: Path, args: tuple[str, ...]
) -> None:
    """A Latin-1 terminal's "café" (byte 0xE9) arrives as a lone surrogate, which no message
    can carry: a traceback before; now one line showing the byte, exit 2, nothing written."""
    before = json.loads((sqrl_home / "projects.json").read_text())

    done = sqrl(*args, cwd=project)

    assert done.returncode == 2, done.stderr
    assert "caf\\xe9" in _one_line(done) and "UTF-8" in _one_line(done)
    assert json.loads((sqrl_home / "projects.json").read_text()) == before


@pytest.mark.parametrize(
    "args",
    [
        ("search", "login", "--project", "{loop}"),
        ("memories", "--project", "{loop}"),
        ("remember", "Tests run with make check", "--project", "{loop}/sub"),
        ("init", "{loop}"),
        ("projects", "--register", "{loop}"),
        ("hooks", "install", "--project", "{loop}"),
        ("search", "login", "--project", "~no-such-user-here/app"),
        ("init", "~no-such-user-here/app"),
    ],
)
def test_a_path_that_leads_nowhere_is_refused_in_one_line(
    sqrl: Sqrl, project: Path, sqrl_home: Path, args: tuple[str, ...]
) -> None:
    """A symbolic link to itself, or `~user/` of a user this machine does not know: a traceback
    before (`sqrl init`, `search`, `projects --register`), or "no project is registered" with
    advice to run `sqrl init`, which refuses it too. One line saying why, exit 2, nothing written."""
    loop = project / "loop"
    loop.symlink_to("loop")
    before = json.loads((sqrl_home / "projects.json").read_text())

    done = sqrl(*(a.format(loop=loop) for a in args), cwd=project)

    assert done.returncode == 2, done.stderr
    line = _one_line(done)
    assert "loop of symbolic links" in line or "home folder this machine does not know" in line
    assert json.loads((sqrl_home / "projects.json").read_text()) == before


def test_init_of_a_name_too_long_for_the_file_system_is_a_missing_folder(
    sqrl: Sqrl, project: Path, sqrl_home: Path
) -> None:
    """It said "File name too long: …" and exited 1; a path that cannot exist is the
    argument's fault, as a missing folder is."""
    before = json.loads((sqrl_home / "projects.json").read_text())

    done = sqrl("init", str(project / ("a" * 300)), cwd=project)

    assert done.returncode == 2, done.stderr
    assert _one_line(done).endswith(" does not exist")
    assert json.loads((sqrl_home / "projects.json").read_text()) == before


def test_argparse_usage_errors_still_exit_2(sqrl: Sqrl, project: Path) -> None:
    done = sqrl("remember", "x", "--type", "gossip", cwd=project)
    assert done.returncode == 2
    assert "invalid choice" in done.stderr and "Traceback" not in done.stderr


def test_a_path_registered_nowhere_is_not_a_bad_argument(
    sqrl: Sqrl, project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = sqrl("memories", "--project", str(elsewhere))
    assert done.returncode == 1
    assert "sqrl init" in _one_line(done)


def test_a_projects_file_that_does_not_parse_is_not_a_bad_argument(
    sqrl: Sqrl, project: Path, sqrl_home: Path
) -> None:
    """The registry is the home's state, not a value the user gave: exit 1, saying the file."""
    (sqrl_home / "projects.json").write_text("{not json")

    done = sqrl("memories", cwd=project)

    assert done.returncode == 1, done.stderr
    assert "projects.json" in _one_line(done)


ROOT = Path(__file__).resolve().parents[3]


def _documented_codes() -> dict[int, str]:
    """docs/cli.md's exit-code table: code -> whose fault."""
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", (ROOT / "docs" / "cli.md").read_text(), re.M)
    return {int(code): fault.strip() for code, fault in rows}


def test_the_documented_codes_are_the_ones_sqrl_exits_with() -> None:
    assert _documented_codes() == {
        0: "nobody's",
        exits.FAILED: "not the arguments'",
        exits.USAGE_ERROR: "the arguments'",
        130: "nobody's",
        exits.READER_GONE: "nobody's",
    }


def test_a_command_that_did_what_it_was_asked_exits_0(sqrl: Sqrl, project: Path) -> None:
    done = sqrl("config", "get", "hooks.deadline_ms", cwd=project)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "refused",
    [
        # The embedder's vector refused by the index (FAISS or pgvector): the service's state.
        VectorRefusedError("vectors must have 384 dimensions"),
        # What a service sent back for one, over gRPC.
        error_named("FAILED_PRECONDITION", "vectors must have 384 dimensions"),
    ],
)
def test_a_check_inside_a_service_is_not_the_arguments_fault(refused: SquirrelError) -> None:
    assert exits.exit_code(refused) == exits.FAILED


async def test_a_dsn_the_user_did_not_type_is_not_a_bad_argument() -> None:
    """`storage.postgres_dsn` is a setting: refused, it is the configuration's fault (exit 1)."""
    for dsn in ("", "host=a =b"):
        with pytest.raises(SquirrelError) as refused:
            await PostgresDatabase.open(dsn)
        assert exits.exit_code(refused.value) == exits.FAILED, dsn


def test_ctrl_c_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*_: object, **__: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "load_settings", interrupted)

    assert cli_main.main(["memories"]) == 130
    assert "Traceback" not in capsys.readouterr().err


def test_ctrl_c_while_up_waits_says_the_services_go_on_starting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`sqrl up -d` interrupted while it waited for the services exited 130 saying nothing,
    though the supervisor (in a session of its own) goes on starting them."""
    from squirrel_cli.commands import services  # noqa: PLC0415 - the module under test

    real_popen = subprocess.Popen
    started: list[subprocess.Popen[bytes]] = []

    def supervisor(args: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        if "squirrel_cli.supervise" not in args:  # the home's set-up
            return real_popen(args, **kwargs)
        stand_in = [sys.executable, "-c", "import time; time.sleep(120)"]
        started.append(real_popen(stand_in, **kwargs))
        return started[-1]

    def interrupted(_path: Path) -> None:  # Ctrl-C while it waits for the services
        raise KeyboardInterrupt

    for name in [k for k in os.environ if k.startswith("SQRL_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("SQRL_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(services.subprocess, "Popen", supervisor)
    monkeypatch.setattr(services, "read_supervisor_state", interrupted)
    try:
        assert cli_main.main(["up", "-d"]) == 130
    finally:
        for proc in started:
            proc.kill()
            proc.wait()
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert f"go on starting (supervisor pid {started[0].pid})" in err and "sqrl down" in err
