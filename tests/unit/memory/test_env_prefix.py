"""`env [options] [NAME=value …] command` runs `command`: a run's program is the command, in any
ecosystem, and `env` that runs nothing stays `env`. The assignments before a program are its
environment; an assignment after the program is one of its arguments and stays."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.activity import core_tokens, normalize_command


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("env -u RUSTFLAGS cargo test --workspace", ["cargo", "test", "--workspace"]),
        ("env --unset=VIRTUAL_ENV pytest -q", ["pytest", "-q"]),
        ("env -i PATH=/usr/bin go test ./...", ["go", "test", "./..."]),
        ("NODE_ENV=test env -C web npm test", ["npm", "test"]),
        ("env MIX_ENV=test mix test", ["mix", "test"]),
        ("env -- bundle exec rspec", ["rspec"]),
    ],
)
def test_env_runs_the_command_after_its_options(line: str, tokens: list[str]) -> None:
    assert core_tokens(line) == tokens


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("env", ["env"]),
        ("env 2>&1", ["env"]),
        ("env -u", ["env", "-u"]),
        ("env > vars.txt", ["env", "vars.txt"]),
        ("envsubst < tpl.yml", ["envsubst", "tpl.yml"]),
    ],
)
def test_env_that_runs_nothing_stays_env(line: str, tokens: list[str]) -> None:
    assert core_tokens(line) == tokens


def test_a_rerun_under_env_compares_equal_to_the_plain_run() -> None:
    assert normalize_command("env -u CI cargo test -p core") == normalize_command(
        "cargo test -p core"
    )


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("make CC=clang test", ["make", "CC=clang", "test"]),
        ("npm pkg set license=MIT", ["npm", "pkg", "set", "license=MIT"]),
        ("pip install black==24.3.0", ["pip", "install", "black==24.3.0"]),
        ("terraform apply -var env=staging", ["terraform", "apply", "-var", "env=staging"]),
        ("uv run python train.py data=tiny", ["python", "train.py", "data=tiny"]),
        ("CI=1 bundle exec rake test TEST=t/a.rb", ["rake", "test", "TEST=t/a.rb"]),
        ("env -i A=1 make check CC=clang", ["make", "check", "CC=clang"]),
    ],
)
def test_an_assignment_after_the_program_is_an_argument(line: str, tokens: list[str]) -> None:
    assert core_tokens(line) == tokens


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("CC=clang CFLAGS=-O2 make test", ["make", "test"]),
        (
            "sudo DEBIAN_FRONTEND=noninteractive apt-get install -y jq",
            ["apt-get", "install", "-y", "jq"],
        ),
        ("export A=1 B=2", ["export"]),
        ("local x=1", ["local"]),
        ("A=1", []),
    ],
)
def test_assignments_before_the_program_or_to_a_builtin_are_environment(
    line: str, tokens: list[str]
) -> None:
    assert core_tokens(line) == tokens


def test_a_rerun_with_one_more_argument_assignment_is_another_command() -> None:
    assert normalize_command("make check CC=clang") != normalize_command("make check")
    assert normalize_command("CC=clang make check") == normalize_command("make check")
