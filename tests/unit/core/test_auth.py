from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_core.auth import ensure_token, load_token, token_matches
from squirrel_core.errors import FailedPreconditionError


def test_token_is_created_once_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "home" / "token"
    first = ensure_token(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert ensure_token(path) == first
    assert len(first) >= 40


def test_missing_token_file_is_a_precondition_error(tmp_path: Path) -> None:
    with pytest.raises(FailedPreconditionError):
        load_token(tmp_path / "token")


@pytest.mark.parametrize(
    ("header", "ok"),
    [
        ("Bearer abc", True),
        ("Bearer abd", False),
        ("abc", False),
        (None, False),
        ("Bearer ", False),
    ],
)
def test_only_the_exact_bearer_token_matches(header: str | None, ok: bool) -> None:
    assert token_matches(header, "abc") is ok
