"""A command of the same purpose that passed over the whole project after the recipe's last
success replaces it; both are named when both kept passing; otherwise the recipe stays."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import StoredEvent
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/ledger"
T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

# (ecosystem, a file changed, the old command, the new one, the recipe key)
SWAPS = [
    ("python", "ledger/books.py", "uv run pyright", "uv run ty check", "recipe:typecheck"),
    ("javascript", "src/books.ts", "npx jest", "npx vitest run", "recipe:test"),
    ("ruby", "lib/ledger/books.rb", "bundle exec rspec", "bin/rails test", "recipe:test"),
    ("go", "internal/books/post.go", "go vet ./...", "golangci-lint run", "recipe:lint"),
]
IDS = [s[0] for s in SWAPS]


def _recipes(events: list[StoredEvent]) -> dict[str, str]:
    return {c.key: c.content for c in evidence_candidates(events) if c.key.startswith("recipe:")}


def _old_sessions(path: str, old: str) -> list[StoredEvent]:
    """Two sessions where the old command passed twice each."""
    events: list[StoredEvent] = []
    for n in (1, 2):
        session = Session(ROOT, f"s{n}", T0 + timedelta(days=n))
        session.edit(path)
        session.run(old)
        session.run(old)
        events += session.events
    return events


def _later(n: int) -> Session:
    return Session(ROOT, f"s{n}", T0 + timedelta(days=n))


@pytest.mark.parametrize(("eco", "path", "old", "new", "key"), SWAPS, ids=IDS)
def test_a_command_that_passed_after_the_old_one_replaces_it(
    eco: str, path: str, old: str, new: str, key: str
) -> None:
    session = _later(3)
    session.edit(path)
    session.run(new, 1, "error: 1 problem")
    session.edit(path)
    session.run(new)

    recipe = _recipes(_old_sessions(path, old) + session.events).get(key, "")

    assert f"`{new}`" in recipe, (eco, recipe)
    assert f"`{old}`" not in recipe, (eco, recipe)


@pytest.mark.parametrize(("eco", "path", "old", "new", "key"), SWAPS, ids=IDS)
def test_a_switch_later_in_the_same_session_counts_too(
    eco: str, path: str, old: str, new: str, key: str
) -> None:
    session = _later(1)
    session.edit(path)
    for _ in range(3):
        session.run(old)
    session.edit(path)
    session.run(new)

    recipe = _recipes(session.events).get(key, "")

    assert f"`{new}`" in recipe and f"`{old}`" not in recipe, (eco, recipe)


@pytest.mark.parametrize(("eco", "path", "old", "new", "key"), SWAPS, ids=IDS)
def test_two_commands_that_keep_passing_after_each_other_are_both_named(
    eco: str, path: str, old: str, new: str, key: str
) -> None:
    session = _later(3)
    session.run(new)
    session.run(old)
    session.run(new)

    recipe = _recipes(_old_sessions(path, old) + session.events).get(key, "")

    assert f"`{new}`" in recipe and f"`{old}`" in recipe and "both in use" in recipe, recipe


@pytest.mark.parametrize(("eco", "path", "old", "new", "key"), SWAPS, ids=IDS)
def test_a_newer_command_that_failed_changes_nothing(
    eco: str, path: str, old: str, new: str, key: str
) -> None:
    session = _later(3)
    session.edit(path)
    session.run(new, 1, "error: 3 problems")

    recipe = _recipes(_old_sessions(path, old) + session.events).get(key, "")

    assert f"`{old}`" in recipe and f"`{new}`" not in recipe, (eco, recipe)


@pytest.mark.parametrize(("eco", "path", "old", "new", "key"), SWAPS, ids=IDS)
def test_a_newer_command_whose_last_run_failed_changes_nothing(
    eco: str, path: str, old: str, new: str, key: str
) -> None:
    session = _later(3)
    session.run(new)
    session.run(new, 1, "error: 3 problems")

    recipe = _recipes(_old_sessions(path, old) + session.events).get(key, "")

    assert f"`{old}`" in recipe and f"`{new}`" not in recipe, (eco, recipe)


@pytest.mark.parametrize(("eco", "path", "old", "new", "key"), SWAPS, ids=IDS)
def test_a_newer_command_on_one_file_is_no_replacement(
    eco: str, path: str, old: str, new: str, key: str
) -> None:
    session = _later(3)
    session.edit(path)
    session.run(f"{new} {path}")

    recipe = _recipes(_old_sessions(path, old) + session.events).get(key, "")

    assert recipe.startswith(f"{recipe.split(':')[0]}: `{old}`"), (eco, recipe)
    assert "both in use" not in recipe, recipe


@pytest.mark.parametrize(("eco", "path", "old", "new", "key"), SWAPS, ids=IDS)
def test_a_command_run_once_before_the_old_ones_later_success_changes_nothing(
    eco: str, path: str, old: str, new: str, key: str
) -> None:
    first = _later(1)
    first.edit(path)
    first.run(new)
    events = first.events
    for n in (2, 3):
        session = _later(n)
        session.edit(path)
        session.run(old)
        session.run(old)
        events += session.events

    recipe = _recipes(events).get(key, "")

    assert f"`{old}`" in recipe and f"`{new}`" not in recipe, (eco, recipe)


@pytest.mark.parametrize(("eco", "path", "old", "new", "key"), SWAPS, ids=IDS)
def test_a_newer_command_run_in_another_checkout_changes_nothing(
    eco: str, path: str, old: str, new: str, key: str
) -> None:
    session = _later(3)
    session.edit(path)
    session.run(f"cd /home/dev/other-ledger && {new}")

    recipe = _recipes(_old_sessions(path, old) + session.events).get(key, "")

    assert f"`{old}`" in recipe and f"`{new}`" not in recipe, (eco, recipe)


@pytest.mark.parametrize(("eco", "path", "old", "new", "key"), SWAPS, ids=IDS)
def test_a_newer_command_run_in_a_sub_folder_keeps_the_projects_recipe(
    eco: str, path: str, old: str, new: str, key: str
) -> None:
    session = _later(3)
    session.edit(path)
    session.run(f"cd tools && {new}")

    recipe = _recipes(_old_sessions(path, old) + session.events).get(key, "")

    assert f"`{old}`" in recipe and f"`{new}`" not in recipe, (eco, recipe)
