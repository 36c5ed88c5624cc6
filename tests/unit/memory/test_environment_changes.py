"""A command that failed and passed once run through an `env` that unsets or sets variables:
that change of the environment is the lesson, in any ecosystem. A script of several lines,
whose exit code says nothing of which step failed, and an `env` that changes nothing, give no
such lesson."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 2, 9, 0, tzinfo=UTC)
AUTH = (
    "remote: Invalid username or token. Password authentication is not supported.\n"
    "fatal: Authentication failed for 'https://example.org/o/r.git/'\n"
)


def _pitfalls(failed: str, passed: str, output: str = AUTH) -> list[MemoryCandidate]:
    s = Session("/home/dev/src/app", "s1", T0)
    s.user("push the branch")
    s.run(failed, 128, output)
    s.run(passed, 0, "To example.org:o/r.git\n   1a2b3c4..5d6e7f8  HEAD -> topic\n")
    s.say("Pushed.")
    return [c for c in s.extracted() if c.type == MemoryType.PITFALL]


@pytest.mark.parametrize(
    ("failed", "passed", "change"),
    [
        (
            "git push origin HEAD:topic",
            "env -u GITHUB_TOKEN -u GH_TOKEN git push origin HEAD:topic",
            "env -u GITHUB_TOKEN -u GH_TOKEN",
        ),
        (
            "cargo publish --dry-run",
            "env --unset=CARGO_REGISTRY_TOKEN cargo publish --dry-run",
            "env --unset=CARGO_REGISTRY_TOKEN",
        ),
        (
            "bundle exec rake release",
            "env GEM_HOST_API_KEY= bundle exec rake release",
            "env GEM_HOST_API_KEY=",
        ),
    ],
)
def test_the_variables_env_changed_are_the_fix(failed: str, passed: str, change: str) -> None:
    (pitfall,) = _pitfalls(failed, passed)
    assert f"`{failed}` failed with `fatal: Authentication failed" in pitfall.content
    assert f"putting `{change}` before it worked" in pitfall.content
    assert "worked" in pitfall.content


def test_a_script_of_several_lines_gives_the_lesson_of_its_failing_step() -> None:
    script = 'head=$(gh pr view 12 --json headRefOid)\ntest -n "$head"\ngit push origin HEAD:topic'
    fixed = script.replace("gh pr", "env -u GH_TOKEN gh pr").replace(
        "git push", "env -u GH_TOKEN git push"
    )
    [found] = [p.content for p in _pitfalls(script, fixed) if "worked" in p.content]
    assert found.startswith("`git push origin HEAD:topic` failed")
    assert "putting `env -u GH_TOKEN` before it worked" in found


def test_an_env_that_changes_nothing_is_no_fix() -> None:
    assert not [
        p
        for p in _pitfalls("git push origin HEAD:topic", "env git push origin HEAD:topic")
        if "worked" in p.content
    ]
