"""Two wordings of one instruction told from two instructions: shared words, the sides rules
take, the words a memory quotes the user saying, and a meaning close enough beside them."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.paraphrases import (
    MEANING_THRESHOLD,
    Likeness,
    said_part,
    same_instruction,
    same_standing_rule,
)

# --- shared words ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("Commit and push when a task is done.", "Push when you are done with a task.", True),
        ("Run the tests before committing.", "Always run tests before you commit.", True),
        ("Use pnpm instead of npm.", "Prefers pnpm over npm.", True),
        ("Keep going until all tasks are done.", "Don't stop after each task.", True),
        ("Carry on until the batch is finished.", "Keep going until the batch is complete.", True),
        # Only a common verb in common: two instructions.
        ("Always run the tests before committing.", "Run the linter before committing.", False),
        ("Don't add notes.", "Don't add comments.", False),
        ("Keep the commit messages short.", "Keep the functions short.", False),
        ("Keep going until all tasks are done.", "Don't stop the dev server.", False),
    ],
)
def test_the_same_instruction_in_other_words(first: str, second: str, same: bool) -> None:
    assert same_instruction(first, second) is same
    assert same_instruction(second, first) is same


# --- the meaning rule, with a given likeness --------------------------------------------------


def _likeness(score: float) -> Likeness:
    def likeness(first: str, second: str) -> float | None:
        return score

    return likeness


def test_close_meaning_joins_wordings_that_share_a_telling_word() -> None:
    first, second = "Ask me before deleting files.", "Never delete a file without asking me first."

    assert not same_instruction(first, second)  # the words alone do not decide
    assert same_instruction(first, second, _likeness(MEANING_THRESHOLD))
    assert not same_instruction(first, second, _likeness(MEANING_THRESHOLD - 0.01))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # no word in common: the vectors never decide alone
        ("Don't use emojis in the code.", "No emoji anywhere please."),
        # a shared telling word, too few of the others
        ("Keep going until all tests pass.", "Keep going until all tasks are done."),
    ],
)
def test_close_vectors_without_shared_words_are_not_one_instruction(
    first: str, second: str
) -> None:
    assert not same_instruction(first, second, _likeness(0.99))


def test_opposite_choices_are_never_one_instruction() -> None:
    assert not same_instruction("Prefers pnpm over npm.", "Prefers npm over pnpm.", _likeness(0.99))
    assert same_instruction("Use pnpm instead of npm.", "Prefers pnpm over npm.")


def test_without_a_vector_the_words_decide_alone() -> None:
    def unknown(first: str, second: str) -> float | None:
        return None

    assert not same_instruction(
        "Ask me before deleting files.", "Never delete a file without asking me first.", unknown
    )


# --- standing rules and the user's own words ------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        (
            "Always run the tests before committing.",
            "Run the test suite before every commit.",
            True,
        ),
        ("Never push to main.", "Do not push directly to main.", True),
        ("Always use 2-space tabs.", "Never use 2-space tabs.", False),
        ("Use pnpm, not npm.", "Use npm, not pnpm.", False),
        ("Run cargo test before committing.", "Run cargo clippy before committing.", False),
        ("Indent Lua with 2 spaces.", "Indent Lua with 4 spaces, not 2.", False),
        # a short rule is no part of a long list that names its words
        (
            "Prefers includes over preload.",
            "House rules: use includes, not preload, run the tests before you say it's done, "
            "and never edit the schema by hand.",
            False,
        ),
    ],
)
def test_two_standing_rules_are_one_only_when_their_words_and_sides_agree(
    one: str, other: str, same: bool
) -> None:
    assert same_standing_rule(one, other) is same


_PT = "Something the user asked not to be done, said by the user in Portuguese: “{}”."


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        # the rule's own lead is shared whole: the user's words decide
        (_PT.format("Não mexe no pagamento."), _PT.format("Não mexe no layout."), False),
        (_PT.format("Não mexe no pagamento."), _PT.format("Nunca mexe no pagamento!"), True),
        # one form filled with two things, in any language
        ("Run the tests before you commit.", "Run the tests before you push.", False),
        ("Don't touch the payment module.", "Don't touch the layout module.", False),
        # another ending of one word is no other thing
        ("Run the linter before committing.", "Run the linters before committing.", True),
    ],
)
def test_instructions_are_compared_by_the_users_words(one: str, other: str, same: bool) -> None:
    assert same_instruction(one, other) is same


def test_said_part_is_the_quote_after_a_lead_or_the_whole_text() -> None:
    assert said_part(_PT.format("Não mexe no layout.")) == "Não mexe no layout."
    assert (
        said_part("In 2 sessions the user asked: “Keep the diff small”.") == "Keep the diff small"
    )
    assert said_part("Don't touch the layout.") == "Don't touch the layout."
    # a quote inside the statement, not at its end, leaves the whole text
    assert said_part("Prefers “pnpm” over npm.") == "Prefers “pnpm” over npm."
