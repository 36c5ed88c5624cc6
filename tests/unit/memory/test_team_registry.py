"""A team server's projects: opaque team ids, checked, stored under the home."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.home import HomeLayout
from squirrel_memory.team.registry import TeamProjectRegistry, check_team_id


@pytest.mark.parametrize("bad", ["", "   ", "a b", "x" * 601, "line\nbreak", "nul\x00", "ta\tb"])
def test_hostile_team_ids_are_refused(bad: str) -> None:
    with pytest.raises(InvalidArgumentError):
        check_team_id(bad)


async def test_registering_keeps_the_store_under_the_home_and_nothing_in_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    layout = HomeLayout(tmp_path / "home").ensure()
    registry = TeamProjectRegistry(layout)
    try:
        with pytest.raises(NotFoundError, match="first delivers"):
            await registry.store("github.com/acme/shop")
        assert await registry.register(" github.com/acme/shop ") == ("github.com/acme/shop", True)
        assert await registry.register("github.com/acme/shop") == ("github.com/acme/shop", False)
        assert registry.roots() == ["github.com/acme/shop"]
        assert registry.is_available("github.com/acme/shop")
        store = await registry.store("github.com/acme/shop")
        assert store.project_id == "github.com/acme/shop"
        assert list((tmp_path / "home" / "projects").glob("*/data.db"))
        assert not (tmp_path / "github.com").exists()
    finally:
        await registry.close()


@pytest.mark.parametrize("bad", ["/etc", "../../x", "GitHub.com/Acme/Shop", "local:m:rel"])
async def test_new_projects_take_only_team_id_forms_even_from_the_server_itself(
    tmp_path: Path, bad: str
) -> None:
    registry = TeamProjectRegistry(HomeLayout(tmp_path / "home").ensure())
    try:
        with pytest.raises(InvalidArgumentError, match="not a team project id"):
            await registry.register(bad)
        assert registry.roots() == []
    finally:
        await registry.close()
