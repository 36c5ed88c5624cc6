"""The checks a session ran to finish a change, each step said as it was run."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.evidence import attempts
from squirrel_memory.extractors.evidence.routines import finishing_checks

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/app"


def _finding(commands: list[str]) -> str:
    runs = [
        CommandRun(f"e{n}", T0 + timedelta(seconds=30 * n), command, True, "ok", session_id="s1")
        for n, command in enumerate(commands)
    ]
    found = finishing_checks(attempts(runs, ROOT))
    return found.content if found is not None else ""


@pytest.mark.parametrize(
    ("commands", "said"),
    [
        # A Rust crate and an Elixir app: each step as it was run, flags included.
        (
            ["cargo fmt --check", "cargo test --workspace"] * 2,
            "Before finishing a change: `cargo fmt --check` → `cargo test --workspace`.",
        ),
        (
            ["mix format --check-formatted", "mix test --warnings-as-errors"] * 2,
            "Before finishing a change: `mix format --check-formatted` → "
            "`mix test --warnings-as-errors`.",
        ),
    ],
)
def test_each_finishing_step_is_shown_as_it_was_run(commands: list[str], said: str) -> None:
    assert _finding(commands) == said


def test_a_step_run_once_or_on_other_files_each_time_is_shown_by_its_stable_head() -> None:
    said = _finding(
        ["uv run pytest tests/test_a.py", "uv run ruff check", "uv run pytest tests/test_b.py"]
    )
    assert said == "Before finishing a change: `uv run pytest` → `uv run ruff check`."


def test_one_kind_of_check_alone_is_no_finishing_routine() -> None:
    assert _finding(["cargo test --workspace", "cargo test --workspace"]) == ""


def test_of_two_runs_of_checks_as_long_the_later_is_the_recipe() -> None:
    commands = ["npm test", "npm run lint", "pnpm install", "pnpm test", "pnpm run lint"]

    assert _finding(commands) == "Before finishing a change: `pnpm test` → `pnpm run lint`."


def test_a_longer_earlier_run_of_checks_still_wins() -> None:
    commands = [
        "ruff format --check .",
        "ruff check .",
        "pytest",
        "uv sync",
        "ruff check .",
        "pytest",
    ]

    assert _finding(commands) == (
        "Before finishing a change: `ruff format --check .` → `ruff check .` → `pytest`."
    )
