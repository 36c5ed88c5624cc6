"""`sqrl memories` on a laptop joined to a team lists the team project's memories: its header
says they come from the team server, and how to see this laptop's own."""

from __future__ import annotations

import io
from typing import Any

from squirrel_cli.console import Console
from squirrel_cli.read_view import print_memories

PROJECT = "/home/alice/shop"


def _answer() -> dict[str, Any]:
    row = {
        "memory_id": "mem_01",
        "handle": "mem_abcd1234",
        "type": "pitfall",
        "key": "stripe_mock",
        "content": "Checkout tests hang unless STRIPE_MOCK=1 is exported",
        "written_by": "manual",
        "source_refs": [],
        "importance": 0.8,
        "flags": [],
    }
    return {"memories": [row], "total": 1, "next_page_token": ""}


def _header(where: str | None) -> str:
    out = io.StringIO()
    print_memories(PROJECT, _answer(), Console(out), as_json=False, where=where)
    return out.getvalue().splitlines()[0]


def test_the_header_says_the_memories_are_the_team_servers() -> None:
    header = _header("team")
    assert PROJECT in header and "team server" in header and "--local" in header


def test_a_local_listing_says_nothing_of_a_team() -> None:
    for where in ("local", None):
        header = _header(where)
        assert header.startswith(f"Memories of {PROJECT}") and "team" not in header
