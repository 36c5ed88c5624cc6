"""User text read wrong in real sessions, each shape where its rule must fire and where it must
not: a code name's "!" taken as a sentence's end (clauses.py), a hesitation over what the user
sees taken as a ban, a one-off limit on the request at hand kept as a habit, another tool's
role prompt taken as the user's rules and a principle of the product said as the user's rule
(preferences.py and the readings it calls)."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.preferences import stated_preferences


def _said(message: str, *, replying: bool = False) -> list[str]:
    return [p.content for p in stated_preferences(message, after_assistant_action=replying)]


# clauses: a "!" of code goes on with the sentence


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("never leave dbg! calls in committed code", "never leave dbg! calls in committed code"),
        (
            "always remove println! calls before committing",
            "always remove println! calls before committing",
        ),
        ("never use the !! operator in our code", "never use the !! operator in our code"),
        ("no vec! macros in hot loops", "no vec! macros in hot loops"),
    ],
)
def test_a_bang_of_code_does_not_end_the_clause(text: str, kept: str) -> None:
    assert [read for _, read in clauses(text)] == [kept]


@pytest.mark.parametrize(
    "text",
    [
        "Great! now run the tests.",
        "help! soph made a bunch of stacked PRs",
        "reset the commit! we should run the formatter first",
        "Stop! never push to main",
        "oh no!! lines are missing",
    ],
)
def test_an_exclamation_still_ends_the_clause(text: str) -> None:
    assert len(clauses(text)) == 2


def test_a_rule_with_a_macros_bang_is_kept_whole() -> None:
    assert _said("never leave dbg! calls in committed code") == [
        "Never leave dbg! calls in committed code."
    ]


# a hesitation over what the user sees bans nothing


@pytest.mark.parametrize(
    "message",
    [
        "hmm, no shadow branch",
        "Hmm, no shadow branch again",
        "hmm no log file",
        "oh, no output file",
        "no changelog entry yet",
        "no tests either",
    ],
)
def test_a_remark_on_what_is_missing_is_no_ban(message: str) -> None:
    assert _said(message, replying=True) == []
    assert _said(message) == []


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("no mocks", "No mocks."),
        ("no emojis in commit messages", "No emojis in commit messages."),
        ("no, never amend", "Never amend."),
    ],
)
def test_a_ban_without_a_hesitation_stays(message: str, said: str) -> None:
    assert _said(message, replying=True) == [said]


# a one-off limit or order of work for the task at hand is no habit


@pytest.mark.parametrize(
    "message",
    [
        "let's fix it. write the test first, I assume it's a local change in committed.go?",
        "Look at why test_totals fails on CI and tell me why. Don't modify any files.",
        "Just explain how the retry loop in queue/retry.go works. Do not change any code.",
    ],
)
def test_a_one_off_for_the_request_at_hand_is_no_habit(message: str) -> None:
    assert _said(message) == []


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("always write the test first", "Always write the test first."),
        ("write tests first, then implement", "Write tests first, then implement."),
    ],
)
def test_a_way_of_working_stays(message: str, said: str) -> None:
    assert _said(message) == [said]


# a principle of the product, said of its users, is no rule for the assistant


@pytest.mark.parametrize(
    "message",
    [
        "the overriding directive is to not get in the way of the user (in terms of stopping "
        "their flow), but I think we should signal and log",
        "The app must never block the user while the feed loads: always show the user the "
        "cached items first.",
        "never show our users a stack trace",
    ],
)
def test_what_the_product_does_for_its_users_is_no_rule(message: str) -> None:
    assert _said(message) == []


def test_a_rule_beside_a_product_principle_stays() -> None:
    assert _said(
        "The widget should never show the user a raw error. And from now on, never push to main."
    ) == ["Never push to main."]
    assert _said("never commit without the user's approval") == [
        "Never commit without the user's approval."
    ]


# another tool's role prompt is not the user's


def test_an_agents_role_prompt_gives_no_rule() -> None:
    prompt = (
        "# Release bot\n\nYou are the release assistant for this repository.\n\n## Rules\n\n"
        "Never tag a release on a Friday.\nAlways reply in JSON.\n"
    )
    assert _said(prompt) == []


def test_a_rule_for_what_the_assistant_writes_for_users_stays() -> None:
    assert _said("the error messages you write should say what the user can do next, always") != []
