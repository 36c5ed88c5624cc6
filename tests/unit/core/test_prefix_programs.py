"""The command a prefix program runs: an unknown bare first word followed by a known program."""

from __future__ import annotations

import pytest

from squirrel_core.prefix_programs import behind_prefix


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("tkproxy rg --files src .", "rg --files src ."),
        ("qx ls -la", "ls -la"),
        ("shx ps aux", "ps aux"),
        ("wr alembic upgrade head", "alembic upgrade head"),
        ("rx npm run build", "npm run build"),
    ],
)
def test_an_unknown_word_before_a_known_program_is_a_prefix(line: str, command: str) -> None:
    assert behind_prefix(line.split()) == tuple(command.split())


@pytest.mark.parametrize(
    "line",
    [
        # a known program's own subcommand
        "npm ls react",
        "pnpm ls",
        "make ls",
        "cargo tree",
        "git ls-files",
        "sudo ls",
        # the project's script named by its path, an unknown word before another unknown one
        "./scripts/run ls",
        "notegen publish",
        # an option or an assignment first, a lone word
        "--verbose ls",
        "A=1 ls",
        "qx",
    ],
)
def test_anything_else_is_the_command_itself(line: str) -> None:
    assert behind_prefix(line.split()) == tuple(line.split())


def test_a_callers_own_programs_count_as_known() -> None:
    assert behind_prefix(["qx", "lsof", "-i"]) == ("qx", "lsof", "-i")
    assert behind_prefix(["qx", "lsof", "-i"], {"lsof"}) == ("lsof", "-i")
