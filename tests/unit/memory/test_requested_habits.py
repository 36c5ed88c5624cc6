"""Habits set as a polite request ("would you mind always …", "could you make it a habit to
…"), as a complaint about what the assistant does ("I hate it when you …"), for every review
("in code reviews, …"), for a kind of task ("any time you …", "after every refactor, …"), and
in other languages as "always … before" a step; and the one-offs in the same words."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.standing_words import standing_sentences


def _standing(message: str) -> list[str]:
    return [
        p.content for p in stated_preferences(message, after_assistant_action=False) if p.standing
    ]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "Would you mind always formatting the SQL before you paste it?",
            "Always format the SQL before you paste it.",
        ),
        (
            "Could you make it a habit to check the logs after each deploy?",
            "Always check the logs after each deploy.",
        ),
        (
            "Would it be possible to never bump major versions without telling me?",
            "Never bump major versions without telling me.",
        ),
        (
            "May I ask that you always quote shell variables?",
            "Always quote shell variables.",
        ),
        (
            "Could you remember to tag the release every time you merge to main?",
            "Tag the release every time you merge to main.",
        ),
    ],
)
def test_a_polite_request_with_a_rule_word_is_a_habit(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "Would you mind formatting this query?",
        "Would it be possible to bump the version in this PR?",
        "Could you remember to tag the release?",
        "Can I ask why you always quote the variables?",
        "Do you think we should always tag releases?",
    ],
)
def test_a_polite_request_of_the_moment_is_no_habit(message: str) -> None:
    assert _standing(message) == []


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "I hate it when you add comments that repeat the code",
            "Don't add comments that repeat the code.",
        ),
        (
            "it really annoys me when you rename test files, ask first",
            "Don't rename test files; ask first.",
        ),
        (
            "it drives me nuts when your replies end with a summary",
            "Dislikes it when your replies end with a summary.",
        ),
        (
            "nothing bugs me more than magic strings in config code",
            "Avoid magic strings in config code.",
        ),
    ],
)
def test_a_complaint_about_what_the_assistant_does_is_a_habit(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "I hate this comment, delete it",
        "it drives me crazy that the build is slow",
        "my lead hates when people rename test files",
        "I hate it when you did that",
        "it annoys me when you touch this file",
    ],
)
def test_a_complaint_of_the_moment_or_of_someone_else_is_no_habit(message: str) -> None:
    assert _standing(message) == []


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("in PR reviews, always flag missing docs", "In PR reviews, always flag missing docs."),
        (
            "during code review, list the risky changes first",
            "During code review, list the risky changes first.",
        ),
        (
            "when reviewing my changes, point out race conditions",
            "When reviewing my changes, point out race conditions.",
        ),
    ],
)
def test_a_way_of_reviewing_is_a_habit(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "review this PR and list the risky changes",
        "in your last review you flagged a race, where was it?",
        "when reviewing this PR, point out the race",
    ],
)
def test_one_review_is_no_habit(message: str) -> None:
    assert _standing(message) == []


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "any time you add a setting, document its default",
            "Any time you add a setting, document its default.",
        ),
        (
            "after every migration, run the seed script",
            "After every migration, run the seed script.",
        ),
        (
            "before you rename any module, check for its imports",
            "Before you rename any module, check for its imports.",
        ),
    ],
)
def test_a_step_for_a_kind_of_task_is_a_habit(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "anytime you want, run the migration",
        "whenever you like, update the docs",
        "after this migration, run the seed script",
        "before you rename the parser module, check for its imports",
    ],
)
def test_one_task_of_a_kind_is_no_habit(message: str) -> None:
    assert _standing(message) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "siempre formatea el código antes de hacer push",
        "sempre atualize o changelog antes de abrir um PR",
        "никогда не меняй миграции перед релизом",
        "przed pushem zawsze uruchamiaj linter",
        "push atmadan önce her zaman linter çalıştır",
        "bundan böyle commit mesajlarını İngilizce yaz",
    ],
)
def test_always_before_a_step_in_another_language_is_a_standing_sentence(sentence: str) -> None:
    assert standing_sentences(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "el build siempre falla antes del deploy",
        "¿siempre formateas el código antes de hacer push?",
        "тесты всегда падают перед релизом",
        "czy zawsze uruchamiasz linter przed pushem?",
    ],
)
def test_a_report_or_question_with_always_before_sets_no_rule(sentence: str) -> None:
    assert standing_sentences(sentence) == []


@pytest.mark.parametrize(
    ("message", "content"),
    [
        # a learner's turns around the rule words, read as the plain English
        ("please to never push on friday evenings", "Never push on friday evenings."),
        (
            "you must to run the formatter before every commit",
            "Run the formatter before every commit.",
        ),
        (
            "is better you use pathlib always, not os.path",
            "Prefers pathlib always over os.path.",
        ),
        (
            "no add new dependencies in the code, always ask me first",
            "Don't add new dependencies in the code, always ask me first.",
        ),
        # the team's voice
        (
            "we don't catch generic errors in our team, crash early instead",
            "Don't catch generic errors, crash early instead.",
        ),
        ("we never swallow errors at our company", "Never swallow errors at our company."),
        (
            "our team writes changelog entries in the past tense",
            "Write changelog entries in the past tense.",
        ),
        # tools over each file the work changes
        ("ruff + black on every file you edit", "Run ruff + black on every file you edit."),
    ],
)
def test_a_learners_turn_or_the_teams_voice_is_a_habit(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "please to not push this branch yet",
        "you must to run the formatter on this file now",
        "is better you use pathlib in this function",
        "no add, I changed my mind",
        "no use of globals is fine here",
        "our team might write changelog entries in the past tense, thoughts?",
        "we swallowed that error at our company last year",
        "ruff + black on this file",
    ],
)
def test_their_one_off_cousins_are_no_habit(message: str) -> None:
    assert _standing(message) == []


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "commit messages: imperative mood, no emoji, under 50 chars",
            "Commit messages: imperative mood, no emoji, under 50 chars.",
        ),
        (
            "PR titles: ticket id first, then a short summary",
            "PR titles: ticket id first, then a short summary.",
        ),
    ],
)
def test_a_write_up_label_with_properties_is_a_habit(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "commit messages: the last two are wrong",
        "PR titles: I'll fix them later",
        "commit message: fix the typo in the parser",
        "branch names: which one did you push?",
    ],
)
def test_a_write_up_label_over_the_write_ups_at_hand_is_no_habit(message: str) -> None:
    assert _standing(message) == []


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "it's really important that every migration has a down step",
            "Every migration must have a down step.",
        ),
        (
            "is essential that all scripts include a usage line",
            "All scripts must include a usage line.",
        ),
    ],
)
def test_a_stressed_requirement_on_a_kind_is_a_habit(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "it's important that all users get a welcome email",
        "it's important that every migration has a down step in this PR",
        "is it important that every migration has a down step?",
        "it's important that all tests pass now",
    ],
)
def test_a_stressed_requirement_of_the_product_or_the_moment_is_no_habit(message: str) -> None:
    assert _standing(message) == []
