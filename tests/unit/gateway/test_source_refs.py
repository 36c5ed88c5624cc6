"""Source references (`path:line`, `commit:<sha>`) survive the wire into MCP results and text."""

from __future__ import annotations

from squirrel.v1 import memory_pb2, views_pb2
from squirrel_core.budget import Detail
from squirrel_gateway.markdown_lines import render_search_result, render_selected
from squirrel_gateway.messages import search_result_messages, search_results, selected_memories


def test_search_result_source_refs_reach_the_mcp_output_and_markdown() -> None:
    wire = views_pb2.SearchResult(
        memory_id="mem_1",
        type=memory_pb2.MEMORY_TYPE_RECIPE,
        key="repo:recipe:test",
        content="Run the tests with `mix test`.",
        importance=0.8,
        score=0.7,
        source=views_pb2.ResultSource(source_refs=["mix.exs:42"], file_paths=["mix.exs"]),
    )
    [result], skipped = search_results([wire])
    assert skipped == 0
    assert result.source.source_refs == ["mix.exs:42"]
    assert result.model_dump()["source"]["source_refs"] == ["mix.exs:42"]
    assert "Source: `mix.exs:42`" in render_search_result(result)
    [again] = search_result_messages([result])
    assert list(again.source.source_refs) == ["mix.exs:42"]


def test_results_without_refs_render_as_before() -> None:
    wire = views_pb2.SearchResult(
        memory_id="mem_2", type=memory_pb2.MEMORY_TYPE_RECIPE, key="k", content="c", score=0.5
    )
    [result], _ = search_results([wire])
    assert result.source.source_refs == []
    assert "Source:" not in render_search_result(result)


def test_task_context_memories_carry_source_refs_unless_the_budget_drops_source_lists() -> None:
    wire = views_pb2.SelectedMemory(
        memory_id="mem_3",
        type=memory_pb2.MEMORY_TYPE_RECIPE,
        key="repo:recipe:test",
        content="Run the tests with `go test ./...`.",
        importance=0.8,
        reason="Mentions tests, as the task does.",
        source_refs=["justfile:2"],
    )
    [memory], skipped = selected_memories([wire])
    assert skipped == 0 and memory.source_refs == ["justfile:2"]
    assert render_selected(memory).endswith("Source: `justfile:2`")
    assert "Source:" not in render_selected(memory, Detail.NO_FILES)
