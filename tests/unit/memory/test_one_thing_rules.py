"""A forbidding rule about one named thing of the project, said with a reason pointing back at
it, is the project's constraint (a project fact), not the user's standing style."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.one_thing_rules import about_one_thing
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def test_a_forbidding_rule_about_one_named_thing_with_a_reason_is_about_that_thing() -> None:
    said = "IMPORTANT: the migration must not drop the legacy_members table, we still read from it."
    assert about_one_thing(said) == "legacy_members"
    said = "Raise the timeout. Never edit deploy/values.yaml, ops owns that file."
    assert about_one_thing(said) == "deploy/values.yaml"


def test_rules_without_a_named_thing_a_reason_or_a_prohibition_are_not_about_one_thing() -> None:
    assert about_one_thing("Never push to main, it breaks the deploy.") is None  # no name in code
    assert about_one_thing("Never edit deploy/values.yaml.") is None  # no reason
    assert about_one_thing("Don't edit src/gen/api.ts, and run the generator after it.") is None
    assert about_one_thing("Keep legacy_members in sync, we read from it.") is None  # no "never"
    assert about_one_thing("Never use snake_case, it is hard to read.") is None  # a way of writing


def _kept(said: str) -> list[tuple[MemoryType, str]]:
    session = Session("/work/app", "s1", START)
    session.user(said)
    session.say("Done.")
    return [(c.type, c.content) for c in session.extracted() if "legacy_members" in c.content]


def test_such_a_rule_is_kept_as_a_project_fact_never_as_the_users_style() -> None:
    kept = _kept(
        "IMPORTANT: the migration must not drop the legacy_members table, we still read from it."
    )
    assert kept
    assert all(kind is MemoryType.PROJECT_FACT for kind, _ in kept)
    # without the reason the rule stays the user's, as before
    assert {kind for kind, _ in _kept("IMPORTANT: never drop the legacy_members table.")} == {
        MemoryType.USER_STYLE
    }
