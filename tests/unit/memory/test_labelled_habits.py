"""Habits in a developer's shorthand: a rule under a topic label ("Errors: always wrap with
%w"), a style label ("Style: …"), a bare command before a step of work ("bundle exec rubocop -a
before committing"), "as always"; and the look-alikes that stay no habit."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.labelled_habits import (
    asides_apart,
    bare_routine,
    topic_label,
    with_label,
)
from squirrel_memory.extractors.preferences import stated_preferences


def _standing(text: str) -> list[str]:
    found = stated_preferences(text, after_assistant_action=False)
    return [p.content for p in found if "standing" in p.tags]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "Add a cache layer. Errors: always wrap with fmt.Errorf and %w.",
            "Errors: always wrap with fmt.Errorf and %w.",
        ),
        ("Kotlin: prefer val over var everywhere", "Kotlin: prefers val over var everywhere."),
        (
            "Style: start pipelines with a raw value, not a function call.",
            "Style: start pipelines with a raw value, not a function call.",
        ),
        ("Commits: never more than one topic each", "Commits: never more than one topic each."),
    ],
)
def test_a_rule_under_a_topic_label_is_a_habit_told_with_its_label(text: str, content: str) -> None:
    assert _standing(text) == [content]


@pytest.mark.parametrize(
    "text",
    [
        "Bug: the parser always drops the last line.",  # a state of things
        "Output: always 0 rows",
        "Step 2: run the migration",
        "Errors: the build fails on CI",  # no rule word after a topic label
        "Kotlin: add the data class",  # a task under a topic label
        "Errors: always return 404 in this handler.",  # one spot of the task
    ],
)
def test_a_label_over_a_state_a_task_or_one_spot_makes_no_habit(text: str) -> None:
    assert _standing(text) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "./gradlew spotlessApply before every commit",
            "Run ./gradlew spotlessApply before every commit.",
        ),
        (
            "rubocop autocorrect before you commit, as always.",
            "Run rubocop autocorrect before you commit.",
        ),
        ("vendor/bin/phpstan before every push", "Run vendor/bin/phpstan before every push."),
    ],
)
def test_a_bare_command_before_a_step_said_as_a_rule_is_a_habit(text: str, content: str) -> None:
    assert _standing(text) == [content]


def test_a_bare_command_before_committing_said_once_is_tentative() -> None:
    (found,) = stated_preferences(
        "Reminder: bundle exec rubocop -a before committing.", after_assistant_action=False
    )
    assert found.content == "Run bundle exec rubocop -a before committing."
    assert "tentative" in found.tags


@pytest.mark.parametrize(
    "text",
    [
        "the tests before committing",  # no command
        "the migration after merging",
        "Lunch before the release",
        "I'll look at it before committing",
        "docs/ before every commit",  # a folder, no program
    ],
)
def test_no_command_before_a_step_is_no_routine(text: str) -> None:
    assert bare_routine(text) is None


def test_the_label_and_its_words() -> None:
    found = topic_label("Code style: prefer early returns")
    assert found is not None
    assert (found.label, found.rest, found.style) == ("Code style", "prefer early returns", True)
    assert topic_label("Add the tests: never mock the database") is None  # a task first
    assert topic_label("https://example.com: always up") is None
    assert with_label("Errors", "Always wrap with %w.") == "Errors: always wrap with %w."
    assert with_label("API", "NEVER break it.") == "API: NEVER break it."


def test_stop_with_a_dashed_verb_is_a_directive() -> None:
    (found,) = stated_preferences(
        "please stop force-unwrapping optionals", after_assistant_action=False
    )
    assert found.content == "Avoid force-unwrapping optionals."


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "Add the feed. Going forward, async/await instead of completion handlers.",
            "Prefers async/await over completion handlers.",
        ),
        ("From now on: tabs over spaces", "Prefers tabs over spaces."),
    ],
)
def test_one_thing_over_another_after_a_marker_is_a_choice(text: str, content: str) -> None:
    assert _standing(text) == [content]


@pytest.mark.parametrize(
    "text",
    [
        "async/await instead of completion handlers",  # no marker for later work
        "Going forward, the cache over the db call",  # a sentence's words, not two things
        "From now on, this one instead of that one",  # things of the task
    ],
)
def test_two_sides_without_a_marker_or_of_the_task_make_no_choice(text: str) -> None:
    assert _standing(text) == []


def test_a_style_label_keeps_a_verbless_rule_as_said() -> None:
    assert _standing("house style: thiserror for library errors, anyhow only in the binary") == [
        "House style: thiserror for library errors, anyhow only in the binary."
    ]
    assert _standing("Style: this one is fine for now") == []  # the moment


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "Every PHP file starts with declare(strict_types=1);",
            "Every PHP file starts with declare(strict_types=1).",
        ),
        ("every public method gets a doc comment", "Every public method gets a doc comment."),
    ],
)
def test_what_every_kind_of_work_starts_with_or_gets_is_a_habit(text: str, content: str) -> None:
    assert _standing(text) == [content]


@pytest.mark.parametrize(
    "text",
    ["every user gets an email", "each file has been updated", "every test starts with failing"],
)
def test_what_every_user_gets_or_a_past_state_is_no_habit(text: str) -> None:
    assert _standing(text) == []


def test_a_habit_in_brackets_after_a_task_is_a_clause_of_its_own() -> None:
    said = "Add the eviction loop (I prefer the plain testing package over testify)"
    assert _standing(said) == ["Prefers the plain testing package over testify."]
    assert asides_apart([("Run the tests (with -x please)", "Run the tests (with -x please)")]) == [
        ("Run the tests (with -x please)", "Run the tests (with -x please)")
    ]  # a detail of the task, not an aside of the user's own


@pytest.mark.parametrize(
    "text",
    [
        "Repro: always happens after a restart",  # what happens, under a label
        "Fix the flaky test (always fails on Mondays)",  # what happens, in brackets
        "always crashes on start",
        "Always runs the linter first",  # said of a thing, no imperative
    ],
)
def test_a_rule_word_before_what_a_thing_does_is_a_remark(text: str) -> None:
    assert _standing(text) == []


@pytest.mark.parametrize(
    "text", ["always pass --frozen-lockfile", "always address review comments", "always focus"]
)
def test_an_imperative_ending_in_s_is_still_a_rule(text: str) -> None:
    assert _standing(text)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("we follow PSR-12, please keep to it", "We follow PSR-12."),
        ("our handlers return JSON errors, stick to that", "Our handlers return JSON errors."),
    ],
)
def test_a_way_stated_then_asked_to_be_kept_is_a_habit(text: str, content: str) -> None:
    assert _standing(text) == [content]


@pytest.mark.parametrize(
    "text",
    [
        "we use the old client, keep to it for now",  # for the moment
        "the tests pass, keep to it",  # no way of the user's or the team's
        "I added a cache, keep to it",
    ],
)
def test_no_way_of_the_team_or_one_for_now_is_no_kept_way(text: str) -> None:
    assert _standing(text) == []
