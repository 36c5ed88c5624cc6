"""The project's test command is the runner as a whole, not a run that picked some tests (a
file, a folder, a test name); those stay examples. Runners of several ecosystems."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.evidence.command_picks import picks_tests
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/app"


def _runs(commands: list[str]) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{n:04d}",
            project_id=ROOT,
            user_id="dev",
            source_tool="claude_code",
            session_id="s",
            timestamp=T0 + timedelta(seconds=30 * n),
            event_type="command_run",
            content={"command": c, "exit_code": 0, "is_error": False, "output": "ok"},
            file_paths=(),
            hash=f"h-{n}",
        )
        for n, c in enumerate(commands)
    ]


def _test_recipe(commands: list[str]) -> str:
    [recipe] = [c for c in evidence_candidates(_runs(commands)) if c.key == "recipe:test"]
    return recipe.content


@pytest.mark.parametrize(
    ("runs", "command"),
    [
        (
            [
                "npm test -- --run src/cart.test.ts -t 'totals'",
                "npm test -- --run src/cart.test.ts",
            ],
            "npm test",
        ),
        (["mix test test/billing_test.exs:12", "mix test test/billing_test.exs"], "mix test"),
        (
            ["bundle exec rspec spec/cart_spec.rb", "bundle exec rspec spec/cart_spec.rb"],
            "bundle exec rspec",
        ),
        (
            ["./mvnw test -Dtest=InvoiceTotalTest", "./mvnw test -Dtest=InvoiceTotalTest#rounds"],
            "./mvnw test",
        ),
    ],
)
def test_a_run_that_picked_some_tests_is_an_example_not_the_command(
    runs: list[str], command: str
) -> None:
    content = _test_recipe(runs)

    assert content.startswith(f"To run the tests: `{command}`")
    assert "(e.g. `" in content  # the runs themselves are still shown, as examples


@pytest.mark.parametrize(
    ("command", "base"),
    [
        ("cargo test --release", "cargo test"),
        ("uv run pytest -x -q", "uv run pytest"),
        ("dotnet test --no-build", "dotnet test"),
        ("mvn test -Dspring.profiles.active=test", "mvn test"),
    ],
)
def test_flags_of_the_whole_suite_pick_no_test(command: str, base: str) -> None:
    assert not picks_tests(command, base)
    assert _test_recipe([command, command]).startswith(f"To run the tests: `{command}`")


def _run(n: int, command: str, output: str, exit_code: int) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n:04d}",
        project_id=ROOT,
        user_id="dev",
        source_tool="codex",
        session_id="s",
        timestamp=T0 + timedelta(seconds=30 * n),
        event_type="command_run",
        content={
            "command": command,
            "exit_code": exit_code,
            "is_error": exit_code != 0,
            "output": output,
        },
        file_paths=(),
        hash=f"h-{n}",
    )


def test_a_package_pattern_below_the_root_still_picks_a_folder() -> None:
    """The head keeps `./internal/store/...`, yet the run covered one folder, not the suite:
    a failure there fixed by a variable set before the command is still a pitfall."""
    failed = (
        "--- FAIL: TestSave (0.00s)\n    store_test.go:21: open store: Binary was compiled with"
        " 'CGO_ENABLED=0', go-sqlite3 requires cgo to work. This is a stub\nFAIL\n"
        "FAIL\texample.com/app/internal/store\t0.011s\nFAIL"
    )
    events = [
        _run(0, "go test ./internal/store/...", failed, 1),
        _run(
            1,
            "CGO_ENABLED=1 go test ./internal/store/...",
            "ok  \texample.com/app/internal/store\t1.2s",
            0,
        ),
    ]
    pitfalls = [c.content for c in evidence_candidates(events) if c.key.startswith("pitfall")]
    assert any("CGO_ENABLED=1" in text for text in pitfalls), pitfalls
