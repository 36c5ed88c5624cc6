"""The gateway's team client follows the token file: a new token is used at once, a file that
cannot be read keeps the token in use."""

from __future__ import annotations

import shutil
from pathlib import Path

from squirrel_core.home import HomeLayout
from squirrel_core.settings import load_settings
from squirrel_core.team_client import save_team_token, saved_team_link
from squirrel_gateway.team_connection import TeamConnection


async def test_a_new_token_opens_a_new_client_and_an_unreadable_file_keeps_the_old(
    tmp_path: Path,
) -> None:
    settings = load_settings(
        {"SQRL_HOME": str(tmp_path / "home"), "SQRL_TEAM_SERVER": "localhost:9"}
    )
    layout = HomeLayout(settings.home).ensure()
    save_team_token(layout, "first-token")
    link = saved_team_link(settings)
    assert link is not None and link.token == "first-token"
    connection = TeamConnection(
        link, layout.team_token, lambda: saved_team_link(settings), timeout=1.0
    )
    try:
        first = connection.client()
        assert connection.client() is first  # nothing changed: the same client
        assert not connection.token_replaced()

        save_team_token(layout, "second-token")
        second = connection.client()
        assert second is not first
        assert connection.current_link().token == "second-token"

        save_team_token(layout, "second-token")  # saved again, the same token
        assert not connection.token_replaced()
        assert connection.client() is second

        layout.team_token.unlink()  # removed: the token in use stays
        assert not connection.token_replaced()
        layout.team_token.mkdir()  # a folder in its place
        assert not connection.token_replaced()
        assert connection.current_link().token == "second-token"
        shutil.rmtree(layout.team_token)
        layout.team_token.write_bytes(b"\xff\xfe not text")
        assert not connection.token_replaced()
        assert connection.client() is second
    finally:
        await connection.close()
