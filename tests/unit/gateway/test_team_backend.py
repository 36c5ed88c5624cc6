"""Merging the team's answer with the local one, and the search cursor over both."""

from __future__ import annotations

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_gateway.team_merge import alternate, decode_cursor, encode_cursor


def test_alternate_takes_turns_and_keeps_the_first_of_each_key() -> None:
    team = [("pitfall", "a"), ("fact", "b"), ("recipe", "c")]
    local = [("fact", "b"), ("fact", "repo:stack")]
    assert alternate(team, local, lambda x: x) == [
        ("pitfall", "a"),
        ("fact", "b"),
        ("fact", "repo:stack"),
        ("recipe", "c"),
    ]
    assert alternate([], local, lambda x: x) == local
    assert alternate(team, [], lambda x: x) == team


def test_a_cursor_carries_both_sides_and_nothing_else_is_accepted() -> None:
    assert decode_cursor(None) == (None, None, True)
    assert encode_cursor(None, None) is None
    both = encode_cursor("t1", None)
    assert both is not None
    assert decode_cursor(both) == ("t1", None, False)


@pytest.mark.parametrize(
    "cursor", ["", "abc", "tm_!!!", "tm_bnVsbA==", "tm_WzEsMl0=", "tm_eyJ0IjogMX0=", "x" * 5000]
)
def test_foreign_or_tampered_cursors_are_refused(cursor: str) -> None:
    with pytest.raises(InvalidArgumentError, match="cursor"):
        decode_cursor(cursor)
