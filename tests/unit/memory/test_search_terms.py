"""The words a lexical search looks for: cut once per text, the same every time it is asked."""

from __future__ import annotations

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.models import MemoryType
from squirrel_memory.storage.checks import MAX_PAGE
from squirrel_memory.storage.search_terms import (
    LexicalQuery,
    lexical_query,
    match_terms,
    search_terms,
)


def test_search_terms_split_identifiers_and_drop_clitics_and_stop_words() -> None:
    assert search_terms("Why does parseConfig's my_value fail in app/main.py?") == [
        "parseconfig",
        "value",
        "fail",
        "app",
        "main",
        "py",
        "parse",
        "config",
    ]
    assert search_terms("the of and") == ["the", "of", "and"]  # nothing else: kept


def test_search_terms_of_a_text_asked_again_are_the_same_and_a_fresh_list() -> None:
    first = search_terms("flaky retry loop in the upload worker")
    first.append("changed")
    first[0] = "changed"
    again = search_terms("flaky retry loop in the upload worker")
    assert again == ["flaky", "retry", "loop", "upload", "worker"]
    assert again is not first
    assert match_terms("flaky retry loop in the upload worker") == again


def test_a_lexical_query_holds_its_terms_and_the_values_of_its_types() -> None:
    asked = lexical_query("retry the upload", [MemoryType.PITFALL, MemoryType.RECIPE], 10)
    assert asked == LexicalQuery(["retry", "upload"], [str(MemoryType.PITFALL), "recipe"])
    assert lexical_query("retry", None, MAX_PAGE) == LexicalQuery(["retry"], None)
    assert lexical_query("retry", [], 1) == LexicalQuery(["retry"], None)


@pytest.mark.parametrize("limit", [0, MAX_PAGE + 1, True, 2.0, "5"])
def test_a_lexical_query_refuses_a_limit_outside_the_page(limit: object) -> None:
    with pytest.raises(InvalidArgumentError, match="limit"):
        lexical_query("retry", None, limit)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="limit"):
        lexical_query("", None, limit)  # type: ignore[arg-type]  # checked before the words


def test_a_lexical_query_refuses_a_query_that_is_not_text() -> None:
    with pytest.raises(InvalidArgumentError, match="query"):
        lexical_query(b"retry", None, 10)  # type: ignore[arg-type]


def test_a_query_without_words_finds_nothing_and_types_are_checked_only_with_words() -> None:
    assert lexical_query("the ... ?", None, 10) is not None  # stop words alone are kept
    assert lexical_query(" ... ?! ", None, 10) is None
    assert lexical_query("", ["no-such-type"], 10) is None  # type: ignore[list-item]
    with pytest.raises(InvalidArgumentError, match="type"):
        lexical_query("retry", ["no-such-type"], 10)  # type: ignore[list-item]
