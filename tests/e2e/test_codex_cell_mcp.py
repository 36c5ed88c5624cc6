"""The real Codex CLI in code mode, its cell calling an MCP tool (`tools.mcp__<server>__<tool>`):
Codex records the call as an `item_completed` `McpToolCall` (0.171: `id`, `server`, `tool`,
`arguments`, `readOnlyHint`, `status`, `result{content, isError}`, `duration`), and Squirrel
stores it as a tool call with its server, tool and arguments and the tool's result, as the same
call made as a function is. The MCP server is Squirrel's own (`sqrl mcp`), the tool its memory
search, called once with the project's root (its answer the result) and once without it (the
tool's refusal the result, an error, as Codex's `status: failed` says).

One `codex exec` run in a fresh repository, as `test_codex_code_mode` runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.real_hosts import (
    HOST_RUN_SECONDS,
    HOST_SESSION_TIMEOUT,
    git,
    host_version,
    sqrl,
    stored_events,
    wait_for_services,
    wait_for_storage,
)
from tests.e2e.scripted_model import Block, custom_tool_call, scripted_model, text
from tests.e2e.test_codex import CODEX_VERSION, codex_binary

pytestmark = [pytest.mark.e2e, pytest.mark.hosts, pytest.mark.timeout(HOST_SESSION_TIMEOUT)]

PROMPT = "What do we remember about how the tests run here?"
TOOL = "mcp__squirrel__search_project_memory"
#: Two calls: one with the project's root (filled in per run), one without it (refused).
CELL = (
    "const found = await tools.mcp__squirrel__search_project_memory("
    '{project_root: ROOT, query: "how the tests run", top_k: 3});\n'
    "text(found);\n"
    "const refused = await tools.mcp__squirrel__search_project_memory("
    '{query: "how the tests run", top_k: 3});\n'
    "text(refused);\n"
)
ANSWER = "The memory tool needs the project's root; I will pass it next time."


def _said(item: dict[str, Any]) -> str:
    content = item.get("content") if item.get("type") == "message" else item.get("output")
    if isinstance(content, str):
        return content
    return "\n".join(str(c.get("text", "")) for c in content or [] if isinstance(c, dict))


def script(body: dict[str, Any], root: Path) -> list[Block]:
    items = [i for i in body.get("input", []) if isinstance(i, dict)]
    if not any(i.get("role") == "user" and PROMPT in _said(i) for i in items):
        return [text("ok")]
    if any(i.get("type") == "custom_tool_call_output" for i in items):
        return [text(ANSWER)]
    return [custom_tool_call("exec", CELL.replace("ROOT", json.dumps(str(root))))]


@dataclass
class Session:
    repo: Path
    rollout: list[dict[str, Any]]


def _config(url: str, sqrl_home: str) -> str:
    return f"""model = "gpt-5.5"
model_provider = "scripted"
approval_policy = "never"
suppress_unstable_features_warning = true
mcp_optional_startup_grace_ms = 60000

[features]
code_mode = true

[model_providers.scripted]
name = "Scripted"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "SCRIPTED_MODEL_KEY"
request_max_retries = 0
stream_max_retries = 0

[mcp_servers.squirrel]
command = "{sys.executable}"
args = ["-m", "squirrel_cli", "mcp"]
startup_timeout_sec = 60
env = {{ SQRL_HOME = "{sqrl_home}" }}
"""


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    codex = codex_binary()
    if codex is None or not host_version(codex).endswith(CODEX_VERSION):
        pytest.skip(f"Codex {CODEX_VERSION} is not installed (see test_codex_code_mode)")
    base = tmp_path_factory.mktemp("codex-cell-mcp")
    home, repo = base / "home", (base / "repo").resolve()
    (home / ".codex").mkdir(parents=True)
    repo.mkdir()
    git(repo, "init", "-q")
    env = {
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "SQRL_HOME": str(base / "sqrl"),
    }
    done = sqrl(env, repo, "init", "--no-mcp")
    assert done.returncode == 0, done.stderr
    up = sqrl(env, repo, "up", "--detach")
    assert up.returncode == 0, up.stderr
    wait_for_services(env, repo)
    with scripted_model(lambda body: script(body, repo)) as model:
        (home / ".codex" / "config.toml").write_text(_config(model.url, env["SQRL_HOME"]))
        try:
            ran = subprocess.run(
                [str(codex), "exec", "--dangerously-bypass-approvals-and-sandbox", PROMPT],
                cwd=repo,
                env={**env, "SCRIPTED_MODEL_KEY": "scripted"},
                capture_output=True,
                text=True,
                timeout=HOST_RUN_SECONDS,
                check=False,
            )
            assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
            wait_for_storage(repo, PROMPT)
            rollouts = sorted((home / ".codex" / "sessions").rglob("rollout-*.jsonl"))
            lines = [json.loads(line) for p in rollouts for line in p.read_text().splitlines()]
            yield Session(repo=repo, rollout=lines)
        finally:
            sqrl(env, repo, "down")


def _mcp_items(session: Session) -> list[dict[str, Any]]:
    items = []
    for record in session.rollout:
        payload = record.get("payload") or {}
        item = payload.get("item") if isinstance(payload, dict) else None
        if isinstance(item, dict) and item.get("type") == "McpToolCall":
            items.append(item)
    return items


def test_codex_records_the_cells_mcp_calls_as_items(session: Session) -> None:
    items = _mcp_items(session)
    assert [(i.get("server"), i.get("tool")) for i in items] == [
        ("squirrel", "search_project_memory")
    ] * 2
    assert [i.get("status") for i in items] == ["completed", "failed"]


def test_the_cells_mcp_calls_are_stored_as_tool_calls_with_their_results(
    session: Session,
) -> None:
    events = stored_events(session.repo)
    calls = [c for kind, _, c in events if kind == "tool_call" and c.get("tool") == TOOL]
    results = [c for kind, _, c in events if kind == "tool_result" and c.get("tool") == TOOL]
    assert len(calls) == 2 and len(results) == 2, [(k, c.get("tool")) for k, _, c in events]
    assert [c["input"]["query"] for c in calls] == ["how the tests run"] * 2
    assert calls[0]["input"]["project_root"] == str(session.repo)
    assert [c["tool_use_id"] for c in calls] == [r["tool_use_id"] for r in results]
    assert [r["is_error"] for r in results] == [False, True]
    assert "📏" in results[0]["output"]  # the search's answer, its token footer
    assert "missing `project_root`" in results[1]["output"]
