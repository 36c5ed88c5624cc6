"""Protobuf conversion of memories keeps their source references."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.convert import memory_to_pb, version_to_pb
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, MemoryVersion, Scope

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def test_memory_and_version_carry_source_refs_on_the_wire() -> None:
    item = MemoryItem(
        id="mem_1",
        project_id="/p",
        user_id=None,
        scope=Scope.PROJECT,
        type=MemoryType.PROJECT_FACT,
        key="repo:stack",
        content="Go module example.com/api (Go 1.22).",
        tags=("go",),
        importance=0.9,
        created_at=NOW,
        updated_at=NOW,
        source=MemorySource.RULES,
        source_refs=("go.mod:1", "go.mod:3"),
    )
    assert list(memory_to_pb(item).source_refs) == ["go.mod:1", "go.mod:3"]
    version = MemoryVersion(
        memory_id="mem_1",
        version=1,
        action="created",
        content=item.content,
        tags=item.tags,
        importance=item.importance,
        changed_at=NOW,
        reason="read from the repository",
        source_refs=("commit:0123abcd",),
    )
    assert list(version_to_pb(version).source_refs) == ["commit:0123abcd"]
