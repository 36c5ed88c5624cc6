"""`sqrl status`, `search`, `context`, `view` and `memories` read through the gateway's loopback HTTP routes
without loading gRPC, print exactly what the full CLI prints, and fall back to it when the routes
are not there."""

from __future__ import annotations

import base64
import json
import os
import pty
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from bench.held_ports import refusing_port
from squirrel_cli import quick
from tests.conftest import wait_until
from tests.e2e.started import Started, started

pytestmark = pytest.mark.e2e

Sqrl = Callable[..., subprocess.CompletedProcess[str]]

# Runs `sqrl` as the console script does (quick client first), or only the full CLI; then names
# the heavy modules that were loaded.
_PROBE = (
    "import sys\n"
    "from squirrel_cli.{module} import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    "heavy = ('grpc', 'google.protobuf', 'asyncio', 'rich', 'structlog', 'squirrel_gateway')\n"
    "sys.stderr.write('LOADED ' + ' '.join(m for m in heavy if m in sys.modules) + '\\n')\n"
    "sys.exit(code)\n"
)
HEAVY_ON_THE_QUICK_PATH = {"grpc", "google.protobuf", "asyncio", "rich", "structlog"}


class Run:
    def __init__(self, done: subprocess.CompletedProcess[str]) -> None:
        lines = done.stderr.splitlines()
        self.code = done.returncode
        self.stdout = done.stdout
        self.stderr = "".join(line + "\n" for line in lines if not line.startswith("LOADED"))
        loaded = [line for line in lines if line.startswith("LOADED")]
        assert len(loaded) == 1, done.stderr
        self.loaded = set(loaded[0].split()[1:])


def _quiet(base: Path) -> dict[str, str]:
    """Settings under which nothing moves by itself: no transcripts to read, no processing."""
    none = base / "no-transcripts"
    return {
        "SQRL_INGEST_CLAUDE_ROOTS": str(none / "claude"),
        "SQRL_INGEST_CODEX_ROOTS": str(none / "codex"),
        "SQRL_INGEST_GEMINI_ROOTS": str(none / "gemini"),
        "SQRL_INGEST_CURSOR_ROOTS": str(none / "cursor"),
        "SQRL_INGEST_GIT_POLL_SECONDS": "3600",
        "SQRL_PROCESSOR_MIN_EVENTS": "100000000",
        "SQRL_PROCESSOR_INTERVAL_SECONDS": "3600",
        "COLUMNS": "200",
    }


def _run(env: dict[str, str], cwd: Path, argv: list[str], *, full: bool = False) -> Run:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(module="main" if full else "entry"), *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return Run(done)


def _run_on_terminal(env: dict[str, str], cwd: Path, argv: list[str], *, full: bool = False) -> Run:
    """As `_run`, with stdout on a pseudo-terminal (where tables and markdown are drawn)."""
    main, secondary = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", _PROBE.format(module="main" if full else "entry"), *argv],
            cwd=cwd,
            env=env,
            stdout=secondary,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.close(secondary)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # EIO: the command has exited
                break
            if not chunk:
                break
            shown += chunk
        _, errors = proc.communicate(timeout=120)
    finally:
        os.close(main)
    return Run(subprocess.CompletedProcess(argv, proc.returncode, shown.decode(), errors))


class Running(NamedTuple):
    services: Started
    repo: Path

    @property
    def home(self) -> Path:
        return self.services.home


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """One project with two memories behind running services, shared by the tests that only
    read (`test_without_the_http_endpoint_the_full_cli_answers` puts back what it moves)."""
    base = tmp_path_factory.mktemp("quick-cli")
    with started(base, **_quiet(base)) as services:
        # The gateway records its HTTP endpoint a moment after it reports SERVING; until then
        # the reads go over gRPC (`test_without_the_http_endpoint_the_full_cli_answers`).
        wait_until((services.home / "run" / "gateway-mcp.json").exists)
        repo = services.project(base / "repo")
        for text in (
            "Run the tests with pytest -x from the repository root",
            "The API handlers live in src/api/handlers.py; add tests beside them",
        ):
            made = services.sqrl("remember", text, cwd=repo)
            assert made.returncode == 0, made.stderr
        yield Running(services, repo)


