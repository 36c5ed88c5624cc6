"""A run command started on a test target, and a release or deploy rehearsed: the table's
purpose does not hold (`cargo run --bin conformance` runs a suite, not the app; `npm publish
--dry-run` publishes nothing), and task names that join a run or release word to a check."""

from __future__ import annotations

import pytest

from squirrel_core.command_stand_ins import names_test_target, rehearses
from squirrel_core.commands import classify_command, task_purpose


@pytest.mark.parametrize(
    "command",
    [
        "cargo run --release --bin conformance -- spec/cases",
        "go run ./cmd/e2e -broker localhost:4222",
        "dotnet run --project tests/Billing.IntegrationChecks",
        "cargo run -p smoke-tests",
        "lein run -m kaocha.runner",  # a test runner as the run command's main
        "lein run -m eftest.runner --multithread",
        "rebar3 shell --eval 'eunit:test(rl_bucket, [verbose]), init:stop().'",
        "mix run -e 'Shop.Seeds.run()'",  # code given to evaluate
        "dotnet run --project tools/Seeder -- --recipes samples/recipes.json",  # a tool
        "cargo run --example demo",
        "go run ./scripts/backfill -since 2024-01-01",
    ],
)
def test_a_run_command_started_on_tests_a_tool_or_code_is_not_the_app(command: str) -> None:
    assert classify_command(command) is None


@pytest.mark.parametrize(
    "command",
    [
        "cargo run",
        "cargo run -- --config tests/fixture.toml",  # the app's input, not its target
        "go run . inspect /tmp/a.whl",
        "dotnet run --project src/Api",
        "cargo run --bin server",
        "lein run -m invoicer.main",
        "lein run -m invoicer.runner",  # a runner of the app's own
        "rebar3 shell",
        "cargo run -- --eval x",  # the app's own option
        "dotnet run -e Development --project src/Api",  # `-e` names an environment here
        "mix run --no-halt",
        "zig build run -- --port 9000",
        "go run ./cmd/server -- --fixtures tests/data",  # the app's input
    ],
)
def test_a_run_command_of_the_app_stays_a_run(command: str) -> None:
    use = classify_command(command)
    assert use is not None and use.purpose == "run"


@pytest.mark.parametrize(
    "command",
    [
        "npm publish --dry-run",
        "cargo publish --dry-run --allow-dirty",
        "goreleaser release --snapshot --clean",
        "mvn release:prepare -DdryRun=true",
        "fly deploy --dry-run",
    ],
)
def test_a_rehearsed_release_or_deploy_releases_nothing(command: str) -> None:
    assert classify_command(command) is None


@pytest.mark.parametrize(
    ("command", "purpose"),
    [("npm publish", "release"), ("cargo publish", "release"), ("make release", "release")],
)
def test_a_release_done_stays_a_release(command: str, purpose: str) -> None:
    use = classify_command(command)
    assert use is not None and use.purpose == purpose


@pytest.mark.parametrize(
    ("name", "purpose"),
    [
        ("release-check", None),
        ("check-release", None),
        ("verify-release", None),
        ("release:check", None),
        ("deploy:dry", None),
        ("run-tests", "test"),
        ("run_tests", "test"),
        ("start:e2e", "test"),
        ("start-test-db", "run"),  # starts something the tests use: its head says it
        ("release", "release"),
        ("deploy", "deploy"),
        ("start", "run"),
        ("dev", "run"),
    ],
)
def test_a_task_name_joining_a_check_to_a_run_or_release_word(
    name: str, purpose: str | None
) -> None:
    assert task_purpose(name) == purpose


def test_the_target_and_the_rehearsal_are_read_from_the_words() -> None:
    assert names_test_target(["--bin", "conformance"])
    assert names_test_target(["--project=tests/Api.Tests"])
    assert not names_test_target(["--", "tests/input.txt"])
    assert not names_test_target(["--bin", "server"])
    assert rehearses(["publish", "--dry-run"])
    assert not rehearses(["publish", "--access", "public"])


def test_a_watch_task_says_no_purpose_and_a_release_in_check_mode_releases_nothing() -> None:
    # `watch` runs a test runner, a compiler or a bundler in watch mode as often as the app
    assert task_purpose("watch") is None
    assert classify_command("npm run watch") is None
    assert classify_command("./scripts/release.sh --check") is None
    use = classify_command("./scripts/release.sh")
    assert use is not None and use.purpose == "release"


@pytest.mark.parametrize(
    "command", ["dotnet pack -c Release --no-build -o out", "dotnet publish --no-build"]
)
def test_a_build_step_told_not_to_build_is_no_build(command: str) -> None:
    assert classify_command(command) is None


@pytest.mark.parametrize("command", ["dotnet pack -c Release -o out", "dotnet build --no-restore"])
def test_a_build_step_that_builds_stays_a_build(command: str) -> None:
    use = classify_command(command)
    assert use is not None and use.purpose == "build"


@pytest.mark.parametrize(
    "command",
    [
        "npx eslint --init",
        "bunx oxlint --init",
        "npx tsc --init --strict",
        "pylint --generate-rcfile",
        "bundle exec rubocop --auto-gen-config",
        "clang-format --dump-config",
        "npx biome init",
        "uv run ruff --show-config",
    ],
)
def test_a_check_asked_for_its_own_configuration_checks_nothing(command: str) -> None:
    assert classify_command(command) is None


@pytest.mark.parametrize(
    ("command", "purpose"),
    [
        ("npx eslint src", "lint"),
        ("npx tsc --noEmit", "typecheck"),
        ("pylint src", "lint"),
        ("bundle exec rubocop", "lint"),
        ("clang-format -i src/a.c", "format"),
        ("cargo test -- init", "test"),  # a test picked by name, after `--`
        ("pytest tests/test_init.py", "test"),
        ("go test ./... -run Init", "test"),
    ],
)
def test_a_check_that_checks_keeps_its_purpose(command: str, purpose: str) -> None:
    use = classify_command(command)

    assert use is not None and use.purpose == purpose
