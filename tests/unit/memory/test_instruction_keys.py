"""An instruction's key is made of its words in any script: two instructions without one ASCII
word no longer share `pref:general` (one would have taken the other's place), and an ASCII
instruction keeps the key it always had."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.instruction_keys import instruction_key
from squirrel_memory.extractors.wording import key_slug


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("不要提交到主分支", "总是用中文写注释"),  # no spaces: a run is one word
        ("всегда пиши тесты", "никогда не удаляй миграции"),
        ("テストを先に書く", "コミットは小さく"),
        ("한국어로 답변", "테스트 먼저 작성"),
    ],
)
def test_two_instructions_without_ascii_words_get_two_keys(one: str, other: str) -> None:
    keys = {instruction_key(one), instruction_key(other)}
    assert len(keys) == 2 and "pref:general" not in keys


def test_the_same_instruction_in_another_script_keeps_one_key_for_its_wordings() -> None:
    assert instruction_key("Всегда пиши тесты") == instruction_key("всегда пиши тесты")


def test_accented_letters_stay_in_their_word() -> None:
    assert instruction_key("über Tests schreiben") == "pref:über_test_schreiben"
    assert instruction_key("écrire les tests") != instruction_key("crire les tests")


@pytest.mark.parametrize(
    ("subject", "key"),
    [
        ("push to main", "pref:push_main"),
        ("snake_case names", "pref:snake_case_name"),  # `_` still splits words
        ("pre-commit hooks", "pref:pre-commit_hook"),
        ("C++ and C# code", "pref:c++_c#_code"),
    ],
)
def test_an_ascii_instruction_keeps_its_key(subject: str, key: str) -> None:
    assert instruction_key(subject) == key


@pytest.mark.parametrize("subject", ["🙂 !!!", "— … —", "___", ""])
def test_a_subject_without_any_word_is_still_general(subject: str) -> None:
    assert instruction_key(subject) == "pref:general"
    assert key_slug(subject) == ""


@pytest.mark.parametrize("opening", ["Let's", "Lets", "lets,", "let’s"])
def test_a_suggestions_opening_is_not_part_of_its_key(opening: str) -> None:
    plain = "create a web_fetch tool so skills that fetch data use it"
    assert instruction_key(f"{opening} {plain}") == instruction_key(plain.capitalize())


def test_let_inside_an_instruction_stays_in_its_key() -> None:
    assert instruction_key("prefer const over let") != instruction_key("prefer const over var")
    assert instruction_key("let bindings over var") != instruction_key("bindings over var")


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        ("tests should be table-driven, as always", "tests should be table-driven"),
        ("write the failing test first, like always", "write the failing test first"),
        ("run ruff before committing as usual", "run ruff before committing"),
        ("keep the changelog entry short, like before", "keep the changelog entry short"),
    ],
)
def test_how_often_it_was_said_is_not_part_of_the_key(said: str, plain: str) -> None:
    assert instruction_key(said) == instruction_key(plain)
