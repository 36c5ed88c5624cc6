"""A standing rule said once beside a task: a rule's label with where it holds ("One rule in
this codebase: …"), the user's way said again ("As always: …"), the user's taste as its
reason ("…, that's how I like it") and the team's choice here against its rival ("We use
minimal APIs here, no controllers"). What must not become a rule: a change made once across
the code ("Rename … everywhere"), a task after the team's way ("…, so run the migration"),
a taste tied to the moment ("…, that's how I like it for now"), thanks after "As always"."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences


def _standing(message: str) -> list[str]:
    return [
        p.content for p in stated_preferences(message, after_assistant_action=False) if p.standing
    ]


def _all(message: str) -> list[str]:
    return [p.content for p in stated_preferences(message, after_assistant_action=False)]


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        (
            "Add a /books/:id/loans endpoint. One rule in this codebase: no partial functions, "
            "so no head or fromJust.",
            "no partial functions",
        ),
        (
            "Implement the parser. A rule we follow here: every public function gets a doc "
            "comment.",
            "every public function gets a doc comment",
        ),
        (
            "Wire up the cache. The one rule for this repo: nothing touches the database "
            "outside the repository layer.",
            "nothing touches the database outside the repository layer",
        ),
        (
            "Implement parseArray. As always: functions that allocate take an allocator "
            "parameter, never a global allocator.",
            "functions that allocate take an allocator parameter",
        ),
        ("Add the settings page. As usual, no inline styles.", "no inline styles"),
        (
            "PriceSpec fails, have a look. Answer me in short bullet points, no preamble, "
            "that's how I like it.",
            "short bullet points",
        ),
        (
            "Fix the flaky login test. Keep functions under 30 lines, that's the way I like them.",
            "Keep functions under 30 lines",
        ),
        (
            "Add GET /api/orders/{id}/lines. We use minimal APIs here, no controllers please.",
            "minimal APIs here, no controllers",
        ),
    ],
)
def test_a_rule_said_once_beside_a_task_is_standing(message: str, rule: str) -> None:
    standing = _standing(message)
    # (a lead such as "As always:" is left off, so the rule may open the memory, capitalised)
    assert any(rule.lower() in s.lower() for s in standing), standing


@pytest.mark.parametrize(
    "message",
    [
        "Rename Chatex.Room.join/2 to enter/2 everywhere.",
        "Replace the old HTTP client everywhere.",
        "We use Postgres here, so run the migration against the local db.",
        "Use port 4001 for this test run, that's how I like it for now.",
        "As always, thanks for the help! Can you bump the version to 2.3.1?",
    ],
)
def test_a_task_in_these_shapes_is_no_standing_rule(message: str) -> None:
    assert _standing(message) == [], _all(message)


def test_a_standing_everywhere_is_still_one() -> None:
    assert _standing("Use the structured logger everywhere.")
