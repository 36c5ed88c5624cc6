"""The first hook after `sqrl up`: when the gateway cannot answer before the deadline, the real
`sqrl hook` process prints the session-start text the gateway kept for this host, event and
folder, unless anything it was made from changed; otherwise nothing, as before.

The kept text is written by the gateway's real `HookService` (over a fake memory backend); the
late gateway is a real socket that takes the request and never answers, or a gateway serving
whose HTTP endpoint is not recorded yet (it starts a moment after SERVING).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from squirrel_core.start_texts import kept_start_text, mark_changed
from squirrel_gateway.hook_service import HookService, HookSettings
from tests.conftest import PATIENCE_SECONDS
from tests.unit.gateway.fakes import FakeBackend

ROOT = Path(__file__).resolve().parents[3]
DEADLINE_MS = 8000


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "CLAUDE.md").write_text("# Project\n\nRun `make check` before you finish.\n")
    return root


@pytest.fixture
def home(tmp_path: Path, repo: Path) -> Path:
    home = tmp_path / "home"
    (home / "run").mkdir(parents=True)
    (home / "token").write_text("secret\n")
    (home / "run" / "gateway-service.json").write_text("{}")  # the gateway reports SERVING
    (home / "projects.json").write_text(json.dumps({"projects": [str(repo.resolve())]}))
    return home


@pytest.fixture
def silent_gateway(home: Path) -> Iterator[None]:
    """A gateway endpoint that takes the request and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        endpoint = {"host": "127.0.0.1", "port": listener.getsockname()[1]}
        (home / "run" / "gateway-mcp.json").write_text(json.dumps(endpoint))
        yield


async def _kept_by_the_gateway(repo: Path, home: Path, host: str = "claude") -> str:
    """The gateway answers a session start (its answer is kept) and returns what it printed."""
    backend = FakeBackend(roots=[str(repo)], key_facts=["A Go service (go.mod)."])
    hooks = HookService(backend, HookSettings(), home / "run", keep_starts=True)  # type: ignore[arg-type]
    out = await hooks.answer(host, "SessionStart", {"cwd": str(repo), "source": "startup"})
    assert "A Go service" in out
    return out