@pytest.fixture
def env(running: Running) -> dict[str, str]:
    """This test's own copy of the environment that reaches the running services."""
    return dict(running.services.env)


def _both(
    run: Callable[..., Run], env: dict[str, str], cwd: Path, argv: list[str]
) -> tuple[Run, Run]:
    """The quick and the full run of a command; run again, a second apart, while their outputs
    differ, as the services' state may move between two runs (ingest's first scan, the vector
    index catching up: on a busy machine that takes many seconds)."""
    for attempt in range(_TRIES):
        fast, full = run(env, cwd, argv), run(env, cwd, argv, full=True)
        if _steady(fast.stdout) == _steady(full.stdout):
            break
        if attempt < _TRIES - 1:
            time.sleep(1.0)
    return fast, full


#: How often `_both` runs a pair whose outputs differ before it gives up.
_TRIES = 30


def _steady(text: str) -> str:
    """Output with what moves between two runs (uptimes, times of generation) blanked."""
    text = re.sub(r'"(uptime_seconds|generated_at)": [^,\n]+', r'"\1": _', text)
    text = re.sub(r"\t(\d+h)?\d+m\d\ds\t", "\t_\t", text)
    return re.sub(r"(?<= )(\d+h)?\d+m\d\ds(?= )", "_", text)  # drawn tables


READS: tuple[list[str], ...] = (
    ["status"],
    ["status", "--json"],
    ["search", "tests"],
    ["search", "tests", "--json"],
    ["search", "tests", "-k", "1", "--type", "project_fact"],
    ["search", "nothing like this at all xyzzy"],
    ["context", "add an endpoint and its tests"],
    ["context", "add an endpoint and its tests", "--json", "--budget", "120"],
    ["view", "brief"],
    ["view", "brief", "--mode", "full", "--json"],
    ["view", "style", "--budget", "200"],
    ["view", "pitfalls", "--task", "run the tests", "--paths", "src"],
    ["view", "pitfalls", "--json"],
    ["memories"],
    ["memories", "--json", "--limit", "1"],
)


def test_the_quick_reads_print_what_the_full_cli_prints_without_grpc(
    running: Running, env: dict[str, str]
) -> None:
    repo = running.repo
    for argv in READS:
        fast, full = _both(_run, env, repo, argv)
        assert fast.code == 0, (argv, fast.stderr)
        assert full.code == 0, (argv, full.stderr)
        assert fast.stdout.strip(), argv
        assert _steady(fast.stdout) == _steady(full.stdout), argv
        assert fast.stderr == full.stderr == "", argv
        assert not fast.loaded & HEAVY_ON_THE_QUICK_PATH, (argv, fast.loaded)
        assert "grpc" in full.loaded, argv  # the comparison is with the gRPC path
    status = json.loads(_run(env, repo, ["status", "--json"]).stdout)
    assert [s["health"] for s in status["services"]] == ["SERVING"] * 3
    assert all(
        s["pid"] and s["port"] and s["uptime_seconds"] is not None for s in status["services"]
    )
    assert status["projects"][0]["memories"] == 2 and status["projects"][0]["unprocessed"] == 0
    assert status["ingest"] is not None and "claude_code" in status["ingest"]["sources"]


