"""A session starts with the placements a session went back to; the others wait to be asked.

The brief asked for a session start (`live_only`) leaves out a rules' placement ("Where: `api/`:
the HTTP handlers", a `where:` key) until a session it was served to used it (`heeded`), in any
ecosystem; the brief asked for otherwise still gives it, and a fact that is no placement, or a
placement the user wrote, is never judged by this rule (`views.start_places`).
"""

from __future__ import annotations

import pytest

from squirrel_memory.models import (
    MemoryCandidate,
    MemorySource,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import SqliteStore
from squirrel_memory.views.start_places import earns_a_place
from tests.unit.memory.test_start_order import _start
from tests.unit.memory.test_views import USER, add_memory
from tests.unit.memory.test_views_outcomes import judge, resting_views

# (key, content, folder): a Django site (a fixture's, listed from inside it) and a Go service.
PYTHON = (
    ("where:blog:the_app", "`blog/`: the app: `models.py`, `views.py`, `urls.py`.", "blog"),
    ("where:templates:base", "`templates/`: `base.html` and the blog's templates.", "templates"),
)
GO = (
    ("where:cmd:entry_points", "`cmd/`: the command-line entry points.", "cmd"),
    ("where:internal:store", "`internal/store/`: the time-series tables.", "internal/store"),
)
ECOSYSTEMS = pytest.mark.parametrize("places", [PYTHON, GO], ids=["python", "go"])


@ECOSYSTEMS
async def test_a_placement_no_session_used_waits_to_be_asked(
    store: SqliteStore, places: tuple[tuple[str, str, str], ...]
) -> None:
    items = [
        await add_memory(store, MemoryType.PROJECT_FACT, key, content, paths=[path])
        for key, content, path in places
    ]
    framework = await add_memory(store, MemoryType.PROJECT_FACT, "framework", "Built with Flask.")
    views, _ = await resting_views(store)
    # The facts that are no placement are not judged by this rule.
    assert await _start(store, views) == [framework.id]
    full = await views.project_brief(store.project_id, live_only=False)
    assert {i.id for i in items} <= set(full.key_fact_ids)
    views.close()


@ECOSYSTEMS
async def test_a_placement_a_session_used_opens_the_next_ones(
    store: SqliteStore, places: tuple[tuple[str, str, str], ...]
) -> None:
    items = [
        await add_memory(store, MemoryType.PROJECT_FACT, key, content, paths=[path])
        for key, content, path in places
    ]
    views, book = await resting_views(store)
    assert await _start(store, views) == []
    await judge(book, items[1], "unused", "used")
    assert await _start(store, views) == [items[1].id]
    views.close()


async def test_a_placement_the_user_wrote_is_not_judged(store: SqliteStore) -> None:
    candidate = MemoryCandidate(
        MemoryType.PROJECT_FACT,
        "where:api:handlers",
        "`api/`: the HTTP handlers.",
        (),
        0.6,
        ("api",),
    )
    item = await store.apply_decision(
        UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER, source=MemorySource.MANUAL
    )
    assert item is not None
    assert earns_a_place(item, lambda _: False)
    views, _ = await resting_views(store)
    assert await _start(store, views) == [item.id]
    views.close()


async def test_other_memories_are_not_judged_by_the_placement_rule(store: SqliteStore) -> None:
    fact = await add_memory(store, MemoryType.PROJECT_FACT, "ci", "CI runs on Buildkite.")
    trap = await add_memory(store, MemoryType.PITFALL, "where:x", "A pitfall keyed oddly.")
    assert earns_a_place(fact, lambda _: False)
    assert earns_a_place(trap, lambda _: False)
