"""Which recipes a session starts with, and which start servings count (`views.start_recipes`,
`OutcomeBook.rests_at_start`, `OutcomeBook.passed_over`).

A rules' recipe whose last `UNUSED_STARTS` session-start servings went unused rests at the start;
a prompt's answer that served it unused counts for nothing there, a use or a miss ends the run,
a rewrite (a new version) too; a recipe that quotes a test command, or one the user wrote, never
rests. Made-up projects in two ecosystems: a Python package (ruff, mypy, pytest) and a Rust crate
(cargo clippy, cargo fmt, cargo test).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from squirrel_memory.models import MemoryItem, MemorySource, MemoryType
from squirrel_memory.outcomes.book import UNUSED_STARTS, OutcomeBook
from squirrel_memory.storage import SqliteStore
from squirrel_memory.views.start_recipes import rests_at_start
from tests.unit.memory.test_views import add_memory
from tests.unit.memory.test_views_outcomes import judge

# (lint recipe, test recipe, finish gate that runs the tests) of each ecosystem.
PYTHON = (
    "To lint: `ruff check src`.",
    "To run the tests: `uv run pytest -q`.",
    "Before finishing a change: `uv run pytest` → `ruff check` → `mypy src`.",
)
RUST = (
    "To lint: `cargo clippy --all-targets`.",
    "To run the tests: `cargo test`.",
    "Before finishing a change: `cargo fmt --check` → `cargo clippy` → `cargo test`.",
)
ECOSYSTEMS = pytest.mark.parametrize("texts", [PYTHON, RUST], ids=["python", "rust"])


async def _recipes(store: SqliteStore, texts: tuple[str, str, str]) -> list[MemoryItem]:
    keys = ("recipe:lint", "recipe:test", "recipe:workflow:finish")
    return [
        await add_memory(store, MemoryType.RECIPE, key, text)
        for key, text in zip(keys, texts, strict=True)
    ]


async def _book(store: SqliteStore, *, learn: bool = True) -> OutcomeBook:
    return await OutcomeBook(store, learn=learn).load()


@ECOSYSTEMS
async def test_a_recipe_unused_at_four_starts_in_a_row_rests(
    store: SqliteStore, texts: tuple[str, str, str]
) -> None:
    lint, _, _ = await _recipes(store, texts)
    book = await _book(store)
    await judge(book, lint, *["unused"] * (UNUSED_STARTS - 1))
    assert not rests_at_start(lint, book)  # not yet
    await judge(book, lint, "unused")
    assert rests_at_start(lint, book)
    # Read back from the store (the channel comes from the served records), it still rests.
    assert rests_at_start(lint, await _book(store))


@ECOSYSTEMS
async def test_a_prompt_serving_unused_counts_for_nothing_at_the_start(
    store: SqliteStore, texts: tuple[str, str, str]
) -> None:
    lint, _, _ = await _recipes(store, texts)
    book = await _book(store)
    await judge(book, lint, *["unused"] * (UNUSED_STARTS + 2), channel="prompt")
    assert not rests_at_start(lint, book)
    await judge(book, lint, *["unused"] * (UNUSED_STARTS - 1))
    assert not rests_at_start(lint, book)
    reread = await _book(store)
    assert [e.channel for e in await store.outcome_events([lint.id])] == ["prompt"] * (
        UNUSED_STARTS + 2
    ) + ["session_start"] * (UNUSED_STARTS - 1)
    assert not rests_at_start(lint, reread)


@ECOSYSTEMS
async def test_a_use_or_a_miss_ends_the_run_and_a_rewrite_brings_it_back(
    store: SqliteStore, texts: tuple[str, str, str]
) -> None:
    lint, _, _ = await _recipes(store, texts)
    book = await _book(store)
    await judge(book, lint, *["unused"] * (UNUSED_STARTS - 1), "used")
    await judge(book, lint, *["unused"] * (UNUSED_STARTS - 1))
    assert not rests_at_start(lint, book)  # the use started the count anew
    await judge(book, lint, "missed", *["unused"] * (UNUSED_STARTS - 1))
    assert not rests_at_start(lint, book)
    await judge(book, lint, "unused")
    assert rests_at_start(lint, book)
    # Its command worked again in a session: the recipe's new version opens sessions again.
    assert not rests_at_start(replace(lint, version=lint.version + 1), book)


@ECOSYSTEMS
async def test_a_recipe_that_runs_the_tests_or_that_the_user_wrote_never_rests(
    store: SqliteStore, texts: tuple[str, str, str]
) -> None:
    lint, test, gate = await _recipes(store, texts)
    book = await _book(store)
    for item in (lint, test, gate):
        await judge(book, item, *["unused"] * (UNUSED_STARTS + 1))
    assert rests_at_start(lint, book)
    assert not rests_at_start(test, book)
    assert not rests_at_start(gate, book)
    assert not rests_at_start(replace(lint, source=MemorySource.MANUAL), book)


async def test_without_learning_or_for_another_type_nothing_rests(store: SqliteStore) -> None:
    lint, _, _ = await _recipes(store, PYTHON)
    fact = await add_memory(store, MemoryType.PROJECT_FACT, "ci", "CI runs on GitHub Actions.")
    book = await _book(store, learn=False)
    await judge(book, lint, *["unused"] * (UNUSED_STARTS + 1))
    await judge(book, fact, *["unused"] * (UNUSED_STARTS + 1))
    assert not rests_at_start(lint, book)
    learning = await _book(store)
    assert rests_at_start(lint, learning)
    assert not rests_at_start(fact, learning)


@ECOSYSTEMS
async def test_a_fact_is_passed_over_on_its_start_servings_only(
    store: SqliteStore, texts: tuple[str, str, str]
) -> None:
    fact = await add_memory(store, MemoryType.PROJECT_FACT, "ci", "CI runs on GitHub Actions.")
    book = await _book(store)
    await judge(book, fact, *["unused"] * UNUSED_STARTS, channel="prompt")
    assert not book.passed_over(fact)
    await judge(book, fact, *["unused"] * (UNUSED_STARTS - 1))
    assert not book.passed_over(fact)
    await judge(book, fact, "unused")
    assert book.passed_over(fact)
