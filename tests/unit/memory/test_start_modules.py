"""A session starts with the modules a session went back to; the others wait to be asked.

The brief asked for a session start (`live_only`) leaves out a rules' module until a session it
was served to used it (worked in one of its files: `heeded`), in any ecosystem; the brief asked
for otherwise (the MCP view, core or full) still gives every module, and a fact that is no module,
or a module the user wrote, is never judged by this rule.
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
from squirrel_memory.views import Views
from squirrel_memory.views.start_modules import earns_a_start
from tests.unit.memory.test_views import USER, add_memory
from tests.unit.memory.test_views_outcomes import judge, resting_views

# (key, what the module says of itself, its files): a Python package and a Go one.
PYTHON = (
    (
        "module:billing",
        "Module `billing`: Charges customers and issues refunds.",
        "billing/core.py",
    ),
    ("module:reports", "Module `reports`: Renders the monthly statements.", "reports/render.py"),
)
GO = (
    ("module:ingest", "Package `ingest`: Reads sensor frames off the queue.", "ingest/reader.go"),
    ("module:store", "Package `store`: Keeps frames in the time-series table.", "store/frames.go"),
)


async def _modules(store: SqliteStore, views: Views, *, live_only: bool) -> list[str]:
    view = await views.project_brief(store.project_id, live_only=live_only)
    return [m.name for m in view.modules]


@pytest.mark.parametrize("modules", [PYTHON, GO], ids=["python", "go"])
async def test_a_module_no_session_used_waits_to_be_asked(
    store: SqliteStore, modules: tuple[tuple[str, str, str], ...]
) -> None:
    for key, content, path in modules:
        await add_memory(store, MemoryType.PROJECT_FACT, key, content, paths=[path])
    await add_memory(store, MemoryType.PROJECT_FACT, "framework", "Built with Flask.")
    views, _ = await resting_views(store)

    start = await views.project_brief(store.project_id, live_only=True)
    assert start.modules == ()
    # The facts that are no module are not judged by this rule.
    assert "Framework: Built with Flask." in start.key_facts
    # Asked for outside a session start, every module is there.
    names = [key.split(":", 1)[1] for key, _, _ in modules]
    assert sorted(await _modules(store, views, live_only=False)) == sorted(names)
    views.close()


@pytest.mark.parametrize("modules", [PYTHON, GO], ids=["python", "go"])
async def test_a_module_a_session_used_opens_the_next_ones(
    store: SqliteStore, modules: tuple[tuple[str, str, str], ...]
) -> None:
    items = [
        await add_memory(store, MemoryType.PROJECT_FACT, key, content, paths=[path])
        for key, content, path in modules
    ]
    views, book = await resting_views(store)
    assert await _modules(store, views, live_only=True) == []

    await judge(book, items[1], "unused", "used")
    assert await _modules(store, views, live_only=True) == [modules[1][0].split(":", 1)[1]]
    # Served and never used: still waiting.
    await judge(book, items[0], "unused", "unused")
    assert await _modules(store, views, live_only=True) == [modules[1][0].split(":", 1)[1]]
    views.close()


async def test_without_learning_no_module_of_the_rules_opens_a_session(
    store: SqliteStore,
) -> None:
    key, content, path = PYTHON[0]
    item = await add_memory(store, MemoryType.PROJECT_FACT, key, content, paths=[path])
    views, book = await resting_views(store, learn=False)
    await judge(book, item, "used")  # not read while learning is off
    assert await _modules(store, views, live_only=True) == []
    assert await _modules(store, views, live_only=False) == ["billing"]
    views.close()


async def test_a_module_the_user_wrote_is_not_judged(store: SqliteStore) -> None:
    candidate = MemoryCandidate(
        MemoryType.PROJECT_FACT,
        "module:api",
        "Module `api`: The HTTP handlers; every route lives in api/routes.ts.",
        (),
        0.6,
        ("api/routes.ts",),
    )
    item = await store.apply_decision(
        UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER, source=MemorySource.MANUAL
    )
    assert item is not None
    assert earns_a_start(item, lambda _: False)
    views, _ = await resting_views(store)
    assert await _modules(store, views, live_only=True) == ["api"]
    views.close()


async def test_other_memories_are_not_judged_by_the_module_rule(store: SqliteStore) -> None:
    fact = await add_memory(store, MemoryType.PROJECT_FACT, "ci", "CI runs on Buildkite.")
    trap = await add_memory(store, MemoryType.PITFALL, "module:x", "A pitfall keyed oddly.")
    assert earns_a_start(fact, lambda _: False)
    assert earns_a_start(trap, lambda _: False)
