"""What a Squirrel MCP answer showed, read back from the session's transcript: the memories its
lines name (by id, handle, whole text or a shortened text only one memory starts with)."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_core import handles
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.outcomes.mcp_served import MemoryText, is_read_tool, served_through_mcp
from squirrel_memory.storage import SqliteStore
from tests.unit.memory.test_store_memories import add, candidate

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
TESTS = ("mem_01a", "Run the tests with uv run pytest -q from the repository root")
LINT = ("mem_01b", "Run the tests with uv run pytest -q and then lint with ruff check")
UV = ("mem_01c", "Use uv")


def known(*texts: tuple[str, str]) -> MemoryText:
    return MemoryText(list(texts), [t[0] for t in texts])


def test_read_tools_are_named_bare_or_under_the_host_prefix() -> None:
    for name in (
        "get_task_context",
        "mcp__squirrel__search_project_memory",
        "squirrel.get_pitfalls_view",
    ):
        assert is_read_tool(name), name
    for name in ("", "Bash", "mcp__squirrel__remember", "mcp__other__search", "get_task"):
        assert not is_read_tool(name), name


def test_a_line_with_a_memory_s_whole_text_names_it() -> None:
    answer = f"## Task context\n- [recipe] {TESTS[1]} — why: tests\n- {UV[1]} ⚠ flagged\n📏 ~40"
    assert known(TESTS, LINT, UV).named_in(answer) == [TESTS[0], UV[0]]


def test_a_text_that_only_begins_a_word_of_the_line_names_nothing() -> None:
    assert known(UV).named_in("- Use uvicorn to serve the app") == []
    assert known(UV).named_in("Use uv") == []  # not a list line


def test_a_shortened_line_names_the_only_memory_it_begins() -> None:
    only = known(TESTS, UV).named_in("- [recipe] Run the tests with uv run pytest -q from…")
    assert only == [TESTS[0]]


def test_a_shortened_line_two_memories_begin_names_neither() -> None:
    assert known(TESTS, LINT).named_in("- Run the tests with uv run pytest -q…") == []


def test_a_shortened_line_with_too_little_text_names_nothing() -> None:
    assert known(TESTS).named_in("- Run the tests…") == []


def test_search_results_name_memories_by_id_or_handle() -> None:
    ids = ["mem_01JD4AAA", "mem_01JD4BBB", "mem_01JD4CCC"]
    book = MemoryText([(ids[0], "alpha one"), (ids[1], "beta two")], ids)
    handle = handles.handles(ids)[ids[1]]
    answer = (
        f"- [recipe] something else (score 0.80, {ids[0]})\n"
        f"- [pitfall] other (score 0.70, {handle})\n"
        f"- [pitfall] gone (score 0.60, {handles.handles(ids)[ids[2]]}) mem_nothing"
    )
    assert book.named_in(answer) == [ids[0], ids[1]]  # the third is no live memory


def event(
    tool: str, output: str, *, is_error: bool = False, session: str | None = "s1"
) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{tool}_{is_error}_{session}",
        project_id="p",
        user_id="alice",
        source_tool="claude_code",
        session_id=session,
        timestamp=T0,
        event_type="tool_result",
        content={"tool": tool, "tool_use_id": "t1", "output": output, "is_error": is_error},
        file_paths=(),
        hash="h",
    )


async def test_the_store_s_memories_served_through_mcp_are_found(store: SqliteStore) -> None:
    item = await add(store, candidate("Tests run with uv run pytest -q"))
    other = await add(store, candidate("Lint with ruff check src", key="lint"))
    answer = f"## Task context\n- [recipe] {item.content}\n📏 ~20 tokens"
    events = [
        event("mcp__squirrel__get_task_context", answer),
        event("Bash", f"- {other.content}"),  # not a Squirrel answer
        event("mcp__squirrel__get_task_context", f"- {other.content}", is_error=True),
        event("mcp__squirrel__get_task_context", f"- {other.content}", session=None),
    ]
    records = await served_through_mcp(store, events)
    assert [(r.session_id, r.memory_id, r.channel, r.served_at) for r in records] == [
        ("s1", item.id, "mcp", T0)
    ]
    assert item.type == MemoryType.RECIPE
