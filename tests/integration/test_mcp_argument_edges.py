"""`sqrl mcp` called as a careless host first calls it: arguments of the wrong type, a project
root that is no registered project, a query of only stop-words or of 100 kB. Each refusal is a
tool error of one clear line (never a schema dump, never a crash), and the session goes on: a
good call after them all is answered. Both ways `sqrl mcp` serves are checked (relayed to a
running gateway, and in its own process)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fake_memory import register_projects  # type: ignore[import-not-found]
from test_mcp_host_edges import (  # type: ignore[import-not-found]
    _line,
    _talk,
    mode,
    project,
    services,
)

from squirrel_core.settings import Settings
from tests.mcp_host import INITIALIZE, INITIALIZED

__all__ = ["mode", "project"]  # the fixtures, used by name


@pytest.fixture
def settings(make_settings: Callable[..., Settings], project: Path) -> Settings:
    """With the write tools (`gateway.allow_writes`), for the relayed gateway and for `sqrl
    mcp` in its own process (which reads the home's config file)."""
    made = make_settings(gateway_allow_writes="true")
    made.home.mkdir(parents=True, exist_ok=True)
    (made.home / "config.toml").write_text("[gateway]\nallow_writes = true\n")
    register_projects(made, [str(project)])
    return made


def _call(call_id: int, tool: str, arguments: dict[str, Any] | str) -> bytes:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    line: bytes = _line(
        f'{{"jsonrpc": "2.0", "id": {call_id}, "method": "tools/call", "params": '
        f'{{"name": "{tool}", "arguments": {raw}}}}}'
    )
    return line


def _cases(root: str, elsewhere: str) -> list[tuple[str, dict[str, Any] | str, str]]:
    """(tool, arguments, a word the one-line refusal must hold)."""
    return [
        ("search_project_memory", {"project_root": root, "query": 42}, "query"),
        ("search_project_memory", {"project_root": root, "query": ["a", "b"]}, "query"),
        ("search_project_memory", {"project_root": root, "query": "x", "top_k": "five"}, "top_k"),
        ("search_project_memory", {"project_root": root, "query": "x", "top_k": 0}, "top_k"),
        ("search_project_memory", {"project_root": root, "query": "x", "top_k": True}, "top_k"),
        (
            "search_project_memory",
            {"project_root": root, "query": "x", "types": ["bogus"]},
            "types",
        ),
        (
            "search_project_memory",
            {"project_root": root, "query": "x", "scope_paths": 7},
            "scope_paths",
        ),
        ("search_project_memory", {"project_root": root, "query": "x" * 100_000}, "query"),
        ("search_project_memory", {"project_root": root, "query": "   "}, "query"),
        ("search_project_memory", {"project_root": 12, "query": "x"}, "project_root"),
        ("search_project_memory", {"project_root": elsewhere, "query": "x"}, "sqrl init"),
        (
            "get_task_context",
            {"project_root": root, "task_description": {"a": 1}},
            "task_description",
        ),
        ("get_task_context", {"project_root": root}, "task_description"),
        ("get_project_brief_view", {"project_root": root, "mode": "everything"}, "mode"),
        ("get_project_brief_view", '{"project_root": null}', "project_root"),
        ("get_pitfalls_view", {"project_root": root, "scope_paths": "src/app.py"}, "scope_paths"),
        ("remember", {"project_root": root, "content": "x", "importance": "high"}, "importance"),
        ("remember", {"project_root": root, "content": "x", "importance": True}, "importance"),
        ("remember", {"project_root": root, "content": "x", "memory_type": "note"}, "memory_type"),
        ("remember", {"project_root": root, "content": "x", "tags": "a,b"}, "tags"),
        ("remember", {"project_root": root, "content": "   "}, "content"),
        ("forget", {"project_root": root, "memory_id": 5}, "memory_id"),
    ]


async def test_wrong_arguments_are_one_line_tool_errors_and_the_session_goes_on(
    settings: Settings, project: Path, mode: str, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "not-registered"
    elsewhere.mkdir()
    cases = _cases(str(project), str(elsewhere.resolve()))
    lines = [_line(INITIALIZE), _line(INITIALIZED)]
    lines += [_call(n, tool, args) for n, (tool, args, _) in enumerate(cases, start=2)]
    good = len(cases) + 2
    stop_words = good + 1
    lines.append(
        _call(good, "search_project_memory", {"project_root": str(project), "query": "lint"})
    )
    lines.append(
        _call(
            stop_words,
            "search_project_memory",
            {"project_root": str(project), "query": "the of and"},
        )
    )
    kept = stop_words + 1
    note = {"project_root": str(project), "content": "Deploys need the VPN.", "key": "vpn"}
    lines.append(_call(kept, "remember", note))
    async with services(settings, mode):
        answers = await _talk(settings, project, lines)
    by_id = {a.get("id"): a for a in answers}
    assert set(by_id) == {1, *range(2, kept + 1)}, answers
    assert not by_id[kept]["result"].get("isError"), by_id[kept]  # a write after them all
    bad: list[str] = []
    for n, (tool, args, word) in enumerate(cases, start=2):
        result = by_id[n].get("result") or {}
        said = result["content"][0]["text"] if result.get("content") else json.dumps(by_id[n])
        if not (result.get("isError") is True and len(said.splitlines()) == 1 and word in said):
            bad.append(f"{tool} {str(args)[:80]}: {said[:300]!r}")
    assert not bad, "\n".join(bad)
    assert not by_id[good]["result"].get("isError"), by_id[good]
    words = by_id[stop_words]["result"]
    assert not words.get("isError") or len(words["content"][0]["text"].splitlines()) == 1, words
