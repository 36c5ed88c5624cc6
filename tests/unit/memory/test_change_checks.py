"""A check that passed once over the whole project is the project's recipe, in one session."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import StoredEvent
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/ledger"
T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


def _recipes(session_events: list[StoredEvent]) -> dict[str, str]:
    return {
        c.key: c.content for c in evidence_candidates(session_events) if c.key.startswith("recipe:")
    }


# (ecosystem, a file the session changes, the check run once after it, its recipe key)
CHECKS = [
    ("r", "R/books.R", "air format .", "recipe:format"),
    ("rust", "src/lib.rs", "cargo fmt --all --check", "recipe:format"),
    ("go", "internal/books/post.go", "golangci-lint run", "recipe:lint"),
    ("elixir", "lib/ledger/books.ex", "mix credo --strict", "recipe:lint"),
    ("ruby", "lib/ledger/books.rb", "bundle exec rubocop", "recipe:lint"),
    ("php", "src/Books.php", "vendor/bin/phpstan analyse", "recipe:typecheck"),
    ("swift", "Sources/Ledger/Books.swift", "swiftlint", "recipe:lint"),
    ("python", "ledger/books.py", "uv run mypy .", "recipe:typecheck"),
]


@pytest.mark.parametrize(("ecosystem", "path", "check", "key"), CHECKS, ids=[c[0] for c in CHECKS])
def test_a_check_of_the_whole_project_after_a_change_is_its_recipe(
    ecosystem: str, path: str, check: str, key: str
) -> None:
    session = Session(ROOT, "s1", T0)
    session.edit(path)
    session.run(check)

    recipes = _recipes(session.events)

    assert recipes.get(key, "").endswith(f"`{check}`."), (ecosystem, recipes)


@pytest.mark.parametrize(("ecosystem", "path", "check", "key"), CHECKS, ids=[c[0] for c in CHECKS])
def test_a_check_before_any_change_is_a_recipe_too(
    ecosystem: str, path: str, check: str, key: str
) -> None:
    session = Session(ROOT, "s1", T0)
    session.run(check)
    session.edit(path)

    assert _recipes(session.events).get(key, "").endswith(f"`{check}`."), ecosystem


def test_a_check_of_one_file_is_not_the_projects_recipe() -> None:
    session = Session(ROOT, "s1", T0)
    session.edit("ledger/books.py")
    session.run("uv run ruff format ledger/books.py")

    assert "recipe:format" not in _recipes(session.events)


def test_a_failed_check_is_no_recipe() -> None:
    session = Session(ROOT, "s1", T0)
    session.edit("src/lib.rs")
    session.run("cargo fmt --all --check", 1, "Diff in src/lib.rs at line 3")

    assert "recipe:format" not in _recipes(session.events)


def test_a_check_whose_last_run_failed_is_no_recipe_without_a_change() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cargo fmt --all --check")
    session.run("cargo fmt --all --check", 1, "Diff in src/lib.rs at line 3")

    assert "recipe:format" not in _recipes(session.events)


def test_one_whole_test_run_is_the_test_recipe() -> None:
    session = Session(ROOT, "s1", T0)
    session.edit("src/lib.rs")
    session.run("cargo test")

    found = {c.key: c.content for c in evidence_candidates(session.events)}

    assert found["recipe:test"] == "To run the tests: `cargo test`."
    assert "test_command" not in found  # the recipe already names the command