def test_on_a_terminal_the_gateway_draws_what_rich_would_draw_here(
    running: Running, env: dict[str, str]
) -> None:
    repo = running.repo
    env.update(TERM="xterm-256color", COLUMNS="90")
    for argv in (
        ["status"],
        ["search", "tests"],
        ["context", "run the tests"],
        ["view", "brief"],
        ["memories"],
    ):
        fast, full = _both(_run_on_terminal, env, repo, argv)
        assert fast.code == full.code == 0, (argv, fast.stderr, full.stderr)
        assert "\x1b[" in fast.stdout, argv  # drawn for the terminal
        assert _steady(fast.stdout) == _steady(full.stdout), argv
        assert not fast.loaded & HEAVY_ON_THE_QUICK_PATH, (argv, fast.loaded)
        assert "rich" in full.loaded, argv


def test_the_quick_reads_fail_like_the_full_cli(
    running: Running, env: dict[str, str], tmp_path: Path
) -> None:
    repo = running.repo
    elsewhere = tmp_path / "not-a-project"
    elsewhere.mkdir()
    # A project registered nowhere exits 1; a bad argument value 2, as a usage error does.
    for cwd, argv, code in (
        (elsewhere, ["search", "tests"], 1),
        (elsewhere, ["context", "anything"], 1),
        (elsewhere, ["memories"], 1),
        (elsewhere, ["view", "brief"], 1),
        (repo, ["view", "pitfalls", "--budget", "0"], 2),
        (repo, ["search", "tests", "--budget", "0"], 2),
        (repo, ["search", "tests", "-k", "500"], 2),
        (repo, ["status", "--sessions", "0"], 2),
        (repo, ["status", "--sessions", "many", "--json"], 2),
    ):
        fast = _run(env, cwd, argv)
        full = _run(env, cwd, argv, full=True)
        assert fast.code == full.code == code, (argv, fast.stderr, full.stderr)
        assert fast.stderr == full.stderr, argv
        assert fast.stderr.startswith("sqrl: error:") and fast.stderr.count("\n") == 1
        assert fast.stdout == full.stdout == "", argv
        assert "grpc" not in fast.loaded, argv


def test_a_value_a_service_refuses_is_named_as_the_commands_argument(
    running: Running, env: dict[str, str]
) -> None:
    """The services refuse a value naming their request's field (`scope_paths must not be
    empty`, `task_description …`, `active_file_paths …`): `sqrl` names the argument the value
    came in (`--paths`, `task`, `--files`), the quick reads and the full CLI alike."""
    for argv, named in (
        (["context", " "], "task must not be empty"),
        (["context", "add a page", "--files", "a.py", ""], "--files must not be empty"),
        (["search", "tests", "--paths", "../up"], "--paths entry '../up' climbs out"),
        (["view", "pitfalls", "--paths", ""], "--paths must not be empty"),
        (["search", "tests", "--cursor", "garbage"], "--cursor is not"),
    ):
        fast = _run(env, running.repo, argv)
        full = _run(env, running.repo, argv, full=True)
        assert fast.code == full.code == 2, (argv, fast.stderr, full.stderr)
        assert fast.stderr == full.stderr, argv
        assert fast.stderr.startswith(f"sqrl: error: {named}"), (argv, fast.stderr)
        assert fast.stderr.count("\n") == 1, argv


def test_status_counts_outcomes_over_the_sessions_asked(
    running: Running, env: dict[str, str]
) -> None:
    repo = running.repo
    for argv in (["status", "--json"], ["status", "--sessions", "3", "--json"]):
        fast, full = _both(_run, env, repo, argv)
        assert fast.code == full.code == 0 and "grpc" not in fast.loaded, fast.stderr
        for run in (fast, full):
            [project] = json.loads(run.stdout)["projects"]
            assert project["outcomes"]["last"] == (3 if "3" in argv else 20)