def _hook(home: Path, cwd: Path, host: str = "claude") -> tuple[str, list[dict[str, object]]]:
    """Runs the real `sqrl hook <host> SessionStart`: what it printed, its stderr lines."""
    # A deadline long enough that reading the kept text in the last quarter never misses it on
    # a loaded machine (the default second leaves it a quarter of a second).
    env = {**os.environ, "SQRL_HOME": str(home), "SQRL_HOOKS_DEADLINE_MS": str(DEADLINE_MS)}
    stdin = json.dumps({"cwd": str(cwd), "session_id": "s-2", "source": "startup"})
    done = subprocess.run(
        [sys.executable, "-m", "squirrel_cli", "hook", host, "SessionStart"],
        input=stdin.encode(),
        env=env,
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    lines = [json.loads(line) for line in done.stderr.decode().splitlines() if line.startswith("{")]
    return done.stdout.decode().strip(), lines


@pytest.mark.usefixtures("silent_gateway")
async def test_a_late_gateway_leaves_the_kept_session_start_to_print(
    repo: Path, home: Path
) -> None:
    kept = await _kept_by_the_gateway(repo, home)
    printed, said = _hook(home, repo)
    assert printed == kept
    assert said == [{"event": "hook_answered_kept", "late": "deadline_passed"}]


async def test_a_gateway_whose_endpoint_is_not_up_yet_leaves_it_to_print(
    repo: Path, home: Path
) -> None:
    kept = await _kept_by_the_gateway(repo, home)
    printed, said = _hook(home, repo)
    assert printed == kept
    assert said == [{"event": "hook_answered_kept", "late": "gateway_not_running"}]


@pytest.mark.usefixtures("silent_gateway")
async def test_a_changed_memory_makes_the_kept_text_stale(repo: Path, home: Path) -> None:
    """Must not fire: the memory service marked a change after the text was kept."""
    await _kept_by_the_gateway(repo, home)
    mark_changed(home / "run")
    printed, said = _hook(home, repo)
    assert printed == ""
    assert said == [{"event": "hook_unanswered", "reason": "deadline_passed"}]


@pytest.mark.usefixtures("silent_gateway")
async def test_an_edited_instruction_file_makes_the_kept_text_stale(repo: Path, home: Path) -> None:
    """Must not fire: what the text leaves out depends on the files the host loads itself."""
    await _kept_by_the_gateway(repo, home)
    (repo / "CLAUDE.md").write_text("# Project\n\nRun `make check` and `make lint`.\n")
    assert _hook(home, repo)[0] == ""


@pytest.mark.usefixtures("silent_gateway")
async def test_a_never_seen_subfolder_of_the_project_gets_the_text_kept_for_the_project(
    repo: Path, home: Path
) -> None:
    """A session started in `repo/web/src` is a session of the project at `repo`: its text is
    the project's, kept whichever folder of the project the last session started in."""
    kept = await _kept_by_the_gateway(repo, home)
    inside = repo / "web" / "src"
    inside.mkdir(parents=True)
    assert _hook(home, inside)[0] == kept
    nested = repo / "docs"
    nested.mkdir()
    backend = FakeBackend(roots=[str(repo)], key_facts=["A Go service (go.mod)."])
    hooks = HookService(backend, HookSettings(), home / "run", keep_starts=True)  # type: ignore[arg-type]
    again = await hooks.answer("claude", "SessionStart", {"cwd": str(nested), "source": "startup"})
    assert again == kept
    assert _hook(home, repo)[0] == kept


@pytest.mark.usefixtures("silent_gateway")
async def test_a_registered_project_inside_another_keeps_its_own_text(
    repo: Path, home: Path
) -> None:
    """Must not fire across projects: a folder belongs to the deepest registered root."""
    await _kept_by_the_gateway(repo, home)
    inner = repo / "vendor" / "lib"
    inner.mkdir(parents=True)
    roots = [str(repo.resolve()), str(inner.resolve())]
    (home / "projects.json").write_text(json.dumps({"projects": roots}))
    assert _hook(home, inner / "src")[0] == ""


@pytest.mark.usefixtures("silent_gateway")
async def test_another_folder_or_host_gets_nothing_kept_for_this_one(
    repo: Path, home: Path
) -> None:
    """Must not fire: a text is kept for one host, event and folder."""
    await _kept_by_the_gateway(repo, home)
    elsewhere = repo.parent / "other"
    elsewhere.mkdir()
    assert _hook(home, elsewhere)[0] == ""
    assert _hook(home, repo, host="codex")[0] == ""


async def test_no_gateway_running_prints_nothing(repo: Path, home: Path) -> None:
    """Must not fire: services down (no gateway reported SERVING) is no late gateway."""
    await _kept_by_the_gateway(repo, home)
    (home / "run" / "gateway-service.json").unlink()
    printed, said = _hook(home, repo)
    assert printed == ""
    assert said == [{"event": "hook_unanswered", "reason": "gateway_not_running"}]


async def test_the_gateway_keeps_only_session_starts_and_drops_an_empty_one(
    repo: Path, home: Path
) -> None:
    backend = FakeBackend(roots=[str(repo)], key_facts=["A Go service (go.mod)."])
    hooks = HookService(backend, HookSettings(), home / "run", keep_starts=True)  # type: ignore[arg-type]
    await hooks.answer("claude", "UserPromptSubmit", {"cwd": str(repo), "prompt": "go"})
    assert not list((home / "run").glob("start/*.json"))
    kept = await hooks.answer("claude", "SessionStart", {"cwd": str(repo)})
    assert kept_start_text(home / "run", "claude", "SessionStart", str(repo)) == kept
    backend.key_facts = []
    assert await hooks.answer("claude", "SessionStart", {"cwd": str(repo)}) == ""
    assert kept_start_text(home / "run", "claude", "SessionStart", str(repo)) is None


async def test_texts_kept_under_other_settings_or_by_a_team_gateway_are_not_kept(
    repo: Path, home: Path
) -> None:
    await _kept_by_the_gateway(repo, home)
    backend = FakeBackend(roots=[str(repo)], key_facts=["A Go service (go.mod)."])
    HookService(backend, HookSettings(session_budget=300), home / "run", keep_starts=True)  # type: ignore[arg-type]
    assert kept_start_text(home / "run", "claude", "SessionStart", str(repo)) is None
    team = HookService(backend, HookSettings(), home / "run")  # type: ignore[arg-type]
    await team.answer("claude", "SessionStart", {"cwd": str(repo)})
    assert kept_start_text(home / "run", "claude", "SessionStart", str(repo)) is None


async def test_a_gateway_that_gives_up_on_a_session_start_answers_the_kept_one(
    repo: Path, home: Path
) -> None:
    """The gateway's own share of the deadline ran out (its memory calls were slow): it answers
    with the text it kept, while valid, rather than nothing."""
    kept = await _kept_by_the_gateway(repo, home, host="gemini")
    backend = FakeBackend(roots=[str(repo)], key_facts=["A Go service (go.mod)."])
    # A gateway with the same settings but a deadline its memory calls never meet.
    settings = HookSettings(deadline_ms=100)
    hooks = HookService(backend, settings, home / "run", keep_starts=True)  # type: ignore[arg-type]

    async def slow(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(PATIENCE_SECONDS)
        raise AssertionError("not reached")

    backend.get_project_brief_view = slow  # type: ignore[method-assign]
    assert await hooks.answer("gemini", "SessionStart", {"cwd": str(repo)}) == kept
    # Must not fire: a prompt gets nothing kept; a change since makes the kept text stale.
    assert await hooks.answer("gemini", "BeforeAgent", {"cwd": str(repo), "prompt": "go"}) != kept
    mark_changed(home / "run")
    assert await hooks.answer("gemini", "SessionStart", {"cwd": str(repo)}) == ""
