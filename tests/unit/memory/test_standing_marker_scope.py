"""A marker that makes a message's directives standing ("From now on", "Going forward",
"Ground rules:") holds for what follows it, never for the request said before it in the same
message."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    ("text", "rule", "task"),
    [
        (
            "Add a varint decoder. From now on, document every public function with a /// doc "
            "comment.",
            "Document every public function with a /// doc comment.",
            "varint",
        ),
        (
            "Fix the login handler. Going forward, always run go vet before committing.",
            "Always run go vet before committing.",
            "login",
        ),
    ],
)
def test_the_request_before_the_marker_is_no_rule(text: str, rule: str, task: str) -> None:
    found = [p.content for p in stated_preferences(text, after_assistant_action=False)]
    assert found == [rule]
    assert not any(task in f for f in found)


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("From now on: use pnpm. Never use npm.", ["Use pnpm.", "Never use npm."]),
        (
            "Port the parser.\n\nFrom now on:\n- run cargo fmt before committing\n- keep "
            "handlers thin",
            ["Run cargo fmt before committing.", "Keep handlers thin."],
        ),
        ("**From now on** keep commit messages short.", ["Keep commit messages short."]),
    ],
)
def test_every_directive_after_the_marker_stays_a_rule(text: str, rules: list[str]) -> None:
    found = [p.content for p in stated_preferences(text, after_assistant_action=False)]
    assert found == rules
