"""A search cursor (the gateway's, or a team search's `tm_…`) whose JSON is nested deeper than
the parser follows is refused as a foreign cursor is: Python's parser raises RecursionError on it,
which is no ValueError, and a cursor within the length limit can hold 1,500 levels."""

from __future__ import annotations

import base64

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_gateway import cursors, team_merge

NESTED = b"[" * 1_500 + b"]" * 1_500


def test_a_search_cursor_nested_too_deep_is_not_one_this_server_returned() -> None:
    cursor = base64.urlsafe_b64encode(NESTED).decode().rstrip("=")
    assert len(cursor) <= cursors.MAX_CURSOR_CHARS
    with pytest.raises(InvalidArgumentError, match="cursor is not a next_cursor"):
        cursors.decode_cursor(cursor, "fingerprint")


def test_a_team_cursor_nested_too_deep_is_not_one_this_search_returned() -> None:
    cursor = "tm_" + base64.urlsafe_b64encode(NESTED).decode()
    with pytest.raises(InvalidArgumentError, match="cursor is not one this search returned"):
        team_merge.decode_cursor(cursor)
