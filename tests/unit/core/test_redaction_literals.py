"""One Aho-Corasick pass answers exactly what `in` and `str.find` would, for every literal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from squirrel_core.redaction import _LITERALS, _lower_aligned
from squirrel_core.redaction_literals import Literals

LITERALS = ("sk-", "SK", "AP0", "key", "pass", "password=", " -p", "private>", "gh")
WORDS = sorted({literal.lower() for literal in LITERALS})
# Pieces that overlap the literals, change case, or change length when lower-cased.
PIECES = st.sampled_from(
    [*LITERALS, *WORDS, "Sk-", "PASS", "KEY", "İ", "ẞ", "Σ", "é", "\n", " ", "-", "p", "AP", "0"]
)
TEXTS = st.lists(PIECES | st.text(max_size=3), max_size=30).map("".join)


def _naive_starts(lowered: str, word: str) -> list[int]:
    found: list[int] = []
    at = lowered.find(word)
    while at != -1:
        found.append(at)
        at = lowered.find(word, at + 1)
    return found


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_one_scan_finds_what_in_finds(text: str) -> None:
    lowered = _lower_aligned(text)
    found = Literals(LITERALS).scan(text, lowered)
    assert found.words == {word for word in WORDS if word in lowered}
    assert found.empty == (not found.words)
    for literal in LITERALS:
        assert found.in_text(literal) == (literal in text)
    for word in WORDS:
        assert found.in_lower(word) == (word in lowered)
        assert found.starts([word]) == _naive_starts(lowered, word)
    assert found.starts(WORDS) == sorted({i for w in WORDS for i in _naive_starts(lowered, w)})


def test_literals_must_be_ascii_and_not_empty() -> None:
    with pytest.raises(ValueError):
        Literals(["ключ"])
    with pytest.raises(ValueError):
        Literals([""])


def test_every_redaction_hint_is_one_of_the_scanned_literals() -> None:
    from squirrel_core import redaction, redaction_rules  # noqa: PLC0415

    hints = [
        *redaction._RULE_HINTS,
        *redaction._NAME_KEYWORDS,
        *redaction._FLAG_WORDS,
        "private>",
        "authorization",
        *redaction_rules.COMMAND_LITERALS,
        *redaction_rules.CONNECTION_HINTS,
        *redaction_rules.DETECTOR_LITERALS,
    ]
    assert all(hint in _LITERALS for hint in hints)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a" * 8, "Z9", "+/=", "_.-", " ", "\n", ":", "é", "a" * 31]), max_size=40
    ).map("".join)
)
def test_long_runs_are_found_where_the_candidate_regex_finds_them(text: str) -> None:
    from squirrel_core.redaction_entropy import CANDIDATE, candidate_spans  # noqa: PLC0415

    assert candidate_spans(text) == [match.span() for match in CANDIDATE.finditer(text)]
