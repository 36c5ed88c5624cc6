"""The words a lexical search looks for: cut once per text, the same every time it is asked."""

from __future__ import annotations

from squirrel_memory.storage.search_terms import match_terms, search_terms


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
