"""The team link read again after the server refused the token: a token file that cannot be
read (a folder, no permission, not text) is no link, never an error that ends delivery."""

from __future__ import annotations

from pathlib import Path

from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings, load_settings
from squirrel_core.team_client import saved_team_link


def _settings(home: Path) -> Settings:
    return load_settings({"SQRL_HOME": str(home), "SQRL_TEAM_SERVER": "team.example:7443"})


def test_a_saved_token_is_read_again(tmp_path: Path) -> None:
    token = HomeLayout(tmp_path).team_token
    token.parent.mkdir(parents=True, exist_ok=True)
    token.write_text("sqt_new\n")
    link = saved_team_link(_settings(tmp_path))
    assert link is not None and link.token == "sqt_new"


def test_a_token_file_that_cannot_be_read_is_no_link(tmp_path: Path) -> None:
    token = HomeLayout(tmp_path).team_token
    token.mkdir(parents=True)  # a folder where the token file belongs
    assert saved_team_link(_settings(tmp_path)) is None
    token.rmdir()
    token.write_bytes(b"\xff\xfe\x00not text")
    assert saved_team_link(_settings(tmp_path)) is None
