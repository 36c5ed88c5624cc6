"""Task context on a small, realistic store with the real embedder: ordinary coding tasks get
their memories (the test command for a task that needs tests, standing style rules), tasks
nothing relates to still abstain."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.extractors.firmness import TENTATIVE_TAG
from squirrel_memory.index import FaissIndex
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.retrieval import Retriever, embedding_text
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import TaskContextBuilder

STYLE = MemoryType.USER_STYLE
# What the rules extractor and the repository reader write for an ordinary web service.
MEMORIES = [
    (MemoryType.PROJECT_FACT, "repo:stack", "shop is a Python/FastAPI app with SQLAlchemy.", ()),
    (MemoryType.PROJECT_FACT, "repo:languages", "Tracked code by size: Python 100% (vendored, generated and dependency folders left out).", ()),
    (MemoryType.PROJECT_FACT, "repo:layout", "Where things live: application code is in `app/`; tests are in `tests/`.", ()),
    (MemoryType.RECIPE, "repo:recipe:test", "Run the tests with `pytest` (the Python convention; pyproject.toml:6).", ()),
    (MemoryType.PROJECT_FACT, "test_command", "Tests run with `uv run pytest`.", ()),
    (MemoryType.PROJECT_FACT, "module:billing", "Module `billing`: billing/invoices.py, billing/export.py.", ()),
    (MemoryType.PITFALL, "pitfall:modulenotfounderror-no-module-5a011303", "`uv run pytest -x` failed with `ModuleNotFoundError: No module named 'httpx'`; running `uv add --dev httpx` first fixed it.", ()),
    (STYLE, "pref:package_manager", "Uses uv as the package manager.", ()),
    (STYLE, "pref:type_hints", "Always add type hints to public functions.", ()),
    (STYLE, "pref:one_off", "Don't touch the README this time.", (TENTATIVE_TAG,)),
]  # fmt: skip


@pytest.fixture(scope="module")
def embedder() -> MiniLmEmbedder:
    model = MiniLmEmbedder()
    model.load_now()
    if not model.ready:
        pytest.skip(f"the MiniLM model is not installed: {model.load_error}")
    return model


@pytest.fixture
async def builder(tmp_path: Path, embedder: MiniLmEmbedder) -> AsyncIterator[TaskContextBuilder]:
    root = tmp_path / "shop"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()))
    for kind, key, content, tags in MEMORIES:
        scope = Scope.USER if kind is STYLE else Scope.PROJECT
        candidate = MemoryCandidate(kind, key, content, tuple(tags), 0.8, scope=scope)
        await store.apply_decision(
            UpdateDecision(UpdateAction.ADD_NEW, candidate, reason="seed"), user_id="u"
        )
    items, _ = await store.list_memories(store.project_id, limit=100)
    vectors = await embedder.embed([embedding_text(m) for m in items])
    index = FaissIndex(embedder.dim, embedder.model_id)
    index.upsert(zip([m.id for m in items], vectors, strict=True))
    yield TaskContextBuilder(Retriever(store, embedder=embedder, index=index))
    await store.close()


@pytest.mark.parametrize(
    ("task", "expected_keys"),
    [
        ("add a new API endpoint and its tests", {"repo:recipe:test", "test_command"}),
        ("fix the flaky login test", {"repo:recipe:test"}),
        ("fix the billing export rounding", {"module:billing"}),
    ],
)
async def test_ordinary_tasks_get_their_memories_and_the_standing_style(
    builder: TaskContextBuilder, task: str, expected_keys: set[str]
) -> None:
    project = builder._retriever._store.project_id  # type: ignore[attr-defined]
    context = await builder.build(project, task, user_id="u", context_budget_tokens=600)
    keys = {m.key for m in context.selected_memories}
    assert context.has_relevant_memory, context.markdown
    assert expected_keys <= keys, keys
    assert {"pref:package_manager", "pref:type_hints"} <= keys  # standing rules come along
    assert "pref:one_off" not in keys  # a one-off instruction is not a standing rule
    assert context.token_estimate <= 600


@pytest.mark.parametrize(
    "task",
    [
        "write a haiku about autumn leaves",
        "plan a birthday party for my sister",
        "what is the capital of Peru",
        "translate this paragraph into French",
    ],
)
async def test_tasks_nothing_relates_to_still_abstain(
    builder: TaskContextBuilder, task: str
) -> None:
    project = builder._retriever._store.project_id  # type: ignore[attr-defined]
    context = await builder.build(project, task, user_id="u")
    assert not context.has_relevant_memory
    assert context.selected_memories == ()


async def test_a_small_budget_keeps_the_relevant_memory_before_the_style(
    builder: TaskContextBuilder,
) -> None:
    project = builder._retriever._store.project_id  # type: ignore[attr-defined]
    context = await builder.build(
        project, "add a new API endpoint and its tests", context_budget_tokens=60
    )
    assert context.has_relevant_memory and context.token_estimate <= 60
    assert context.selected_memories and context.selected_memories[0].type is not STYLE
