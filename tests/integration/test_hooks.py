"""`sqrl hook` end to end: the real command against real services, and every fail-open path."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fake_memory import register_projects, running_fake_memory  # type: ignore[import-not-found]

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_core.settings import Settings
from squirrel_gateway import server as gateway_server
from squirrel_ingest import server as ingest_server
from squirrel_memory import server as memory_server
from squirrel_memory.bootstrap import init_project_files
from tests.conftest import PATIENCE_SECONDS, wait_until
from tests.integration.conftest import memory_client, running
from tests.transcripts import FIXTURES, place_claude

SQRL = str(Path(sys.executable).parent / "sqrl")
HOOK_FIXTURES = Path(__file__).parents[1] / "fixtures" / "hooks"
INPUTS: dict[str, dict[str, dict[str, Any]]] = json.loads(
    (HOOK_FIXTURES / "inputs.json").read_text()
)
SCHEMAS: dict[str, Any] = json.loads((HOOK_FIXTURES / "output-schemas.json").read_text())
TURN_1 = FIXTURES / "claude" / "incremental-simple" / "turn-1.jsonl"


def hook_input(host: str, event: str, cwd: Path, **extra: str) -> bytes:
    payload = dict(INPUTS[host][event])
    payload.update(cwd=str(cwd), transcript_path="", prompt="add a delete endpoint and its tests")
    payload.update(extra)
    return json.dumps(payload).encode()


async def run_hook(
    home: Path, host: str, event: str, stdin: bytes, **env: str
) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one real `sqrl hook` process. Its deadline is the longest
    allowed unless a test sets one: the default second is for a host's turn, and a loaded machine
    starting the process can spend it before the gateway answers (a test of the deadline sets it)."""
    proc = await asyncio.create_subprocess_exec(
        SQRL,
        "hook",
        host,
        event,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "SQRL_HOME": str(home), "SQRL_HOOKS_DEADLINE_MS": "60000", **env},
    )
    out, err = await proc.communicate(stdin)
    return int(proc.returncode or 0), out.decode(), err.decode()


def unanswered_reasons(stderr: str) -> list[str]:
    """The reasons the hook reported on stderr for printing nothing."""
    reasons = []
    for line in stderr.splitlines():
        record = json.loads(line)
        if record.get("event") == "hook_unanswered":
            reasons.append(record["reason"])
    return reasons


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    return root.resolve()


@pytest.fixture
async def gateway(make_settings: Callable[..., Settings], project: Path) -> AsyncIterator[Settings]:
    settings = make_settings()
    register_projects(settings, [str(project)])
    async with running_fake_memory(settings), running("gateway", gateway_server.setup, settings):
        yield settings


@pytest.mark.parametrize(
    ("host", "event"),
    [
        ("claude", "SessionStart"),
        ("claude", "UserPromptSubmit"),
        ("codex", "SessionStart"),
        ("codex", "UserPromptSubmit"),
        ("gemini", "SessionStart"),
        ("gemini", "BeforeAgent"),
    ],
)
async def test_each_host_gets_context_in_its_own_format(
    gateway: Settings, project: Path, host: str, event: str
) -> None:
    code, out, _ = await run_hook(gateway.home, host, event, hook_input(host, event, project))
    assert code == 0
    data = json.loads(out)
    jsonschema.validate(data, SCHEMAS[host])
    context = data["hookSpecificOutput"]["additionalContext"]
    assert "not instructions" in context and "📏 ~" in context


@pytest.mark.parametrize(("host", "event"), [("claude", "SessionEnd"), ("codex", "Stop")])
async def test_end_events_print_nothing(
    gateway: Settings, project: Path, host: str, event: str
) -> None:
    code, out, err = await run_hook(gateway.home, host, event, hook_input(host, event, project))
    assert (code, out) == (0, "")
    assert unanswered_reasons(err) == []  # answered with nothing: not a failure to report


async def test_a_folder_outside_every_project_gets_nothing(
    gateway: Settings, tmp_path: Path
) -> None:
    code, out, _ = await run_hook(
        gateway.home, "claude", "SessionStart", hook_input("claude", "SessionStart", tmp_path)
    )
    assert (code, out) == (0, "")


