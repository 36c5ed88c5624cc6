"""Merging the team's answer with the local one, and the search cursor over both."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from squirrel.v1 import memory_service_pb2
from squirrel_core.errors import InvalidArgumentError
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.reads import for_hooks
from squirrel_gateway.team_backend import TeamMemoryBackend
from squirrel_gateway.team_merge import alternate, decode_cursor, encode_cursor


def test_alternate_takes_turns_and_keeps_the_first_of_each_key() -> None:
    team = [("pitfall", "a"), ("fact", "b"), ("recipe", "c")]
    local = [("fact", "b"), ("fact", "repo:stack")]
    assert alternate(team, local, lambda x: x) == [
        ("pitfall", "a"),
        ("fact", "b"),
        ("fact", "repo:stack"),
        ("recipe", "c"),
    ]
    assert alternate([], local, lambda x: x) == local
    assert alternate(team, [], lambda x: x) == team


def test_a_cursor_carries_both_sides_and_nothing_else_is_accepted() -> None:
    assert decode_cursor(None) == (None, None, True)
    assert encode_cursor(None, None) is None
    both = encode_cursor("t1", None)
    assert both is not None
    assert decode_cursor(both) == ("t1", None, False)


@pytest.mark.parametrize(
    "cursor", ["", "abc", "tm_!!!", "tm_bnVsbA==", "tm_WzEsMl0=", "tm_eyJ0IjogMX0=", "x" * 5000]
)
def test_foreign_or_tampered_cursors_are_refused(cursor: str) -> None:
    with pytest.raises(InvalidArgumentError, match="cursor"):
        decode_cursor(cursor)


class _Recording:
    """A memory client stand-in that keeps the search requests it is sent."""

    def __init__(self) -> None:
        self.searches: list[memory_service_pb2.SearchMemoryRequest] = []
        self.stub = SimpleNamespace(SearchMemory="SearchMemory")

    async def call(self, method: str, request: Any, **_: Any) -> Any:
        self.searches.append(request)
        return memory_service_pb2.SearchMemoryResponse()


async def test_a_joined_laptops_hooks_read_local_memory_as_hooks_do() -> None:
    # The session start's searches leave out stale memories and resting recipes on a joined
    # laptop too: its local memories are judged there (the served log records them).
    local_client, team_client = _Recording(), _Recording()
    local = GrpcMemoryBackend(lambda: local_client, lambda: ["/p"])  # type: ignore[arg-type, return-value]
    team = GrpcMemoryBackend(lambda: team_client, lambda: [])  # type: ignore[arg-type, return-value]
    reads = TeamMemoryBackend(local, team, lambda _: "", server="team.example:7443")
    hooks = for_hooks(reads, 2000)
    assert isinstance(hooks, TeamMemoryBackend)
    await hooks.local.search_memory(
        "/p", query="lint", top_k=5, types=["recipe"], scope_paths=[], cursor=None
    )
    (sent,) = local_client.searches
    assert sent.leave_out_stale and sent.leave_out_resting
    # Read otherwise (MCP, the CLI), local memory answers as before.
    await reads.local.search_memory(
        "/p", query="lint", top_k=5, types=["recipe"], scope_paths=[], cursor=None
    )
    assert not local_client.searches[1].leave_out_stale
