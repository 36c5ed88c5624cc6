"""The browser says who remembered a memory: its list counts the teammates when more than one
did, and its page names them, on the memory and on each version."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel.v1 import memory_pb2, memory_service_pb2
from squirrel_gateway.ui.pages import memory_page, memory_tables

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def _memory(*writers: str) -> memory_pb2.MemoryItem:
    return memory_pb2.MemoryItem(
        memory_id="mem_1",
        type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
        content="Run the database migrations before the API tests.",
        written_by="manual",
        writers=list(writers),
    )


def test_the_list_counts_two_teammates_and_says_nothing_for_one() -> None:
    assert "manual (2 teammates)" in memory_tables("/p", [_memory("alice", "bob")], 1, NOW)
    assert "teammates" not in memory_tables("/p", [_memory("alice")], 1, NOW)


def test_the_page_names_the_writers_of_the_memory_and_of_each_version() -> None:
    reply = memory_service_pb2.GetMemoryHistoryResponse(
        memory=_memory("alice", "<b>bob</b>"),
        versions=[
            memory_pb2.MemoryVersion(version=1, written_by="manual", writers=["alice"]),
            memory_pb2.MemoryVersion(
                version=2, written_by="manual", writers=["alice", "<b>bob</b>"]
            ),
        ],
    )
    page = memory_page("/p", reply, "t", NOW)
    assert "alice, &lt;b&gt;bob&lt;/b&gt;" in page and "<b>bob</b>" not in page
    assert "manual (alice)" in page
