"""A command quoted in a clause that turns it down is never the way to do something."""

from __future__ import annotations

import pytest

from squirrel_core.negation import affirmed_spans


@pytest.mark.parametrize(
    ("text", "affirmed"),
    [
        ("Use `pnpm install`.", ["pnpm install"]),
        ("Don't use `npm`.", []),
        ("Never run `make deploy` by hand; ask first.", []),
        ("Use `pnpm install`, not `npm install`.", ["pnpm install"]),
        ("Not `npm`, but `pnpm`.", ["pnpm"]),
        ("Don't use `npm install`; use `pnpm install`.", ["pnpm install"]),
        ("Use `uv run pytest` instead of `pytest`.", ["uv run pytest"]),
        ("We no longer run `tox`.\nRun `nox` now.", ["nox"]),
        # a negation of something else in the clause turns down no command
        ("If it does not build, run `make clean`.", ["make clean"]),
        ("Instead of guessing, run `make test`.", ["make test"]),
        ("Stop the server and run `make test`.", ["make test"]),
        # "never … without" asks for the command; "without" alone still turns it down
        ("Never commit without running `make check`.", ["make check"]),
        ("Don't push without `npm test` passing.", ["npm test"]),
        ("Build it without `sudo`.", []),
        ("Never use `npm` without asking.", []),
    ],
)
def test_only_commands_no_clause_turns_down_are_affirmed(text: str, affirmed: list[str]) -> None:
    assert list(affirmed_spans(text)) == affirmed
