"""Team tokens: shown once, stored as salted hashes, revoked at once, hostile input refused."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.team_tokens import TeamTokens


def test_an_issued_token_names_its_user_and_only_its_hash_is_stored(tmp_path: Path) -> None:
    tokens = TeamTokens(tmp_path / "team" / "tokens.json")
    record, token = tokens.issue("alice")
    assert token.startswith(f"sqt_{record.id}_")
    assert tokens.user_of(token) == "alice"
    text = tokens.path.read_text()
    # The secret is urlsafe base64 and may itself hold "_": cut the known prefix, never split on "_".
    secret = token.removeprefix(f"sqt_{record.id}_")
    assert len(secret) >= 40
    assert secret not in text and token not in text
    assert stat.S_IMODE(tokens.path.stat().st_mode) == 0o600
    stored = json.loads(text)["tokens"][0]
    assert stored["user"] == "alice" and len(stored["salt"]) == 32 and len(stored["digest"]) == 64


def test_two_tokens_of_one_user_have_different_salts(tmp_path: Path) -> None:
    tokens = TeamTokens(tmp_path / "tokens.json")
    first, a = tokens.issue("bob")
    second, b = tokens.issue("bob")
    assert a != b and first.salt != second.salt and first.digest != second.digest
    assert tokens.user_of(a) == tokens.user_of(b) == "bob"


def test_revoking_applies_to_the_next_check_even_from_another_reader(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    server_side = TeamTokens(path)
    record, token = TeamTokens(path).issue("carol")
    assert server_side.user_of(token) == "carol"
    revoked = TeamTokens(path).revoke(record.id)
    assert revoked.revoked_at is not None
    assert server_side.user_of(token) is None
    listed = server_side.list()
    assert [(r.id, r.user, r.active) for r in listed] == [(record.id, "carol", False)]


@pytest.mark.parametrize(
    "presented",
    [
        "",
        "sqt_",
        "Bearer x",
        "sqt_000000000000_" + "a" * 43,  # unknown id
        "sqt_zzzz_" + "a" * 43,
        "x" * 100_000,
        "sqt_abcdef012345_\n" + "a" * 40,
    ],
)
def test_malformed_or_unknown_tokens_name_nobody(tmp_path: Path, presented: str) -> None:
    tokens = TeamTokens(tmp_path / "tokens.json")
    tokens.issue("dave")
    assert tokens.user_of(presented) is None


def test_a_tampered_secret_is_refused(tmp_path: Path) -> None:
    tokens = TeamTokens(tmp_path / "tokens.json")
    _, token = tokens.issue("erin")
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert tokens.user_of(flipped) is None


@pytest.mark.parametrize("user", ["", " ", "a b", "-x", "x" * 101, "é", "a/b"])
def test_bad_user_names_are_refused(tmp_path: Path, user: str) -> None:
    with pytest.raises(InvalidArgumentError):
        TeamTokens(tmp_path / "tokens.json").issue(user)


def test_revoking_an_unknown_id_says_so(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="sqrl team token list"):
        TeamTokens(tmp_path / "tokens.json").revoke("nope")


def test_a_corrupt_token_file_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text("{not json")
    with pytest.raises(InvalidArgumentError, match="not readable"):
        TeamTokens(path).user_of("sqt_000000000000_" + "a" * 43)
