"""The whole product as a user meets it: real `sqrl up`, a transcript, `sqrl` reads and MCP tools."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.mcp_host import footer_tokens, model_reads
from tests.transcripts import FIXTURES, place_claude

pytestmark = pytest.mark.e2e

SAMPLE = FIXTURES / "claude" / "claude-code-log-sample"


@pytest.fixture
def product(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    repo = (tmp_path / "repo").resolve()
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    claude = tmp_path / "claude" / "projects"
    for transcript in sorted(SAMPLE.glob("*.jsonl")):
        place_claude(transcript, claude, str(repo))
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env.update(
        SQRL_HOME=str(tmp_path / "home"),
        SQRL_INGEST_CLAUDE_ROOTS=str(claude),
        SQRL_INGEST_CODEX_ROOTS=str(tmp_path / "none"),
        SQRL_INGEST_GEMINI_ROOTS=str(tmp_path / "none"),
        SQRL_INGEST_CURSOR_ROOTS=str(tmp_path / "none-cursor"),
    )

    def sqrl(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "squirrel_cli", *args],
            env=env,
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=180,
        )

    assert sqrl("init", "--no-mcp").returncode == 0
    started = sqrl("up", "--detach")
    assert started.returncode == 0, started.stderr
    try:
        assert sqrl("import").returncode == 0
        processed = sqrl("process", "--json")
        assert processed.returncode == 0, processed.stderr
        yield env, repo
    finally:
        sqrl("down")


def _sqrl_json(env: dict[str, str], repo: Path, *args: str) -> Any:
    result = subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args, "--json"],
        env=env,
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


async def test_transcripts_become_memories_served_by_the_cli_and_mcp(
    product: tuple[dict[str, str], Path],
) -> None:
    env, repo = product
    memories = _sqrl_json(env, repo, "memories", "--limit", "200")["memories"]
    assert {m["type"] for m in memories} >= {"project_fact", "recipe"}
    # The sample's user states no standing rule; the assistant's commands are not their style.
    assert not [m for m in memories if m["type"] == "user_style" and m["key"].startswith("pref:")]
    assert any("pytest" in m["content"] for m in memories)
    found = _sqrl_json(env, repo, "search", "how do I run the tests")
    assert found["search"]["results"]
    assert "pytest" in json.dumps(found["search"]["results"][:3])
    assert {r["type"] for r in found["search"]["results"]} <= {
        "user_style",
        "project_fact",
        "pitfall",
        "recipe",
    }

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "squirrel_cli", "mcp"], env=env, cwd=repo
    )
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=60) as session,
    ):
        await session.initialize()
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert all(tool.output_schema is None for tool in tools.values())
        calls: dict[str, dict[str, Any]] = {
            "get_user_style_view": {},
            "get_project_brief_view": {},
            "get_pitfalls_view": {},
            "get_task_context": {"task_description": "run the test suite before committing"},
            "search_project_memory": {"query": "pytest"},
        }
        for name, extra in calls.items():
            result = await session.call_tool(
                name, {"project_root": str(repo), "context_budget_tokens": 300, **extra}
            )
            assert not result.is_error, result.content
            assert footer_tokens(model_reads(result)) <= 300
        unrelated = await session.call_tool(
            "get_task_context",
            {"project_root": str(repo), "task_description": "bake a sourdough loaf with rye"},
        )
        assert model_reads(unrelated).startswith("No relevant long-term memory found")
