"""What `sqrl mcp` answers before the gateway serves is what the gateway's MCP server answers."""

from __future__ import annotations

import time
from typing import Any

from squirrel_cli.mcp_local import LocalAnswers, load_manifest
from squirrel_core import detached_start
from squirrel_gateway.mcp_manifest import manifest


async def test_the_shipped_manifest_is_current() -> None:
    assert load_manifest() == await manifest(), "run python scripts/gen_mcp_manifest.py"


def test_initialize_negotiates_as_the_gateway_does() -> None:
    local = LocalAnswers(load_manifest(), allow_writes=False, started=time.monotonic())
    assert local.initialize({"protocolVersion": "2025-03-26"})["protocolVersion"] == "2025-03-26"
    newest = load_manifest()["protocolVersions"][-1]
    assert local.initialize({"protocolVersion": "1999-01-01"})["protocolVersion"] == newest
    assert local.initialize(None)["protocolVersion"] == newest
    assert "get_task_context(" in local.initialize({})["instructions"]


def listed(method: str, *, allow_writes: bool = False) -> dict[str, Any] | None:
    return LocalAnswers(load_manifest(), allow_writes=allow_writes, started=0).listing(method)


def test_write_tools_are_listed_only_when_allowed() -> None:
    names = {}
    for allow in (False, True):
        listing = listed("tools/list", allow_writes=allow)
        assert listing is not None
        names[allow] = {tool["name"] for tool in listing["tools"]}
    assert names[True] - names[False] == {"remember", "forget"}


def test_prompts_and_resources_are_listed_as_the_gateway_lists_them() -> None:
    assert listed("prompts/list") == {"prompts": []}
    assert listed("resources/list") == {"resources": []}
    assert listed("resources/templates/list") == {"resourceTemplates": []}
    assert listed("tools/call") is None


def test_a_call_before_the_services_serve_says_to_call_again() -> None:
    fresh = LocalAnswers(load_manifest(), allow_writes=False, started=time.monotonic())
    assert "call it again in a few seconds" in fresh.not_serving().lower()
    stale = LocalAnswers(load_manifest(), allow_writes=False, started=time.monotonic() - 60)
    assert "sqrl status" in stale.not_serving()


def test_the_services_are_started_in_a_session_of_their_own(monkeypatch: Any) -> None:
    """A host that signals `sqrl mcp`'s process group on exit (Codex `exec`) must not stop
    the start it began."""
    seen: dict[str, Any] = {}

    def popen(args: list[str], **kwargs: Any) -> None:
        seen.update(kwargs, args=args)

    monkeypatch.setattr(detached_start.subprocess, "Popen", popen)
    detached_start.start_services_detached()
    assert seen["start_new_session"] is True
    assert seen["args"][-2:] == ["up", "--detach"]
