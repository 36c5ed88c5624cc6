"""A check that passed once over the whole project after a change is the project's recipe."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import StoredEvent

ROOT = "/home/dev/ledger"
T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


class Session:
    """One session's events in order: commands run and files edited."""

    def __init__(self, session_id: str = "s1", start: datetime = T0) -> None:
        self.session_id = session_id
        self.start = start
        self.events: list[StoredEvent] = []

    def _add(self, kind: str, content: dict[str, Any], paths: tuple[str, ...] = ()) -> None:
        n = len(self.events) + 1
        self.events.append(
            StoredEvent(
                id=f"{self.session_id}_{n:04d}",
                project_id=ROOT,
                user_id="dev",
                source_tool="claude_code",
                session_id=self.session_id,
                timestamp=self.start + timedelta(seconds=20 * n),
                event_type=kind,
                content=content,
                file_paths=paths,
                hash=f"{self.session_id}{n}",
            )
        )

    def run(self, command: str, exit_code: int = 0, output: str = "") -> None:
        use = f"t{len(self.events)}"
        self._add("tool_call", {"tool": "Bash", "tool_use_id": use, "input": {"command": command}})
        self._add(
            "command_run",
            {
                "command": command,
                "tool_use_id": use,
                "exit_code": exit_code,
                "is_error": exit_code != 0,
                "output": output,
            },
        )

    def edit(self, path: str) -> None:
        use = f"t{len(self.events)}"
        self._add("tool_call", {"tool": "Edit", "tool_use_id": use, "input": {}}, (path,))
        self._add("code_change", {"tool": "Edit", "tool_use_id": use, "path": path}, (path,))


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
    session = Session()
    session.edit(path)
    session.run(check)

    recipes = _recipes(session.events)

    assert recipes.get(key, "").endswith(f"`{check}`."), (ecosystem, recipes)


@pytest.mark.parametrize(("ecosystem", "path", "check", "key"), CHECKS, ids=[c[0] for c in CHECKS])
def test_a_check_before_any_change_is_not_enough(
    ecosystem: str, path: str, check: str, key: str
) -> None:
    session = Session()
    session.run(check)
    session.edit(path)

    assert key not in _recipes(session.events), ecosystem


def test_a_check_of_one_file_is_not_the_projects_recipe() -> None:
    session = Session()
    session.edit("ledger/books.py")
    session.run("uv run ruff format ledger/books.py")

    assert "recipe:format" not in _recipes(session.events)


def test_a_failed_check_is_no_recipe() -> None:
    session = Session()
    session.edit("src/lib.rs")
    session.run("cargo fmt --all --check", 1, "Diff in src/lib.rs at line 3")

    assert "recipe:format" not in _recipes(session.events)


def test_a_change_in_another_session_does_not_count() -> None:
    first = Session("s1", T0)
    first.edit("src/lib.rs")
    second = Session("s2", T0 + timedelta(days=1))
    second.run("cargo fmt --all --check")

    assert "recipe:format" not in _recipes([*first.events, *second.events])


def test_tests_still_need_two_passes_for_a_recipe() -> None:
    session = Session()
    session.edit("src/lib.rs")
    session.run("cargo test")

    found = {c.key: c.content for c in evidence_candidates(session.events)}

    assert "recipe:test" not in found
    assert found["test_command"] == "Tests run with `cargo test`."
