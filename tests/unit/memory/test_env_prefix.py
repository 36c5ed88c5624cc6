"""`env [options] [NAME=value …] command` runs `command`: a run's program is the command, in any
ecosystem, and `env` that runs nothing stays `env`."""

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
