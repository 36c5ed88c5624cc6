"""Habits set as a polite request ("would you mind always …", "could you make it a habit to
…"), as a complaint about what the assistant does ("I hate it when you …"), for every review
("in code reviews, …"), for a kind of task ("any time you …", "after every refactor, …"), in a
learner's English, in the team's voice, under a write-up label, as a stressed requirement, and
in other languages as "always … before" a step; and the one-offs in the same words."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.standing_words import standing_sentences


def _standing(message: str) -> list[str]:
    return [
        p.content for p in stated_preferences(message, after_assistant_action=False) if p.standing
    ]


#: Each habit and the memory's sentence.
HABITS = [
    # a polite request with a rule word or a lasting marker
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
    ("May I ask that you always quote shell variables?", "Always quote shell variables."),
    (
        "Could you remember to tag the release every time you merge to main?",
        "Tag the release every time you merge to main.",
    ),
    # a complaint about what the assistant does
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
    # a way of reviewing
    ("in PR reviews, always flag missing docs", "In PR reviews, always flag missing docs."),
    (
        "during code review, list the risky changes first",
        "During code review, list the risky changes first.",
    ),
    (
        "when reviewing my changes, point out race conditions",
        "When reviewing my changes, point out race conditions.",
    ),
    # a step for a kind of task
    (
        "any time you add a setting, document its default",
        "Any time you add a setting, document its default.",
    ),
    ("after every migration, run the seed script", "After every migration, run the seed script."),
    # a learner's turns around rule words, the team's voice, tools over each file changed
    ("please to never push on friday evenings", "Never push on friday evenings."),
    ("you must to run the formatter before every commit", "Run the formatter before every commit."),
    ("is better you use pathlib always, not os.path", "Prefers pathlib always over os.path."),
    (
        "no add new dependencies in the code, always ask me first",
        "Don't add new dependencies in the code, always ask me first.",
    ),
    (
        "we don't catch generic errors in our team, crash early instead",
        "Don't catch generic errors, crash early instead.",
    ),
    ("we never swallow errors at our company", "Never swallow errors at our company."),
    (
        "our team writes changelog entries in the past tense",
        "Write changelog entries in the past tense.",
    ),
    ("ruff + black on every file you edit", "Run ruff + black on every file you edit."),
    # a label naming every one of a kind of write-up, then its properties
    (
        "commit messages: imperative mood, no emoji, under 50 chars",
        "Commit messages: imperative mood, no emoji, under 50 chars.",
    ),
    (
        "PR titles: ticket id first, then a short summary",
        "PR titles: ticket id first, then a short summary.",
    ),
    # a requirement on every thing of a kind, stressed
    (
        "it's really important that every migration has a down step",
        "Every migration must have a down step.",
    ),
    (
        "is essential that all scripts include a usage line",
        "All scripts must include a usage line.",
    ),
]
#: The one-offs in the same words.
ONE_OFFS = [
    # a polite request of the moment, or a question
    "Would you mind formatting this query?",
    "Would it be possible to bump the version in this PR?",
    "Could you remember to tag the release?",
    "Can I ask why you always quote the variables?",
    "Do you think we should always tag releases?",
    # a complaint of the moment, or someone else's
    "I hate this comment, delete it",
    "it drives me crazy that the build is slow",
    "my lead hates when people rename test files",
    "I hate it when you did that",
    "it annoys me when you touch this file",
    # one review
    "review this PR and list the risky changes",
    "in your last review you flagged a race, where was it?",
    "when reviewing this PR, point out the race",
    # one task of a kind, or when the assistant likes
    "anytime you want, run the migration",
    "whenever you like, update the docs",
    "after this migration, run the seed script",
    "before you rename the parser module, check for its imports",
    # the learner's and the team's one-off cousins
    "please to not push this branch yet",
    "you must to run the formatter on this file now",
    "is better you use pathlib in this function",
    "no add, I changed my mind",
    "no use of globals is fine here",
    "our team might write changelog entries in the past tense, thoughts?",
    "we swallowed that error at our company last year",
    "ruff + black on this file",
    # a write-up label over the write-ups at hand
    "commit messages: the last two are wrong",
    "PR titles: I'll fix them later",
    "commit message: fix the typo in the parser",
    "branch names: which one did you push?",
    # a stressed requirement of the product or of the moment
    "it's important that all users get a welcome email",
    "it's important that every migration has a down step in this PR",
    "is it important that every migration has a down step?",
    "it's important that all tests pass now",
]


@pytest.mark.parametrize(("message", "content"), HABITS)
def test_a_habit_is_kept_as_a_standing_rule(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize("message", ONE_OFFS)
def test_a_one_off_in_the_same_words_is_no_habit(message: str) -> None:
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
