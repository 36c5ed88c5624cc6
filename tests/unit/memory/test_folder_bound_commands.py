"""A command whose bare form acts on the current folder's package only (`go test`, `go vet`) keeps
the packages it was given, wherever they stand among its options: `go test -run X
./internal/zone` is no `go test`, and is said as one package's command. And cargo's plain word
after `cargo test` is a filter on the tests' names: a run given one picked some tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.evidence.attempts import command_base
from squirrel_memory.extractors.evidence.command_picks import (
    after_base,
    picks_packages_below_root,
    picks_tests,
    whole_with_options,
)
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


@pytest.mark.parametrize(
    ("command", "base"),
    [
        ("go test ./internal/zone -run TestParseZone -count=1", "go test ./internal/zone"),
        ("go test -v -run TestRoute ./internal/route", "go test ./internal/route"),
        ("go test -count 1 -race ./internal/route", "go test ./internal/route"),
        ("go vet ./pkg/wire", "go vet ./pkg/wire"),
        ("go test -run X ./a ./b", "go test ./a ./b"),
        ("go test -race ./...", "go test ./..."),
        ("go build -o ./bin/server ./cmd/server", "go build ./cmd/server"),
        ("go run ./cmd/server -config ./cfg.yaml", "go run ./cmd/server"),
        ("go run . -config ./cfg.yaml", "go run ."),
    ],
)
def test_a_go_command_keeps_the_packages_it_was_given(command: str, base: str) -> None:
    assert command_base(command) == base


@pytest.mark.parametrize(
    ("command", "base"),
    [
        ("go test", "go test"),
        ("go test -v", "go test"),
        ("go test ./...", "go test ./..."),
        ("go mod tidy", "go mod tidy"),
        ("npm test -- ./src/cart.test.ts", "npm test"),
        ("cargo test -p core ./x", "cargo test"),
        ("pytest ./tests/unit -k ledger", "pytest"),
    ],
)
def test_other_commands_keep_their_head(command: str, base: str) -> None:
    assert command_base(command) == base


def test_a_package_below_the_root_is_a_part_the_whole_tree_is_not() -> None:
    assert picks_packages_below_root("go test ./internal/zone")
    assert picks_packages_below_root("go vet ../lib")
    assert picks_packages_below_root("go test ./internal/store/...")
    assert not picks_packages_below_root("go test ./...")
    assert not picks_packages_below_root("go test")
    assert not picks_packages_below_root("python ./manage.py test")


def test_a_go_test_run_over_one_package_is_said_as_that_package_s_command() -> None:
    runs = ["go test -v -run TestRoute ./internal/route", "go test -race ./internal/route"]
    [recipe] = [c.content for c in evidence_candidates(_runs(runs)) if c.key == "recipe:test"]

    assert recipe.startswith("To run the tests, for one package: `go test ./internal/route`")
    assert "`go test`" not in recipe


def test_the_test_command_fact_of_one_package_says_so() -> None:
    found = {c.key: c.content for c in evidence_candidates(_runs(["go test ./internal/zone"]))}

    assert found["test_command"] == "Tests of one package run with `go test ./internal/zone`."


def test_the_whole_tree_stays_the_project_s_test_command() -> None:
    runs = ["go test -race ./...", "go test -race ./..."]
    [recipe] = [c.content for c in evidence_candidates(_runs(runs)) if c.key == "recipe:test"]

    assert recipe.startswith("To run the tests: `go test -race ./...`")


@pytest.mark.parametrize(
    "command",
    ["cargo test -p zone-core parse_", "cargo test parse_origin", "cargo test -- parse_"],
)
def test_a_plain_word_after_cargo_test_picks_tests_by_name(command: str) -> None:
    assert picks_tests(command, "cargo test")


@pytest.mark.parametrize(
    ("command", "base"),
    [
        ("cargo test -p zone-core", "cargo test"),
        ("cargo test --features sqlite", "cargo test"),
        ("cargo test -- --test-threads 1", "cargo test"),
        ("cargo test --workspace --all-features", "cargo test"),
        ("mvn -q clean test", "mvn"),
        ("npm test -- --watch false", "npm test"),
    ],
)
def test_an_option_s_value_or_another_runner_s_word_picks_nothing(command: str, base: str) -> None:
    assert not picks_tests(command, base)


def test_a_cargo_run_of_some_tests_is_no_recipe_of_the_command_with_its_filter() -> None:
    runs = ["cargo test -p zone-core parse_", "cargo test -p zone-core parse_"]
    texts = [c.content for c in evidence_candidates(_runs(runs))]

    assert not any("for one package: `cargo test -p zone-core parse_`" in t for t in texts)


def test_the_words_beyond_a_head_gathered_from_further_on() -> None:
    assert after_base("go test -tags integration ./...", "go test ./...") == " -tags integration"
    assert after_base("go test ./...", "go test ./...") == ""
    assert after_base("pytest -q tests", "pytest") == " -q tests"
    assert after_base("go test ./a", "go test ./b") is None
    assert whole_with_options("go test -tags integration ./...", "go test ./...")
    assert not whole_with_options("go test -v ./...", "go test ./...")


def _event(n: int, kind: str, content: dict[str, object]) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n:04d}",
        project_id=ROOT,
        user_id="dev",
        source_tool="claude_code",
        session_id="s",
        timestamp=T0 + timedelta(seconds=30 * n),
        event_type=kind,
        content=content,
        file_paths=(f"{ROOT}/internal/export/csv.go",) if kind == "code_change" else (),
        hash=f"h-{n}",
    )


def test_a_check_step_keeps_the_options_a_gathered_head_leaves_out() -> None:
    """`go test ./...` ran no test; `go test -tags integration ./...` then did: both share the
    head `go test ./...`, and the step before finishing is the run with its tag."""
    none = "?   \texample.com/app/internal/export\t[no test files]\n"
    ok = "ok  \texample.com/app/internal/export\t0.031s\n"
    events = [
        _event(0, "code_change", {"tool": "Edit", "path": f"{ROOT}/internal/export/csv.go"}),
        _event(1, "command_run", {"command": "go test ./...", "exit_code": 0, "output": none}),
        _event(
            2,
            "command_run",
            {"command": "go test -tags integration ./...", "exit_code": 0, "output": ok},
        ),
    ]
    found = {c.key: c.content for c in evidence_candidates(events)}
    assert found["recipe:verify"] == "Before finishing a change: `go test -tags integration ./...`."
