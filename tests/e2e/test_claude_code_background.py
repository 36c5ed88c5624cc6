"""The real Claude Code (the pinned version) runs a command in the background, against a scripted
model: what its transcript records is read by the Claude Code parser into the launch (a run
without a result) and one run with the exit status the host reported when the command ended. A
command the model stops gets no result.

No Squirrel service runs here: the transcript Claude Code wrote is parsed as ingest would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, EventType
from squirrel_ingest.parsers import ClaudeFileParser, parse_bytes
from tests.e2e.real_hosts import HOST_RUN_SECONDS, HOST_SESSION_TIMEOUT
from tests.e2e.scripted_model import Block, blocks_of, scripted_model, text, tool_names, tool_use
from tests.e2e.test_claude_code import model_env, pinned_claude

pytestmark = [pytest.mark.e2e, pytest.mark.hosts, pytest.mark.timeout(HOST_SESSION_TIMEOUT)]

FAILING = "sleep 1; echo '3 failed, 4 passed'; exit 3"
ENDLESS = "sleep 120"


@dataclass
class Script:
    """Launch `command` in the background; then stop it (`stop`) or end the turn and answer
    the notification the host sends when the command ends."""

    command: str
    stop: bool = False

    def __call__(self, body: dict[str, Any]) -> list[Block]:
        if "Bash" not in tool_names(body):
            return [text("ok")]
        said = "\n".join(
            str(b.get("text") or b.get("content") or "")
            for m in body.get("messages", [])
            if isinstance(m, dict)
            for b in blocks_of(m)
        )
        used = [
            str(b.get("name"))
            for m in body.get("messages", [])
            if isinstance(m, dict) and m.get("role") == "assistant"
            for b in blocks_of(m)
            if b.get("type") == "tool_use"
        ]
        if "Bash" not in used:
            tool_input = {
                "command": self.command,
                "description": "Run the suite",
                "run_in_background": True,
            }
            return [tool_use("Bash", tool_input)]
        if self.stop and "TaskStop" not in used:
            if "ToolSearch" not in used:  # TaskStop is a deferred tool: load it first
                return [tool_use("ToolSearch", {"query": "select:TaskStop", "max_results": 1})]
            task = said.split("with ID: ", 1)[1].split(".", 1)[0]
            return [tool_use("TaskStop", {"task_id": task})]
        return [text("The suite ran." if "<task-notification>" in said else "Waiting.")]


def _session(tmp: Path, script: Script) -> list[Event]:
    claude, _ = pinned_claude()
    home, repo = tmp / "home", tmp / "repo"
    (home / ".claude").mkdir(parents=True)
    repo.mkdir()
    with scripted_model(script) as model:
        env = {
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
            "HOME": str(home),
            "LANG": "C.UTF-8",
            **model_env(model.url),
        }
        done = subprocess.run(
            [str(claude), "-p", "Run the tests", "--allowedTools", "Bash ToolSearch TaskStop"],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=HOST_RUN_SECONDS,
            check=False,
        )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    [transcript] = (home / ".claude" / "projects").glob("*/*.jsonl")
    parsed = parse_bytes(ClaudeFileParser(str(transcript)), transcript.read_bytes(), "t")
    return parsed.events


def _runs(events: list[Event], *, launched: bool = False) -> list[Event]:
    """The command runs with a result, or (`launched`) the launches still without one."""
    return [
        e
        for e in events
        if e.event_type in (EventType.COMMAND_RUN, EventType.TEST_RUN)
        and (e.content.get("background") is True) is launched
    ]


def test_a_background_command_is_run_once_with_the_exit_code_it_ended_with(
    tmp_path: Path,
) -> None:
    events = _session(tmp_path, Script(FAILING))
    [run] = _runs(events)
    assert run.content["command"] == FAILING
    assert (run.content["exit_code"], run.content["is_error"]) == (3, True)
    result = next(e for e in events if e.event_type is EventType.TOOL_RESULT)
    assert result.content["tool_use_id"] == run.content["tool_use_id"]
    assert "in background" in result.content["output"]
    [launch] = _runs(events, launched=True)
    assert launch.content["tool_use_id"] == run.content["tool_use_id"]
    assert "exit_code" not in launch.content


def test_a_background_command_the_model_stopped_makes_no_run(tmp_path: Path) -> None:
    events = _session(tmp_path, Script(ENDLESS, stop=True))
    assert [e.content["tool"] for e in events if e.event_type is EventType.TOOL_CALL] == [
        "Bash",
        "ToolSearch",
        "TaskStop",
    ]
    assert _runs(events) == []
    assert [e.content["command"] for e in _runs(events, launched=True)] == [ENDLESS]
