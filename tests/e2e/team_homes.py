"""What the team end-to-end tests share: a Squirrel home run as real `sqrl` processes, a clone
of the team's repository, `sqrl serve` started with TLS on 127.0.0.1, a laptop that joins it
and runs `sqrl up`, and the events a laptop's ingest would have stored (Alice's session),
appended through its memory service."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psutil

from bench.held_ports import server_port
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.auth import load_token
from squirrel_core.clients import MemoryClient, open_channel, target_of
from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import read_service_info
from squirrel_core.wire import event_to_pb
from tests.conftest import wait_until
from tests.tls_certs import TlsFiles

TEAM_ID = "github.com/acme/shop"
SECRET = "ghp_" + "Z9" * 18
TRACEBACK = """\
Traceback (most recent call last):
  File "/home/alice/shop/src/cart.py", line 42, in <module>
ImportError: cannot import name 'Money' from 'shop.types' (/home/alice/shop/src/types.py)
"""


@dataclass
class Home:
    """One Squirrel home (a laptop's or the team server's), driven through `sqrl`."""

    name: str
    root: Path
    env: dict[str, str]
    repo: Path | None = None

    def sqrl(self, *args: str, stdin: str = "", cwd: Path | None = None) -> Any:
        return subprocess.run(
            [sys.executable, "-m", "squirrel_cli", *args],
            cwd=cwd or self.repo,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=180,
        )

    def json(self, *args: str) -> Any:
        done = self.sqrl(*args, "--json")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    @property
    def layout(self) -> HomeLayout:
        return HomeLayout(self.root)


def home_in(tmp_path: Path, name: str, **extra: str) -> Home:
    """A fresh home `name` under `tmp_path` that reads no transcripts and processes nothing on
    its own; `extra`: more `SQRL_` settings."""
    empty = tmp_path / "no-transcripts"
    empty.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env.update(
        SQRL_HOME=str(tmp_path / name / "home"),
        SQRL_GENERAL_USER_ID=name,
        SQRL_PROCESSOR_INTERVAL_SECONDS="3600",
        SQRL_PROCESSOR_MIN_EVENTS="1000000",
        SQRL_INGEST_CLAUDE_ROOTS=str(empty),
        SQRL_INGEST_CODEX_ROOTS=str(empty),
        SQRL_INGEST_GEMINI_ROOTS=str(empty),
        **extra,
    )
    return Home(name, tmp_path / name / "home", env)


def clone(tmp_path: Path, name: str, remote: str) -> Path:
    """`name`'s clone of the team's repository: one empty commit, `origin` spelled `remote`."""
    repo = tmp_path / name / "shop"
    repo.mkdir(parents=True)
    for args in (
        ["init", "-q", "-b", "main"],
        ["remote", "add", "origin", remote],
        ["-c", "user.email=a@b.c", "-c", "user.name=A", "commit", "-q", "--allow-empty", "-m", "x"],
    ):
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
    return repo.resolve()


def memory_pid(server: Home) -> int | None:
    """The pid of the team server's memory process, while it runs."""
    info = read_service_info(server.layout.team_server_file)
    return info.pid if info is not None and psutil.pid_exists(info.pid) else None


@contextmanager
def team_server(
    server: Home, tls: TlsFiles, log_path: Path
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """`sqrl serve` of `server` on a port held for it with `tls`, its output in `log_path`, once
    its memory process runs: (port, process). Stopped on leaving."""
    with server_port() as port, log_path.open("wb") as log:
        serve = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "squirrel_cli",
                "serve",
                "--address",
                f"127.0.0.1:{port}",
                "--tls-cert",
                str(tls.cert),
                "--tls-key",
                str(tls.key),
            ],
            env=server.env,
            stdout=log,
            stderr=log,
        )
        try:
            wait_until(lambda: memory_pid(server), timeout=120)
            yield port, serve
        finally:
            serve.terminate()
            try:
                serve.wait(60)
            except subprocess.TimeoutExpired:
                serve.kill()


def joined_laptop(
    tmp_path: Path, name: str, remote: str, port: int, tls: TlsFiles, token: str
) -> tuple[Home, str]:
    """`name`'s laptop: a home delivering every 0.2 s, a clone of `remote`, `sqrl init`,
    `sqrl team join` with `token`, then `sqrl up --detach`; with what the join printed."""
    home = home_in(tmp_path, name, SQRL_TEAM_DELIVER_SECONDS="0.2", SQRL_TEAM_MACHINE=f"{name}-mbp")
    home.repo = clone(tmp_path, name, remote)
    assert home.sqrl("init").returncode == 0
    joined = home.sqrl("team", "join", f"127.0.0.1:{port}", "--ca-file", str(tls.ca), stdin=token)
    assert joined.returncode == 0, joined.stderr
    up = home.sqrl("up", "--detach")
    assert up.returncode == 0, up.stderr
    return home, str(joined.stdout)


# --- events a laptop's ingest would have stored --------------------------------------------------

T0 = datetime.now(UTC) - timedelta(hours=2)


def session_event(
    kind: EventType, session: str, n: int, content: dict[str, Any], **kw: Any
) -> Event:
    """Event number `n` of `session`, as a Claude Code laptop's ingest would have stored it."""
    return Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=kind,
        timestamp=T0 + timedelta(seconds=20 * n),
        content=content,
        session_id=session,
        **kw,
    )


def alice_session() -> list[Event]:
    """Alice's session: a failing test run, the fix, the passing run, a style rule she typed and
    a command that echoed `SECRET`."""
    s = "sess-alice-1"
    return [
        session_event(
            EventType.USER_MESSAGE, s, 1, {"text": "Run the cart tests."}, origin=Origin.TYPED
        ),
        session_event(
            EventType.TEST_RUN,
            s,
            2,
            {
                "command": "uv run pytest tests/test_cart.py -x",
                "tool_use_id": "t1",
                "exit_code": 1,
                "is_error": True,
                "output": TRACEBACK,
            },
        ),
        session_event(
            EventType.CODE_CHANGE,
            s,
            3,
            {"tool": "Write", "tool_use_id": "t2", "path": "src/shop/types.py"},
            file_paths=("src/shop/types.py",),
        ),
        session_event(
            EventType.TEST_RUN,
            s,
            4,
            {
                "command": "uv run pytest tests/test_cart.py -q",
                "tool_use_id": "t3",
                "exit_code": 0,
                "is_error": False,
                "output": "3 passed",
            },
        ),
        session_event(
            EventType.USER_MESSAGE,
            s,
            5,
            {"text": "From now on, always use tabs for indentation in every file you write."},
            origin=Origin.TYPED,
        ),
        session_event(
            EventType.COMMAND_RUN,
            s,
            6,
            {"command": f"echo token {SECRET}", "tool_use_id": "t4", "exit_code": 0},
        ),
    ]


async def append_events(home: Home, events: list[Event]) -> None:
    """Store `events` in `home`'s memory service under its clone, as its ingest would."""
    assert home.repo is not None
    client = MemoryClient(
        open_channel(target_of(home.layout.service_file("memory"))),
        load_token(home.layout.token),
        timeout=120,
    )
    try:
        for start in range(0, len(events), 5_000):
            chunk = events[start : start + 5_000]
            reply = await client.call(
                client.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(home.repo), events=[event_to_pb(e) for e in chunk]
                ),
            )
            assert reply.accepted == len(chunk), reply
    finally:
        await client.close()
