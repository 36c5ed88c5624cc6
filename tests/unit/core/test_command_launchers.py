"""What only launches a command: one way of skipping a launcher's options, for every launcher."""

from __future__ import annotations

import pytest

from squirrel_core.command_launchers import (
    core_tokens,
    past_options,
    runner_launch,
    skip_wrapper,
)
from squirrel_core.command_table import command_table
from squirrel_core.commands import classify_command


def test_an_option_that_takes_a_value_is_skipped_with_it() -> None:
    words = ("--extra", "test", "-q", "pytest", "-x")
    assert past_options(words, frozenset({"--extra"})) == ("pytest", "-x")
    # not known to take a value: only the option itself goes
    assert past_options(words) == ("test", "-q", "pytest", "-x")


def test_double_dash_ends_the_options_only_where_it_is_asked_to() -> None:
    words = ("--", "-x", "cmd")
    assert past_options(words, dashes_end=True) == ("-x", "cmd")
    assert past_options(words) == ("cmd",)


def test_assignments_are_skipped_among_options_only_when_asked() -> None:
    words = ("-i", "A=1", "B=2", "cmd")
    assert past_options(words, assignments=True) == ("cmd",)
    assert past_options(words) == ("A=1", "B=2", "cmd")


@pytest.mark.parametrize(
    ("words", "arguments", "command"),
    [
        (("env", "-i", "A=1", "make", "test"), 0, ("make", "test")),
        (("timeout", "60", "pytest"), 1, ("pytest",)),
        (("timeout", "--preserve-status", "60", "pytest"), 1, ("pytest",)),
        (("nice", "-10", "pytest"), 0, ("pytest",)),
    ],
)
def test_a_wrapper_is_skipped_with_its_options_and_arguments(
    words: tuple[str, ...], arguments: int, command: tuple[str, ...]
) -> None:
    assert skip_wrapper(words, arguments) == command


@pytest.mark.parametrize(
    ("line", "core"),
    [
        ("uv run --extra test -- pytest -q", ["pytest", "-q"]),
        ("conda run -n env pytest", ["pytest"]),
        ("npx --yes vitest run", ["vitest", "run"]),
        ("dotenv -e .env.test -- npm test", ["npm", "test"]),
        ("FOO=1 timeout 60 python -m pytest", ["pytest"]),
        ("php -l a.php", ["php", "-l", "a.php"]),
    ],
)
def test_core_tokens_are_the_tool_past_every_launcher(line: str, core: list[str]) -> None:
    assert core_tokens(line.split()) == core


def test_a_runner_launch_counts_the_runner_and_its_options() -> None:
    assert runner_launch(["uv", "run", "--extra", "test", "pytest"]) == 4
    assert runner_launch(["uv", "run", "--", "pytest"]) == 3
    assert runner_launch(["npm", "run", "test"]) == 0  # npm is no environment runner
    assert runner_launch(["uv", "run", "--extra", "test"]) == 0  # nothing is launched


def test_the_launchers_are_table_data() -> None:
    table = command_table()
    assert {"uv", "poetry", "conda"} <= table.environment_runners
    assert "--extra" in table.environment_options
    assert "dotenv" in table.loaders
    assert table.package_options["pnpm"] >= {"--filter", "-F"}
    assert table.session_options["tox"] == frozenset({"-e", "--envlist"})


@pytest.mark.parametrize(
    ("line", "core"),
    [
        ("nice -n 10 pytest -q", ["pytest", "-q"]),
        ("nice -n 10 .venv/bin/python -m pytest", ["pytest"]),
        ("timeout -s KILL 60 cargo test", ["cargo", "test"]),
        ("timeout -k 5 60 go test ./...", ["go", "test", "./..."]),
        ("sudo -u app bundle exec rspec", ["rspec"]),
        ("env -u DEBUG npm test", ["npm", "test"]),
        ("time -f %e make test", ["make", "test"]),
        ("nice -10 pytest", ["pytest"]),  # the old form: the value is part of the option
    ],
)
def test_a_wrapper_option_with_a_value_is_skipped_with_it(line: str, core: list[str]) -> None:
    assert core_tokens(line.split()) == core
    assert classify_command(line) is not None


def test_a_wrapper_option_without_a_value_keeps_the_next_word() -> None:
    # `timeout --foreground 60 pytest`: `--foreground` takes no value, 60 is the duration
    assert core_tokens(["timeout", "--foreground", "60", "pytest"]) == ["pytest"]
    assert command_table().wrapper_options["nice"] == frozenset({"-n", "--adjustment"})


@pytest.mark.parametrize("option", ["-v", "-V"])
def test_a_program_looked_up_with_command_runs_nothing(option: str) -> None:
    assert skip_wrapper(("command", option, "bun"), 0) == ()
    assert core_tokens(["command", option, "bun"]) == []
    # `command x` without a lookup option still runs x
    assert core_tokens(["command", "bun", "test"]) == ["bun", "test"]
