"""The note of a refused team token: it names the token refused, never holds it, and a new
token saved in its place is not taken for the refused one."""

from __future__ import annotations

from pathlib import Path

from squirrel_core.team_refusal import note_accepted, note_refused, token_refused

OLD = "sqt_aaaaaaaaaaaa_" + "x" * 43
NEW = "sqt_bbbbbbbbbbbb_" + "y" * 43


def _home(tmp_path: Path, token: str) -> tuple[Path, Path]:
    token_file = tmp_path / "team" / "token"
    token_file.parent.mkdir()
    token_file.write_text(token + "\n")
    return tmp_path / "team" / "refused", token_file


def test_the_refused_token_in_use_is_noted_without_its_text(tmp_path: Path) -> None:
    note, token_file = _home(tmp_path, OLD)
    assert not token_refused(note, token_file)
    note_refused(note, OLD)
    assert token_refused(note, token_file)
    assert OLD not in note.read_text() and "x" * 10 not in note.read_text()
    assert note.stat().st_mode & 0o777 == 0o600


def test_a_new_token_saved_after_the_refusal_is_not_said_refused(tmp_path: Path) -> None:
    note, token_file = _home(tmp_path, OLD)
    note_refused(note, OLD)
    token_file.write_text(NEW + "\n")  # what `sqrl team join` saves
    assert not token_refused(note, token_file)


def test_only_the_refused_tokens_acceptance_removes_the_note(tmp_path: Path) -> None:
    note, token_file = _home(tmp_path, OLD)
    note_refused(note, OLD)
    note_accepted(note, NEW)  # another token accepted says nothing of this one
    assert token_refused(note, token_file)
    note_accepted(note, OLD)  # the grant given back
    assert not note.exists() and not token_refused(note, token_file)


def test_no_token_file_or_no_note_is_not_a_refusal(tmp_path: Path) -> None:
    note = tmp_path / "refused"
    assert not token_refused(note, tmp_path / "token")
    note_refused(note, OLD)
    assert not token_refused(note, tmp_path / "token")
