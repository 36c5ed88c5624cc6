"""The real Claude Code (the pinned version) launches a subagent: its work reaches the store.

A scripted model drives one `claude -p` run in a fresh repository: the main agent launches a
subagent with Claude Code's launcher tool (offered as `Agent`; `Task` in older versions), and the
subagent reads the README and the test file and runs the tests, then reports, listing the key
files it read. The main agent reads nothing itself. Squirrel then imports the transcripts (the
subagent's own file under the session's `subagents/` folder) and processes them: the subagent's
read and test run are stored as its (sidechain) events, its prompt as the parent agent's, and
the test command it ran becomes a memory whose evidence is its run. The subagent's file read
alone, without its parent's session, gives the same memories, and its prompt's orders are never
the user's style.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.real_hosts import HOST_RUN_SECONDS, HOST_SESSION_TIMEOUT, git, sqrl
from tests.e2e.scripted_model import (
    Block,
    ScriptedModel,
    blocks_of,
    scripted_model,
    text,
    tool_names,
    tool_results,
    tool_use,
)
from tests.e2e.test_claude_code import model_env, pinned_claude

pytestmark = [pytest.mark.e2e, pytest.mark.hosts, pytest.mark.timeout(HOST_SESSION_TIMEOUT)]

PROMPT = "Find out how this project is tested and run its tests."
ASSIGNMENT = (
    "Read the README of this repository, then run the test suite it names. You must always "
    "use tabs for indentation and never commit."
)
TEST_COMMAND = "python -m pytest -q"
README = "# demo\n\nA command-line tool that adds numbers.\n"
TEST_FILE = "test_demo.py"
REPORT = (
    "The README does not say; `python -m pytest -q` runs the tests, and they pass.\n\n"
    "## Key files\n\n"
    f"- `{TEST_FILE}` — checks that sums of small integers add up\n"
)
KEY_FILE_FACT = f"`{TEST_FILE}`: checks that sums of small integers add up."
LAUNCHERS = ("Agent", "Task")


class Script:
    """The main agent launches one subagent and ends once it reported; the subagent (whose
    conversation opens with `ASSIGNMENT`) reads the README, runs the tests and reports."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.launcher = ""

    def __call__(self, body: dict[str, Any]) -> list[Block]:
        offered = tool_names(body)
        if "Bash" not in offered:
            return [text("ok")]  # titles, checks
        messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
        opening = " ".join(str(b.get("text", "")) for b in blocks_of(messages[0]))
        done = len(tool_results(body))
        if ASSIGNMENT in opening:
            if done == 0:
                return [tool_use("Read", {"file_path": str(self.repo / "README.md")})]
            if done == 1:
                return [tool_use("Read", {"file_path": str(self.repo / TEST_FILE)})]
            if done == 2:
                return [tool_use("Bash", {"command": TEST_COMMAND, "description": "Run tests"})]
            return [text(REPORT)]
        if done == 0:
            self.launcher = next((name for name in LAUNCHERS if name in offered), "")
            assert self.launcher, f"no subagent launcher among the offered tools {offered}"
            launch = {
                "description": "Find how tests run",
                "prompt": ASSIGNMENT,
                "subagent_type": "general-purpose",
            }
            return [tool_use(self.launcher, launch)]
        return [text("Done: the subagent ran the tests.")]


@dataclass
class Run:
    launcher: str
    model: ScriptedModel
    repo: Path
    env: dict[str, str]
    #: The memories of the subagent's file imported alone, without its parent's session.
    alone: list[dict[str, Any]]


def _env(base: Path, home: Path, path: str, claude_roots: Path) -> dict[str, str]:
    none = str(base / "none")
    return {
        "PATH": path,
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "SQRL_HOME": str(base / f"sqrl-{claude_roots.name}"),
        "SQRL_INGEST_CLAUDE_ROOTS": str(claude_roots),
        "SQRL_INGEST_CODEX_ROOTS": none,
        "SQRL_INGEST_GEMINI_ROOTS": none,
        "SQRL_INGEST_CURSOR_ROOTS": none,
    }


def _memories(env: dict[str, str], repo: Path) -> list[dict[str, Any]]:
    done = sqrl(env, repo, "memories", "--json", "--limit", "200")
    assert done.returncode == 0, done.stderr
    memories: list[dict[str, Any]] = json.loads(done.stdout)["memories"]
    return memories


def _imported_alone(base: Path, home: Path, path: str, repo: Path) -> list[dict[str, Any]]:
    """The memories of the run's subagent files alone: a copy of the transcripts without the
    parent's session file, imported and processed into a store of its own (removed after)."""
    alone = base / "alone"
    shutil.copytree(home / ".claude" / "projects", alone)
    parents = [p for p in alone.rglob("*.jsonl") if "subagents" not in p.parts]
    assert parents and all(p.unlink() is None for p in parents)
    assert list(alone.rglob("subagents/agent-*.jsonl")), "the run wrote no subagent file"
    env = _env(base, home, path, alone)
    try:
        with _processed(env, repo):
            return _memories(env, repo)
    finally:
        shutil.rmtree(repo / ".ctx")