@pytest.mark.parametrize(
    "stdin", [b"", b"{half", b"[1,2]", b"\xff\xfe", b'{"cwd": 12}', b"x" * 1_100_000]
)
async def test_bad_input_prints_nothing(gateway: Settings, stdin: bytes) -> None:
    code, out, _ = await run_hook(gateway.home, "claude", "UserPromptSubmit", stdin)
    assert (code, out) == (0, "")


async def test_input_over_the_limit_is_reported_as_bad_input(gateway: Settings) -> None:
    stdin = b"x" * 1_100_000
    code, out, err = await run_hook(gateway.home, "claude", "UserPromptSubmit", stdin)
    assert (code, out, unanswered_reasons(err)) == (0, "", ["bad_input"])


@pytest.mark.parametrize(
    ("host", "event"), [("claude", "Nope"), ("cursor", "SessionStart"), ("../x", "y")]
)
async def test_unknown_hosts_and_events_print_nothing(
    gateway: Settings, host: str, event: str
) -> None:
    """Reported as bad input (a host or event name the gateway does not know), not as the
    gateway refusing: a typo in a hand-written hook said `gateway_refused`."""
    code, out, err = await run_hook(gateway.home, host, event, b"{}")
    assert (code, out, unanswered_reasons(err)) == (0, "", ["bad_input"])


@pytest.mark.parametrize("stdin", [b"{half", b"[1,2]", b"\xff\xfe"])
async def test_input_the_gateway_refuses_is_reported_as_bad_input(
    gateway: Settings, stdin: bytes
) -> None:
    code, out, err = await run_hook(gateway.home, "claude", "UserPromptSubmit", stdin)
    assert (code, out, unanswered_reasons(err)) == (0, "", ["bad_input"])


async def test_services_down_print_nothing_at_once(tmp_path: Path, project: Path) -> None:
    """Nothing is running: the hook gives up at once, not at its deadline (the deadline is the
    longest allowed, so a hook that waited would report that it ran out of time). How fast it
    gives up is measured in bench/hook_latency.py."""
    home = tmp_path / "empty-home"
    code, out, err = await run_hook(
        home,
        "claude",
        "UserPromptSubmit",
        hook_input("claude", "UserPromptSubmit", project),
        SQRL_HOOKS_DEADLINE_MS="60000",
    )
    assert (code, out) == (0, "")
    assert unanswered_reasons(err) == ["gateway_not_running"]


