"""A preference said once as a correction of what the assistant just did or proposed, or with
emphasis: kept as a standing rule when its words make it one (a lesson learned as the reason,
a complaint about a repeated act, a reminder, a rule of any change), never the task's detail,
and never when the user's next message takes it back. A call the user declined on any host
did not fail."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from session_builder import Session

from squirrel_core.events import SourceTool
from squirrel_memory.extractors.firmness import EMPHASIS_TAG, SAID_BEFORE_TAG, STANDING_IMPORTANCE
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.working_habits import HABIT_KEY, user_instructions
from squirrel_memory.models import MemoryType

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _rules(text: str) -> dict[str, float]:
    """The standing instructions of a message answering the assistant, with importance."""
    return {
        p.content: p.importance
        for p in stated_preferences(text, after_assistant_action=True)
        if p.standing
    }


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # a lesson learned, or a cost of the project, as the reason
        (
            "no — don't mock the database in these tests, we got burned by that last year.",
            "Don't mock the database in these tests.",
        ),
        ("Don't wipe node_modules, that takes forever here.", "Don't wipe node_modules."),
        (
            "Pass the config explicitly through the constructors — that's how everything in "
            "this codebase is done.",
            "Pass the config explicitly through the constructors — that's how everything in "
            "this codebase is done.",
        ),
        # a complaint about a repeated act, its verb hyphenated
        ("you keep force-unwrapping optionals. Don't.", "Avoid force-unwrapping optionals."),
        # a rule of any change, not one of the task
        (
            "why did you reformat the whole file? only touch the lines you change.",
            "Only touch the lines you change.",
        ),
        # a prohibition with a second imperative after its comma
        (
            "please don't create new files for small helpers like this, put it in utils.py "
            "with the others.",
            "Don't create new files for small helpers like this.",
        ),
        # a thing ruled out under a standing word, before its reason
        (
            "BuildConfig field. And in general: no remote-config SDKs, we don't ship trackers.",
            "No remote-config SDKs.",
        ),
        # the team's way given as the reason a proposal is turned down
        (
            "No, I don't want a base class for this — we prefer composition over inheritance "
            "here; every hierarchy we had turned into a pain.",
            "Prefer composition instead of inheritance here.",
        ),
    ],
)
def test_a_correction_said_once_with_what_makes_it_a_rule_is_standing(text: str, rule: str) -> None:
    assert _rules(text).get(rule) == STANDING_IMPORTANCE


@pytest.mark.parametrize(
    "text",
    [
        # the reason ties it to the moment
        "don't mock the database in these tests, we need it for the demo tomorrow",
        # the lines of one file: the task
        "only touch the lines in auth.py",
        # a refusal with the task's way, no team's way
        "I don't want a base class for this — just make it a function",
        # a cost with no "here": said of this run
        "Don't wipe the cache, that takes forever",
        # no bare choice of names
        "I told you: the second one, not the first",
        # one thing of the task after the comma
        "Don't create new files for this one, put it in utils.py",
    ],
)
def test_a_correction_of_the_task_at_hand_is_no_standing_rule(text: str) -> None:
    assert _rules(text) == {}


def test_a_choice_said_again_as_told_before_is_a_rule_said_before() -> None:
    (pref,) = [
        p
        for p in stated_preferences(
            "I told you before: pnpm, not npm. Remove the lockfile.", after_assistant_action=True
        )
        if p.standing
    ]
    assert pref.content == "Prefers pnpm over npm."
    assert SAID_BEFORE_TAG in pref.tags


def test_a_reminder_stressed_keeps_the_leftover_ruled_out_with_its_weight() -> None:
    said = "Reminder, and I mean it: no `IO.inspect` left in the code when you hand it back."
    (pref,) = [p for p in stated_preferences(said, after_assistant_action=True) if p.standing]
    assert pref.content == "No `IO.inspect` left in the code when you hand it back."
    assert EMPHASIS_TAG in pref.tags
    assert pref.importance > STANDING_IMPORTANCE


def test_a_ban_that_opens_the_message_is_not_read_as_a_no_that_corrects() -> None:
    said = "No globals. Pass the config through the constructors."
    assert "No globals." in [
        p.content for p in stated_preferences(said, after_assistant_action=True)
    ]


def test_the_team_keeping_dependencies_minimal_is_the_simplicity_habit() -> None:
    said = "Let's not pull in a gem for this. We keep dependencies minimal."
    found = user_instructions(said, after_assistant_action=True)
    assert [p.key for p in found] == [HABIT_KEY]


def _styles(*messages: str) -> list[str]:
    s = Session("/home/u/beacon", "s1", START)
    for said in messages:
        s.user(said)
        s.edit("src/server.js")
        s.say("Done.")
    return [c.content for c in s.extracted() if c.type is MemoryType.USER_STYLE]


def test_a_rule_the_next_message_takes_back_is_no_habit() -> None:
    styles = _styles(
        "don't use semicolons, we don't use them in this codebase.",
        "ah wait, scratch that — I was thinking of the other repo. Put them back.",
    )
    assert not any("semicolon" in c.lower() for c in styles)


def test_a_rule_the_next_message_leaves_standing_is_kept() -> None:
    styles = _styles(
        "don't use semicolons, we don't use them in this codebase.",
        "thanks. now add a health route.",
    )
    assert any("semicolon" in c.lower() for c in styles)


@pytest.mark.parametrize(
    ("host", "refusal"),
    [
        (SourceTool.GEMINI_CLI, "[Operation Cancelled] Reason: User did not allow tool call"),
        (SourceTool.CODEX, "exec command rejected by user"),
    ],
)
def test_a_call_the_user_declined_on_any_host_is_no_failure(host: SourceTool, refusal: str) -> None:
    s = Session("/home/u/tally", "s1", START)
    s.user("The dev server cannot find @vitejs/plugin-vue.")
    s.run("npm install", exit_code=None, output=refusal)
    s.run("npm install @vitejs/plugin-vue", output="added 1 package in 2s")
    s.say("Installed.")
    s.events = [replace(e, source_tool=str(host)) for e in s.events]
    pitfalls = [c.content for c in s.extracted() if c.type is MemoryType.PITFALL]
    assert not any("Cancelled" in c or "rejected" in c for c in pitfalls)


def test_a_rule_in_another_language_the_next_clause_says_was_said_before_is_standing() -> None:
    said = "Nein, bitte keine Lombok-Annotationen. Das hatten wir schon mal besprochen."
    (pref,) = user_instructions(said, after_assistant_action=True)
    assert pref.standing and SAID_BEFORE_TAG in pref.tags
    assert pref.content.startswith("Standing rule, said by the user in German: “bitte keine")


@pytest.mark.parametrize(
    "said",
    [
        "Nein, bitte keine Lombok-Annotationen. Ich glaube, das hatten wir schon besprochen.",
        "Nein, bitte keine Lombok-Annotationen. Das Wetter ist schön.",
    ],
)
def test_a_rule_in_another_language_with_no_sure_word_of_before_stays_tentative(
    said: str,
) -> None:
    assert not any(p.standing for p in user_instructions(said, after_assistant_action=True))