def test_without_the_http_endpoint_the_full_cli_answers(
    running: Running, env: dict[str, str]
) -> None:
    repo, sqrl_home = running.repo, running.home
    info = sqrl_home / "run" / "gateway-mcp.json"
    recorded = info.read_text()
    token = sqrl_home / "token"
    try:
        # Not written yet (the gateway is still starting), nobody listening, a wrong token. An
        # empty record reads as none; one deleted, the supervisor would write again at once.
        info.write_text("")
        _falls_back(env, repo)
        with refusing_port() as closed:
            info.write_text(json.dumps({**json.loads(recorded), "port": closed}))
            _falls_back(env, repo)
        info.write_text(recorded)
        with pytest.raises(quick.FallBackError):
            quick.call(sqrl_home, "no-such-route", {})
        real = token.read_text()
        token.write_text("not-the-token\n")
        try:
            with pytest.raises(quick.FallBackError):
                quick.call(sqrl_home, "status", {"ports": {}})
        finally:
            token.write_text(real)
    finally:
        info.write_text(recorded)
    assert quick.call(sqrl_home, "status", {"ports": {}})["health"] == {}


def _falls_back(env: dict[str, str], repo: Path) -> None:
    for argv in (
        ["status"],
        ["search", "tests"],
        ["context", "tests"],
        ["view", "brief"],
        ["memories", "--json"],
    ):
        done = _run(env, repo, argv)
        assert done.code == 0, (argv, done.stderr)
        assert done.stdout.strip() and done.stderr == "", argv
        assert "grpc" in done.loaded, argv


def test_with_the_services_down_the_answers_are_the_full_clis(
    sqrl: Sqrl, sqrl_env: dict[str, str], repo: Path, tmp_path: Path
) -> None:
    sqrl_env.update(_quiet(tmp_path))  # a home of its own, where nothing was started
    env = sqrl_env
    assert sqrl("init", cwd=repo).returncode == 0
    for argv in (["status"], ["status", "--json"], ["search", "tests"], ["memories"]):
        fast = _run(env, repo, argv)
        full = _run(env, repo, argv, full=True)
        assert (fast.code, fast.stdout, fast.stderr) == (full.code, full.stdout, full.stderr)
    down = _run(env, repo, ["status"])
    assert down.code == 0 and "not running" in down.stdout
    assert "grpc" not in down.loaded  # nothing runs: nothing to ask


def test_the_cli_routes_refuse_what_they_do_not_take(running: Running) -> None:
    sqrl_home = running.home
    for body in ({"ports": {"memory": "x"}}, {"ports": {"nginx": 80}}):
        with pytest.raises(quick.FallBackError):
            quick.call(sqrl_home, "status", body)
    with pytest.raises(quick.FallBackError):
        quick.call(sqrl_home, "search", {"project_root": 3})
    for body in ({"which": "nonsense"}, {"which": "brief", "mode": "huge"}):
        with pytest.raises(quick.FallBackError):
            quick.call(sqrl_home, "view", body)
    with refusing_port() as closed:
        answer: dict[str, Any] = quick.call(sqrl_home, "status", {"ports": {"memory": closed}})
    assert answer["health"] == {"memory": "UNREACHABLE"}


def _refusal(sqrl_home: Path, route: str, body: dict[str, Any]) -> tuple[int, str]:
    """The HTTP status and error message the gateway answers `body` with on `/cli/<route>`."""
    with quick.post(sqrl_home, route, body) as conn:
        conn.settimeout(quick.READ_TIMEOUT)
        answer = quick._receive(conn)
    head, _, payload = answer.partition(b"\r\n\r\n")
    error = json.loads(payload).get("error") or {}
    return int(head.split()[1]), str(error.get("message", "") if isinstance(error, dict) else "")


