"""The team user a request is served as: bound for a block only, whatever happens in it."""

from __future__ import annotations

import pytest

from squirrel_core.caller import serving_team_user, team_user


def test_a_block_is_served_as_the_user_and_the_binding_ends_with_it() -> None:
    assert team_user() is None
    with serving_team_user("alice"):
        assert team_user() == "alice"
        with serving_team_user("bob"):
            assert team_user() == "bob"
        assert team_user() == "alice"
    assert team_user() is None


def test_the_binding_ends_when_the_block_raises() -> None:
    with pytest.raises(RuntimeError), serving_team_user("alice"):
        raise RuntimeError("boom")
    assert team_user() is None


def test_none_serves_the_installs_own_caller() -> None:
    with serving_team_user(None):
        assert team_user() is None
