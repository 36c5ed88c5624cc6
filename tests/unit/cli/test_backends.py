"""What `sqrl init` and `sqrl doctor` say about model backends: found, logged in, where text goes."""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from squirrel_cli.backends import PRIVACY, detect
from squirrel_cli.commands.doctor import backend_checks
from squirrel_cli.main import main
from squirrel_core.projects import read_projects
from squirrel_core.settings import load_settings
from tests.gitrepos import git, make_repo


def executable(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def ollama() -> Iterator[str]:
    class Tags(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return None

        def do_GET(self) -> None:
            body = json.dumps({"models": [{"name": "qwen2.5-coder:7b"}, {"name": "llama3.2"}]})
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(body.encode())

    server = ThreadingHTTPServer(("127.0.0.1", 0), Tags)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_clis_on_path_are_found_with_their_login(tmp_path: Path) -> None:
    bin_dir, home = tmp_path / "bin", tmp_path / "home"
    executable(bin_dir, "claude")
    executable(bin_dir, "codex")
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / ".credentials.json").write_text("{}")
    settings = load_settings({"SQRL_HOME": str(tmp_path / "sqrl")})
    offers = {
        o.backend: o
        for o in detect(settings, home=home, environ={"PATH": str(bin_dir)}, servers=())
    }
    assert set(offers) == {"claude_cli", "codex_cli"}
    assert offers["claude_cli"].ready and "logged in" in offers["claude_cli"].detail
    assert not offers["codex_cli"].ready and "not confirmed" in offers["codex_cli"].detail
    assert offers["claude_cli"].switch == "sqrl config set extractor.backend claude_cli"


def test_a_key_in_the_environment_counts_as_logged_in(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    executable(bin_dir, "gemini")
    settings = load_settings({"SQRL_HOME": str(tmp_path / "sqrl")})
    [offer] = detect(
        settings,
        home=tmp_path / "nohome",
        environ={"PATH": str(bin_dir), "GEMINI_API_KEY": "x"},
        servers=(),
    )
    assert offer.backend == "gemini_cli" and offer.ready


def test_a_local_model_server_is_offered_with_its_models(tmp_path: Path, ollama: str) -> None:
    settings = load_settings({"SQRL_HOME": str(tmp_path / "sqrl")})
    [offer] = detect(
        settings,
        home=tmp_path,
        environ={"PATH": ""},
        servers=(("Ollama", f"{ollama}/v1", f"{ollama}/api/tags"),),
    )
    assert offer.backend == "openai_compatible" and offer.ready
    assert "qwen2.5-coder:7b" in offer.detail
    assert "openai_compatible.model qwen2.5-coder:7b" in offer.switch
    assert "stays local" in offer.privacy


def test_nothing_listening_offers_nothing(tmp_path: Path) -> None:
    settings = load_settings({"SQRL_HOME": str(tmp_path / "sqrl")})
    assert (
        detect(
            settings,
            home=tmp_path,
            environ={"PATH": ""},
            servers=(("Ollama", "http://127.0.0.1:9/v1", "http://127.0.0.1:9/api/tags"),),
        )
        == []
    )


def test_doctor_fails_when_the_chosen_cli_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    settings = load_settings(
        {"SQRL_HOME": str(tmp_path / "sqrl"), "SQRL_EXTRACTOR_BACKEND": "codex_cli"}
    )
    [check] = [c for c in backend_checks(settings) if c.name == "extractor"]
    assert not check.ok and "not on PATH" in check.detail


def test_doctor_says_where_the_rules_send_text(tmp_path: Path) -> None:
    settings = load_settings({"SQRL_HOME": str(tmp_path / "sqrl")})
    [check] = [c for c in backend_checks(settings) if c.name == "extractor"]
    assert check.ok and PRIVACY["rules"] in check.detail


@pytest.mark.parametrize(
    ("backend", "vendor"),
    [
        ("claude_cli", "Anthropic"),
        ("codex_cli", "OpenAI"),
        ("gemini_cli", "Google"),
        ("rules", "nothing leaves"),
    ],
)
def test_choosing_a_backend_says_where_session_text_goes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    backend: str,
    vendor: str,
) -> None:
    monkeypatch.setenv("SQRL_HOME", str(tmp_path / "sqrl"))
    assert main(["config", "set", "extractor.backend", backend]) == 0
    assert vendor in capsys.readouterr().out


def test_an_unknown_backend_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SQRL_HOME", str(tmp_path / "sqrl"))
    assert main(["config", "set", "extractor.backend", "gpt"]) != 0


def test_a_folder_inside_the_home_is_never_registered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "sqrl"
    workdir = home / "run" / "llm-workdir"
    workdir.mkdir(parents=True)
    monkeypatch.setenv("SQRL_HOME", str(home))
    assert main(["init", "--no-git", str(workdir)]) != 0
    assert not (workdir / ".ctx").exists()


def test_init_in_a_linked_worktree_registers_its_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "app-worktrees" / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(worktree))
    monkeypatch.setenv("SQRL_HOME", str(tmp_path / "sqrl"))
    assert main(["init", "--no-mcp", str(worktree)]) == 0
    assert read_projects(tmp_path / "sqrl" / "projects.json") == [str(repo)]
    assert "linked worktree" in capsys.readouterr().out
