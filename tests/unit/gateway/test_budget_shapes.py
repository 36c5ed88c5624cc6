"""A budget shapes every answer and never blanks it: real renderers, any budget, any results."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from squirrel_core.budget import Detail, pack
from squirrel_core.budget_limits import MIN_BUDGET_TOKENS
from squirrel_core.tokens import estimate_tokens
from squirrel_gateway.markdown_lines import (
    raise_budget_hint,
    render_brief,
    render_pitfall,
    render_search_result,
    render_selected,
)
from squirrel_gateway.responses import pitfalls_view
from squirrel_gateway.schemas import (
    ModuleSummary,
    PitfallItem,
    SearchResult,
    SearchSource,
    SelectedMemory,
)
from tests.unit.gateway.fakes import FakeBackend

words = st.text(alphabet=st.sampled_from("abcdefghij klmnop_/.`→é🙂\n"), min_size=1, max_size=3000)
paths = st.lists(st.text(alphabet="abcdef/._", min_size=1, max_size=80), max_size=20)
budgets = st.integers(min_value=MIN_BUDGET_TOKENS, max_value=4000)


def search_results() -> st.SearchStrategy[SearchResult]:
    return st.builds(
        SearchResult,
        memory_id=st.text(alphabet="mem_0123456789abcdef", min_size=4, max_size=40),
        type=st.sampled_from(["pitfall", "recipe", "project_fact", "user_style"]),
        key=st.just("k"),
        content=words,
        importance=st.floats(0, 1),
        recency_days=st.integers(0, 1000),
        score=st.floats(0, 1),
        reason=st.text(max_size=600),
        source=st.builds(SearchSource, file_paths=paths, source_refs=paths),
    )


def pitfalls() -> st.SearchStrategy[PitfallItem]:
    return st.builds(
        PitfallItem, key=st.just("k"), content=words, importance=st.floats(0, 1), file_paths=paths
    )


def selected() -> st.SearchStrategy[SelectedMemory]:
    return st.builds(
        SelectedMemory,
        memory_id=st.just("mem_1"),
        type=st.just("pitfall"),
        key=st.just("k"),
        content=words,
        importance=st.floats(0, 1),
        reason=st.text(max_size=600),
    )


def modules() -> st.SearchStrategy[str | ModuleSummary]:
    return st.one_of(words, st.builds(ModuleSummary, name=words, paths=paths, summary=words))


def check(items: list[Any], render: Callable[[Any, Detail], str], budget: int, **kw: Any) -> None:
    packed = pack(items, render, budget, "## " + "Known Pitfalls", **kw)
    assert estimate_tokens(packed.text) <= packed.token_estimate <= budget
    assert len(packed.shown) >= 1, packed.text
    assert packed.shown == tuple(items[: len(packed.shown)])
    if packed.cuts or packed.capped:
        assert "⚡ Budget:" in packed.text


@settings(max_examples=150, deadline=None)
@given(items=st.lists(search_results(), min_size=1, max_size=12), budget=budgets)
def test_search_shows_at_least_one_result_within_any_budget(
    items: list[SearchResult], budget: int
) -> None:
    cursor = "x" * 120

    def hint(shown: int) -> str:
        return (
            f'Call again with cursor="{cursor}" for the next results, or raise it (now {budget}).'
        )

    check(items, render_search_result, budget, total=len(items) + 40, how_to_get_more=hint)


@settings(max_examples=100, deadline=None)
@given(items=st.lists(pitfalls(), min_size=1, max_size=12), budget=budgets)
def test_pitfalls_show_at_least_one_within_any_budget(
    items: list[PitfallItem], budget: int
) -> None:
    check(items, render_pitfall, budget, how_to_get_more=raise_budget_hint(budget))


@settings(max_examples=100, deadline=None)
@given(items=st.lists(selected(), min_size=1, max_size=12), budget=budgets)
def test_task_context_shows_at_least_one_within_any_budget(
    items: list[SelectedMemory], budget: int
) -> None:
    check(items, render_selected, budget, how_to_get_more=raise_budget_hint(budget))


@settings(max_examples=100, deadline=None)
@given(items=st.lists(modules(), min_size=1, max_size=12), budget=budgets)
def test_brief_shows_at_least_one_within_any_budget(
    items: list[str | ModuleSummary], budget: int
) -> None:
    check(items, render_brief, budget, how_to_get_more=raise_budget_hint(budget))


def test_long_results_drop_file_lists_before_items() -> None:
    result = SearchResult(
        memory_id="mem_1",
        type="pitfall",
        key="k",
        content="git push says the current branch has no upstream branch; push with -u origin",
        importance=0.5,
        recency_days=1,
        score=0.9,
        reason="matched 'upstream branch' in the content and two of the query's words",
        source=SearchSource(file_paths=[f"services/deep/folder/module_{i}.py" for i in range(7)]),
    )
    items = [result.model_copy(update={"memory_id": f"mem_{i}"}) for i in range(3)]

    packed = pack(items, render_search_result, 400, "## Memory search: git push")

    assert len(packed.shown) == 3
    assert "Files:" not in packed.text
    assert "3 of 3 items shown; file lists dropped." in packed.text


async def test_the_footer_counts_what_the_memory_service_left_out(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    item = PitfallItem(key="k", content="Pushing a new branch needs -u origin", importance=0.5)
    backend = FakeBackend(roots=[str(root)], pitfalls=[item], pitfalls_total=4)

    answer = await pitfalls_view(
        backend, project_root=str(root), scope_paths=None, task_description=None, budget=48
    )

    assert answer.shown == 1 and answer.total == 4
    assert "1 of 4 items shown" in answer.output.markdown
