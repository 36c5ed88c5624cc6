"""A check that passed once over the whole project after a change is the project's recipe."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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
def test_a_check_before_any_change_is_not_enough(
    ecosystem: str, path: str, check: str, key: str
) -> None:
    session = Session(ROOT, "s1", T0)
    session.run(check)
    session.edit(path)

    assert key not in _recipes(session.events), ecosystem


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


def test_a_change_in_another_session_does_not_count() -> None:
    first = Session(ROOT, "s1", T0)
    first.edit("src/lib.rs")
    second = Session(ROOT, "s2", T0 + timedelta(days=1))
    second.run("cargo fmt --all --check")

    assert "recipe:format" not in _recipes([*first.events, *second.events])


def test_tests_still_need_two_passes_for_a_recipe() -> None:
    session = Session(ROOT, "s1", T0)
    session.edit("src/lib.rs")
    session.run("cargo test")

    found = {c.key: c.content for c in evidence_candidates(session.events)}

    assert "recipe:test" not in found
    assert found["test_command"] == "Tests run with `cargo test`."
