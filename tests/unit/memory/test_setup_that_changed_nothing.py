"""A set-up command whose output says everything was in place already (`… is already
installed`, `Already up to date`) changed nothing, so it is no step of a fix; one that did
something still is. Made-up projects; the version manager's `exec` launches the real tool."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import command_runs

T0 = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def _pitfalls(root: str, runs: Sequence[tuple[str, int, str]]) -> list[str]:
    found = evidence_candidates(command_runs(root, runs, T0))
    return [c.content for c in found if c.type == MemoryType.PITFALL]


_OLD_ELIXIR = "** (Mix) You're trying to run :pager on Elixir v1.14.0 but it supports only ~> 1.16"


def test_an_install_of_what_was_installed_is_no_step_of_the_fix() -> None:
    found = _pitfalls(
        "/w/pager",
        [
            ("mix test", 1, _OLD_ELIXIR),
            ("asdf install", 0, "elixir 1.16.3-otp-26 is already installed\n"),
            ("asdf exec mix test", 0, "23 tests, 0 failures"),
        ],
    )

    assert found, found
    assert not any("asdf install" in text for text in found), found
    assert any("putting `asdf exec` before it worked" in text for text in found), found


def test_an_install_that_installed_something_still_fixed_it() -> None:
    found = _pitfalls(
        "/w/web",
        [
            ("npm test", 1, "Error: Cannot find module 'left-pad'"),
            ("npm install", 0, "added 3 packages, and audited 214 packages in 2s"),
            ("npm test", 0, "Tests: 9 passed, 9 total"),
        ],
    )

    assert any("`npm install` first fixed it" in text for text in found), found
