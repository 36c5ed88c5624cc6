"""camelCase identifiers for full-text search, found in one pass over the text."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from squirrel_memory.storage.formats import camel_identifiers, fts_text

BACKTRACKING = re.compile(r"[A-Za-z]+[a-z0-9][A-Z][A-Za-z0-9]*")
"""The pattern the one-pass scan replaces: same answers, but quadratic on a long plain word."""


def test_identifiers_are_found_through_their_letters_and_digits() -> None:
    text = "call getUserName, then utf8Decode on HTTPServer9X; not plain, UPPER or ab1cD"
    assert camel_identifiers(text) == ["getUserName", "utf8Decode", "HTTPServer9X"]


def test_plain_words_and_digits_alone_are_not_identifiers() -> None:
    for text in ("", "plain words only", "UPPER CASE", "a1 b2 99B", "x" * 10_000, "é" * 50):
        assert camel_identifiers(text) == []
    assert fts_text("x" * 10_000) == "x" * 10_000


def test_a_long_word_ending_in_a_capital_is_one_identifier() -> None:
    assert camel_identifiers("x" * 10_000 + "Y") == ["x" * 10_000 + "Y"]
    assert fts_text("getUserName") == "getUserName\nget User Name"


@given(st.text(alphabet="aAbZ19 _-é.xY", max_size=40))
def test_the_scan_finds_what_the_backtracking_pattern_finds(text: str) -> None:
    assert camel_identifiers(text) == [m.group(0) for m in BACKTRACKING.finditer(text)]