@contextmanager
def _processed(env: dict[str, str], repo: Path) -> Iterator[None]:
    """Squirrel up for `repo` with the rules extractor, every transcript imported and
    processed; down again after."""
    for args in (["init", "--no-mcp"], ["config", "set", "extractor.backend", "rules"]):
        assert sqrl(env, repo, *args).returncode == 0
    started = sqrl(env, repo, "up", "--detach")
    assert started.returncode == 0, started.stderr
    try:
        for args in (["import"], ["process", "--json"]):
            done = sqrl(env, repo, *args)
            assert done.returncode == 0, done.stderr
        yield
    finally:
        sqrl(env, repo, "down")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    claude, _ = pinned_claude()
    base = tmp_path_factory.mktemp("claude-subagent")
    home, repo = base / "home", (base / "repo").resolve()
    (home / ".claude").mkdir(parents=True)
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text(README)
    (repo / TEST_FILE).write_text("def test_sum() -> None:\n    assert 1 + 1 == 2\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    bindir = str(Path(sys.executable).parent)
    path = os.pathsep.join([bindir, "/usr/local/bin", "/usr/bin", "/bin"])
    script = Script(repo)
    with scripted_model(script) as model:
        client_env = {
            "PATH": path,
            "HOME": str(home),
            "LANG": "C.UTF-8",
            **model_env(model.url),
        }
        allowed = f"{' '.join(LAUNCHERS)} Read Bash({TEST_COMMAND}:*)"
        done = subprocess.run(
            [str(claude), "-p", PROMPT, "--allowedTools", allowed, "--output-format", "json"],
            cwd=repo,
            env=client_env,
            capture_output=True,
            text=True,
            timeout=HOST_RUN_SECONDS,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    alone = _imported_alone(base, home, path, repo)
    env = _env(base, home, path, home / ".claude" / "projects")
    with _processed(env, repo):
        yield Run(launcher=script.launcher, model=model, repo=repo, env=env, alone=alone)


def _stored(repo: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(repo / ".ctx" / "data.db") as conn:
        rows = conn.execute(
            "SELECT id, event_type, origin, sidechain, agent_id, content_json, file_paths"
            " FROM events WHERE session_id IS NOT NULL ORDER BY timestamp, rowid"
        ).fetchall()
    return [
        {
            "id": row[0],
            "kind": row[1],
            "origin": row[2],
            "sidechain": bool(row[3]),
            "agent_id": row[4],
            "content": json.loads(row[5]),
            "paths": row[6] or "",
        }
        for row in rows
    ]


def test_the_pinned_claude_code_launches_subagents_with_its_agent_tool(run: Run) -> None:
    assert run.launcher == "Agent"
    opened = [
        r
        for r in run.model.messages()
        if any(ASSIGNMENT in str(b.get("text", "")) for b in blocks_of(r.body["messages"][0]))
    ]
    assert len(opened) >= 3, "the subagent's read, run and report reached the model"


def test_the_subagents_read_and_test_run_are_stored_as_its_work(run: Run) -> None:
    stored = _stored(run.repo)
    prompts = [e for e in stored if e["kind"] == "user_message" and e["sidechain"]]
    assert [e["origin"] for e in prompts][:1] == ["parent_agent"]
    assert [e["content"]["text"] for e in stored if e["origin"] == "typed"] == [PROMPT]
    reads = [
        e
        for e in stored
        if e["kind"] == "tool_result" and e["content"].get("tool") == "Read" and e["sidechain"]
    ]
    assert reads and "README.md" in reads[0]["paths"]
    assert "adds numbers" in reads[0]["content"]["output"]
    runs = [e for e in stored if e["kind"] == "test_run" and e["sidechain"]]
    assert [e["content"]["command"] for e in runs] == [TEST_COMMAND]
    assert runs[0]["content"]["exit_code"] == 0
    assert {e["agent_id"] for e in [*reads, *runs]} == {prompts[0]["agent_id"]}
    launched = [e for e in stored if e["kind"] == "tool_call" and not e["sidechain"]]
    assert [e["content"]["tool"] for e in launched] == ["Agent"]


def test_the_subagents_test_run_becomes_the_projects_test_command(run: Run) -> None:
    done = sqrl(run.env, run.repo, "memories", "--json", "--limit", "200")
    assert done.returncode == 0, done.stderr
    memories = json.loads(done.stdout)["memories"]
    said = [m for m in memories if "`python -m pytest" in m["content"]]  # flags left out
    assert said, f"no memory names the test command: {[m['content'] for m in memories]}"
    run_ids = {e["id"] for e in _stored(run.repo) if e["kind"] == "test_run" and e["sidechain"]}
    cited: set[str] = set()
    for memory in said:
        shown = sqrl(run.env, run.repo, "history", memory["memory_id"], "--json")
        assert shown.returncode == 0, shown.stderr
        cited |= set(json.dumps(json.loads(shown.stdout)).split('"'))
    assert run_ids & cited, "the memory cites the subagent's test run"


def test_every_record_of_the_subagents_file_was_read_or_ignored_by_name(run: Run) -> None:
    done = sqrl(run.env, run.repo, "status", "--json")
    assert done.returncode == 0, done.stderr
    skipped = json.loads(done.stdout)["ingest"]["sources"]["claude_code"]["skipped"]
    unknown = {
        k: v for k, v in skipped.items() if k.startswith(("unknown", "malformed", "missing"))
    }
    assert not unknown, f"records Squirrel could not place: {skipped}"


def test_the_subagents_report_of_the_files_it_read_becomes_a_project_fact(run: Run) -> None:
    facts = [m["content"] for m in _memories(run.env, run.repo) if m["type"] == "project_fact"]
    assert KEY_FILE_FACT in facts


def test_the_subagents_file_alone_gives_the_same_memories_and_never_the_users_style(
    run: Run,
) -> None:
    both = _memories(run.env, run.repo)

    def said(memories: list[dict[str, Any]]) -> set[tuple[str, str]]:
        return {(m["type"], m["content"]) for m in memories}

    assert said(run.alone) == said(both)
    assert KEY_FILE_FACT in {m["content"] for m in run.alone}
    assert not [m for m in [*run.alone, *both] if m["type"] == "user_style"]