def test_a_switch_of_the_cli_routes_is_a_json_boolean_or_refused_naming_it(
    running: Running,
) -> None:
    """`json`, `local`, `counts` and `include_deleted` are read as JSON booleans: the string
    "false" (or 0, null, "no") was read as true, and `--json` output came back for it."""
    sqrl_home, repo = running.home, str(running.repo)
    routes = {
        "search": {"project_root": repo, "query": "tests"},
        "context": {"project_root": repo, "task_description": "add an endpoint"},
        "view": {"which": "brief", "project_root": repo},
        "memories": {"project": repo},
        "status": {"ports": {}},
    }
    switches = {
        "search": ("json", "local"),
        "context": ("json", "local"),
        "view": ("json", "local"),
        "memories": ("include_deleted", "local"),
        "status": ("counts",),
    }
    for route, names in switches.items():
        for name in names:
            for value in ("false", "true", 0, 1, None, "no", [], {}):
                status, message = _refusal(sqrl_home, route, {**routes[route], name: value})
                assert status == 400, (route, name, value)
                assert message == f"{name} must be true or false", (route, name, value)
    # a list given as no list was read as an empty one (no filter) when it was false-ish
    for route, name, value in (
        ("search", "types", ""),
        ("search", "scope_paths", False),
        ("context", "active_file_paths", 0),
        ("memories", "types", {}),
    ):
        status, message = _refusal(sqrl_home, route, {**routes[route], name: value})
        assert (status, message) == (400, f"{name} must be a list of strings"), (route, name)
    # a real false is the text shape, a real true the JSON one
    for route in ("search", "context", "view"):
        text = quick.call(sqrl_home, route, {**routes[route], "json": False})
        as_json = quick.call(sqrl_home, route, {**routes[route], "json": True})
        assert "json" not in text and "json" in as_json, route
    listed = quick.call(sqrl_home, "memories", {**routes["memories"], "include_deleted": False})
    assert len(listed["memories"]) == 2
    counted = quick.call(sqrl_home, "status", {"ports": {}, "counts": True})
    assert counted["counts"]
    assert quick.call(sqrl_home, "status", {"ports": {}, "counts": False})["counts"] == {}


def test_a_render_body_whose_terminal_is_no_object_is_refused_not_a_crash(
    running: Running,
) -> None:
    """`/cli/render` with `"terminal": "x"` (or a list) was a 500 and a crash in the log."""
    for terminal in ("x", [1], 80):
        status, message = _refusal(running.home, "render", {"terminal": terminal, "drawings": []})
        assert (status, message) == (400, "not a terminal description"), terminal


DEEP = b"[" * 100_000 + b"]" * 100_000
"""JSON nested deeper than Python's parser follows (200 KB): it raises RecursionError, which is
no ValueError."""


def _posted(sqrl_home: Path, path: str, payload: bytes) -> tuple[int, bytes]:
    """The HTTP status and body the gateway answers `payload` POSTed raw to `path` with."""
    host, port, token = quick._endpoint(sqrl_home)
    request = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode("latin-1") + payload
    with socket.create_connection((host, port), timeout=30) as conn:
        conn.sendall(request)
        answer = quick._receive(conn)
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_json_nested_too_deep_is_refused_as_malformed_json(
    running: Running, env: dict[str, str]
) -> None:
    """A body (or a search cursor) nested past the parser's depth was a crash: a 500 and a
    traceback in the log for the CLI's routes and the hooks, a search the CLI said failed."""
    status, body = _posted(running.home, "/cli/search", DEEP)
    assert status == 400 and json.loads(body)["error"]["message"] == (
        "the body must be a JSON object"
    )
    status, body = _posted(running.home, "/hooks/claude/SessionStart", DEEP)
    assert status == 400, body[:300]
    # a cursor of the right length whose JSON is nested too deep: the garbage cursor's answer
    cursor = base64.urlsafe_b64encode(b"[" * 1_500 + b"]" * 1_500).decode().rstrip("=")
    argv = ["search", "tests", "--cursor", cursor]
    fast, full = _run(env, running.repo, argv), _run(env, running.repo, argv, full=True)
    assert fast.code == full.code == 2, (fast.stderr[-300:], full.stderr[-300:])
    assert fast.stderr == full.stderr
    assert fast.stderr.startswith("sqrl: error: --cursor is not"), fast.stderr[-300:]