async def test_a_broken_config_prints_nothing(tmp_path: Path, project: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("[hooks\ndeadline_ms = = 3\n")
    code, out, _ = await run_hook(
        home, "claude", "SessionStart", hook_input("claude", "SessionStart", project)
    )
    assert (code, out) == (0, "")


@dataclass
class SilentGateway:
    """A 'gateway' that accepts connections and never answers; `home` points at it."""

    home: Path
    held: list[socket.socket]

    def first_request_head(self) -> bytes:
        """The request line and headers the first connection sent (it may still be queued)."""
        wait_until(lambda: self.held)
        conn = self.held[0]
        conn.settimeout(PATIENCE_SECONDS)
        received = b""
        while b"\r\n\r\n" not in received and (chunk := conn.recv(65536)):
            received += chunk
        return received.partition(b"\r\n\r\n")[0]


@pytest.fixture
def silent_server(tmp_path: Path) -> Iterator[SilentGateway]:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    home = tmp_path / "slow-home"
    (home / "run").mkdir(parents=True)
    (home / "token").write_text("t")
    (home / "run" / "gateway-mcp.json").write_text(
        json.dumps(
            {"name": "gateway-mcp", "pid": 1, "host": "127.0.0.1", "port": port, "started_at": 0}
        )
    )
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
                held.append(conn)
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield SilentGateway(home, held)
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


async def test_a_silent_gateway_is_abandoned_at_the_deadline(
    silent_server: SilentGateway, project: Path
) -> None:
    """The gateway got the request and never answers: the hook exits at its deadline (a hook
    that waited for the answer would never exit), with that reason."""
    code, out, err = await run_hook(
        silent_server.home,
        "claude",
        "UserPromptSubmit",
        hook_input("claude", "UserPromptSubmit", project),
        SQRL_HOOKS_DEADLINE_MS="300",
    )
    assert (code, out) == (0, "")
    assert unanswered_reasons(err) == ["deadline_passed"]
    assert silent_server.first_request_head().startswith(b"POST /hooks/claude/UserPromptSubmit ")


def _now_transcript(claude_root: Path, project: Path) -> tuple[Path, str]:
    """The incremental fixture placed for `project`, its timestamps moved to now (an active
    session the processor would otherwise hold back for the episode gap)."""
    target = place_claude(TURN_1, claude_root, str(project), "live.jsonl")
    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    lines = []
    session = ""
    for line in target.read_text().splitlines():
        record = json.loads(line)
        if "timestamp" in record:
            record["timestamp"] = now
        session = record.get("sessionId", session)
        lines.append(json.dumps(record))
    target.write_text("\n".join(lines) + "\n")
    return target, session


async def test_session_end_processes_the_finished_session_at_once(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    project = (tmp_path / "proj").resolve()
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    claude_root = tmp_path / "claude-projects"
    claude_root.mkdir()
    settings = make_settings(
        ingest_claude_roots=str(claude_root),
        ingest_codex_roots=str(tmp_path / "none-codex"),
        ingest_gemini_roots=str(tmp_path / "none-gemini"),
        ingest_cursor_roots=str(tmp_path / "none-cursor"),
        ingest_rescan_seconds="3600",
        processor_min_events="1000000",
    )
    layout = HomeLayout(settings.home).ensure()
    init_project_files(project)
    add_project(layout.projects, project)
    transcript, session = _now_transcript(claude_root, project)
    async with (
        running("memory", memory_server.setup, settings) as mem,
        running("ingest", ingest_server.setup, settings),
        running("gateway", gateway_server.setup, settings),
    ):

        async def status() -> Any:
            async with memory_client(mem, settings) as client:
                reply = await client.call(
                    client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest()
                )
                return reply.projects[0]

        code, out, _ = await run_hook(
            settings.home,
            "claude",
            "SessionEnd",
            hook_input(
                "claude", "SessionEnd", project, session_id=session, transcript_path=str(transcript)
            ),
        )
        assert (code, out) == (0, "")
        deadline = time.monotonic() + PATIENCE_SECONDS
        while True:
            current = await status()
            if current.events_total and current.events_unprocessed == 0:
                break
            assert time.monotonic() < deadline, "the ended session was not processed"
            await asyncio.sleep(0.1)
        assert current.episodes_total >= 1


async def test_each_host_is_spared_the_instruction_file_it_loads_itself(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    from tests.unit.memory.repository.conftest import ELIXIR, commit, git  # noqa: PLC0415

    project = (tmp_path / "heron").resolve()
    project.mkdir()
    git(project, "init", "-q", "-b", "main")
    agents = "# Agents\n\n- Never edit files under `priv/static/` by hand.\n"
    commit(project, {**ELIXIR, "AGENTS.md": agents}, message="initial")
    settings = make_settings(processor_min_events="1000000")
    layout = HomeLayout(settings.home).ensure()
    add_project(layout.projects, project)
    async with (
        running("memory", memory_server.setup, settings) as mem,
        running("gateway", gateway_server.setup, settings),
    ):
        async with memory_client(mem, settings) as client:
            await client.call(
                client.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project))
            )
            deadline = time.monotonic() + PATIENCE_SECONDS
            while True:
                reply = await client.call(
                    client.stub.ListMemories,
                    pb.ListMemoriesRequest(project_id=str(project), page_size=500),
                )
                keys = {m.key for m in reply.memories}
                if sum(k.startswith("repo:rule:") for k in keys) >= 3:
                    break
                assert time.monotonic() < deadline, "the repository was not read"
                await asyncio.sleep(0.2)

        async def prompt(host: str) -> str:
            stdin = hook_input(
                host,
                "UserPromptSubmit",
                project,
                prompt="Req for HTTP requests to the map tiles; priv static files by hand",
            )
            code, out, _ = await run_hook(settings.home, host, "UserPromptSubmit", stdin)
            assert code == 0 and out, host
            return str(json.loads(out)["hookSpecificOutput"]["additionalContext"])

        claude, codex = await prompt("claude"), await prompt("codex")

    # The rules each file gave reach the other host, never the host that loads the file.
    assert "Project instruction (CLAUDE.md)" not in claude
    assert "Project instruction (AGENTS.md)" in claude
    assert "Project instruction (AGENTS.md)" not in codex
    assert "Project instruction (CLAUDE.md)" in codex
