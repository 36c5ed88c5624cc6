"""The facts a session starts with are the project's: one said only of a test fixture's or a
sample's folder is left out of the start (`views.start_scope`) and kept everywhere else. Made-up
projects in three ecosystems: a Python log parser with a Rails fixture app, a Go tool with a
fixture repository, a JavaScript library with a sample app."""

from __future__ import annotations

import pytest

from squirrel_memory.models import MemoryType
from squirrel_memory.storage import SqliteStore
from squirrel_memory.views.start_scope import side_only
from tests.unit.memory.test_start_order import _start
from tests.unit.memory.test_views import add_memory
from tests.unit.memory.test_views_outcomes import resting_views

SIDE_FACTS = [
    ("framework", "Built with Rails (`tests/fixtures/rails_app/Gemfile`).", ()),
    (
        "layout",
        "Layout: `tests/fixtures/rails_app/app/` holds the models, `tests/fixtures/rails_app/spec/` the specs.",
        (),
    ),
    ("where", "Where: the fixture repository's hooks are in `testdata/repo/.git/hooks/`.", ()),
    ("framework", "Built with Next.js.", ("examples/playground/package.json",)),
]
PROJECT_FACTS = [
    # No path at all: what the project is built with, said of the project.
    ("framework", "Built with FastAPI.", ()),
    # The project's own tests folder is not test data.
    ("tests_folder", "Tests live in `tests/` (`tests/test_parse.py` among them).", ()),
    # One of the project's own paths beside a fixture's: about the project.
    ("where", "`src/parse.py` reads the logs `tests/fixtures/rails_app/log/` holds.", ()),
    # A web address is no path of the repository, nor does an absolute path tell.
    ("home", "The repository is `https://github.com/ann/examples/tree/main`.", ()),
    ("where", "The checkout is at `/home/ann/examples/shop/`.", ()),
]


@pytest.mark.parametrize(("key", "content", "paths"), SIDE_FACTS)
async def test_a_fact_said_only_of_a_fixture_or_a_sample_is_not_the_projects(
    store: SqliteStore, key: str, content: str, paths: tuple[str, ...]
) -> None:
    own = await add_memory(store, MemoryType.PROJECT_FACT, "language", "Python project.")
    side = await add_memory(
        store, MemoryType.PROJECT_FACT, key, content, importance=0.9, paths=paths
    )
    assert side_only(side)
    views, _ = await resting_views(store)
    assert await _start(store, views) == [own.id]
    # Kept in the brief asked for otherwise (and in search): a prompt about the fixture gets it.
    full = await views.project_brief(store.project_id, live_only=False)
    assert side.id in full.key_fact_ids
    views.close()


@pytest.mark.parametrize(("key", "content", "paths"), PROJECT_FACTS)
async def test_a_fact_of_the_project_stays_at_the_start(
    store: SqliteStore, key: str, content: str, paths: tuple[str, ...]
) -> None:
    fact = await add_memory(
        store, MemoryType.PROJECT_FACT, key, content, importance=0.9, paths=paths
    )
    assert not side_only(fact)
    views, _ = await resting_views(store)
    assert await _start(store, views) == [fact.id]
    views.close()
