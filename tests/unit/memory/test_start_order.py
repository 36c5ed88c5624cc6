"""A brief line names its memory, and a fact served at many starts and never used leaves them.

The brief a session starts with (`live_only`) names the memory each line was rendered from, so
the served log judges it; a project fact served at `UNUSED_STARTS` session starts and never used
nor missed is left out there (`views.start_order`), and kept in the brief asked for otherwise. Made-up projects in two ecosystems: a Python web service and a Go
command-line tool.
"""

from __future__ import annotations

import pytest

from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.outcomes.book import UNUSED_STARTS
from squirrel_memory.storage import SqliteStore
from squirrel_memory.views import Views
from tests.unit.memory.test_views import add_memory
from tests.unit.memory.test_views_outcomes import judge, resting_views

# (key, content, importance), best first: a Python service and a Go tool.
PYTHON = (
    ("framework", "Built with FastAPI; the routes live in app/routes/.", 0.8),
    ("database", "Orders are kept in PostgreSQL through SQLAlchemy.", 0.7),
    ("queue", "Emails are sent from a Celery worker (app/tasks.py).", 0.6),
)
GO = (
    ("framework", "The CLI is built with Cobra; commands live in cmd/.", 0.8),
    ("storage", "Snapshots are written to BoltDB under ~/.cache/snap.", 0.7),
    ("release", "Releases are cut with GoReleaser from .goreleaser.yaml.", 0.6),
)
ECOSYSTEMS = pytest.mark.parametrize("facts", [PYTHON, GO], ids=["python", "go"])


async def _add(store: SqliteStore, facts: tuple[tuple[str, str, float], ...]) -> list[MemoryItem]:
    return [
        await add_memory(store, MemoryType.PROJECT_FACT, key, content, importance=weight)
        for key, content, weight in facts
    ]


async def _start(store: SqliteStore, views: Views) -> list[str]:
    """The memory ids of the start's key facts, in order."""
    view = await views.project_brief(store.project_id, live_only=True)
    assert len(view.key_fact_ids) == len(view.key_facts)
    return list(view.key_fact_ids)


@ECOSYSTEMS
async def test_each_brief_line_names_the_memory_it_was_rendered_from(
    store: SqliteStore, facts: tuple[tuple[str, str, float], ...]
) -> None:
    items = await _add(store, facts)
    module = await add_memory(
        store,
        MemoryType.PROJECT_FACT,
        "module:core",
        "Module `core`: The domain model.",
        paths=["core/a"],
    )
    views, book = await resting_views(store)
    await judge(book, module, "used")  # a module opens a session once a session used it
    for live_only in (True, False):
        view = await views.project_brief(store.project_id, live_only=live_only)
        by_text = dict(zip(view.key_facts, view.key_fact_ids, strict=True))
        for item, (key, content, _) in zip(items, facts, strict=True):
            assert by_text[f"{key.capitalize()}: {content}"] == item.id
        assert [(m.name, m.memory_id) for m in view.modules] == [("core", module.id)]
    # The cached view (read back from disk) names them too.
    again = await Views(store).project_brief(store.project_id, live_only=True)
    assert list(again.key_fact_ids) == [i.id for i in items]
    views.close()


@ECOSYSTEMS
async def test_a_new_project_keeps_the_brief_order(
    store: SqliteStore, facts: tuple[tuple[str, str, float], ...]
) -> None:
    items = await _add(store, facts)
    views, _ = await resting_views(store)
    assert await _start(store, views) == [i.id for i in items]
    views.close()


@ECOSYSTEMS
async def test_a_fact_served_at_many_starts_and_never_used_leaves_the_start(
    store: SqliteStore, facts: tuple[tuple[str, str, float], ...]
) -> None:
    best, second, third = await _add(store, facts)
    views, book = await resting_views(store)
    await judge(book, best, *["unused"] * (UNUSED_STARTS - 1))
    assert await _start(store, views) == [best.id, second.id, third.id]  # not yet
    await judge(book, best, "unused")
    assert await _start(store, views) == [second.id, third.id]
    # Still in the brief asked for otherwise, in its order.
    full = await views.project_brief(store.project_id, mode="full")
    assert list(full.key_fact_ids) == [best.id, second.id, third.id]
    views.close()


@ECOSYSTEMS
async def test_a_fact_used_once_keeps_its_place(
    store: SqliteStore, facts: tuple[tuple[str, str, float], ...]
) -> None:
    best, second, third = await _add(store, facts)
    views, book = await resting_views(store)
    await judge(book, best, "used", *["unused"] * (UNUSED_STARTS + 2))
    await judge(book, second, *["unused"] * UNUSED_STARTS)
    assert await _start(store, views) == [best.id, third.id]
    # A use, however late, puts a passed-over fact back in its place.
    await judge(book, second, "used")
    assert await _start(store, views) == [best.id, second.id, third.id]
    views.close()


async def test_without_learning_nothing_moves(store: SqliteStore) -> None:
    best, second, third = await _add(store, PYTHON)
    views, book = await resting_views(store, learn=False)
    await judge(book, best, *["unused"] * (UNUSED_STARTS + 1))
    assert await _start(store, views) == [best.id, second.id, third.id]
    views.close()


async def test_only_project_facts_are_passed_over(store: SqliteStore) -> None:
    trap = await add_memory(store, MemoryType.PITFALL, "flaky", "The e2e suite is flaky.")
    style = await add_memory(store, MemoryType.USER_STYLE, "pref:small", "Keeps diffs small.")
    recipe = await add_memory(store, MemoryType.RECIPE, "recipe:test", "Run `pytest -q`.")
    _, book = await resting_views(store)
    for item in (trap, style, recipe):
        await judge(book, item, *["unused"] * (UNUSED_STARTS + 1))
        assert not book.passed_over(item)


@ECOSYSTEMS
async def test_a_licence_never_takes_a_place_at_the_start(
    store: SqliteStore, facts: tuple[tuple[str, str, float], ...]
) -> None:
    items = await _add(store, facts)
    licence = await add_memory(
        store,
        MemoryType.PROJECT_FACT,
        "licence",
        "The project is licensed MIT (LICENSE).",
        importance=0.9,
    )
    package = await add_memory(
        store,
        MemoryType.PROJECT_FACT,
        "licence:core",
        "The `core` package (`core/Cargo.toml`) is licensed Apache-2.0.",
        importance=0.9,
    )
    views, _ = await resting_views(store)
    assert await _start(store, views) == [i.id for i in items]
    full = await views.project_brief(store.project_id, live_only=False)
    assert {licence.id, package.id} <= set(full.key_fact_ids)
    views.close()


@ECOSYSTEMS
async def test_an_answer_about_the_code_never_takes_a_place_at_the_start(
    store: SqliteStore, facts: tuple[tuple[str, str, float], ...]
) -> None:
    items = await _add(store, facts)
    answer = await add_memory(
        store,
        MemoryType.PROJECT_FACT,
        "answer:is_the_late_fee_applied",
        'Asked "is the late fee applied anywhere?", the assistant answered after reading the '
        "project's files: No. The fee only appears in the help text.",
        importance=0.9,
    )
    views, _ = await resting_views(store)
    assert await _start(store, views) == [i.id for i in items]
    full = await views.project_brief(store.project_id, live_only=False)
    assert answer.id in full.key_fact_ids
    views.close()
