"""`sqrl doctor` on a joined laptop, against a real TLS team server on 127.0.0.1.

It tries the saved token and CA on the server as `sqrl team join` does: a server that answers
is a good line, a refused token or a CA that did not sign the server's certificate is a fault
with what to do, a server away is a line of information (reads answer from local memory); the
saved team token is checked to be private like the install's own. A home that never joined
gets no team line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from squirrel_cli.commands.doctor import Check, diagnose
from squirrel_core.auth import ensure_token
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.team_client import TeamLink
from squirrel_core.team_tokens import TeamTokens
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.test_team_delivery import _free_port, _settings, serving
from tests.tls_certs import make_tls_files

homes = delivery_tests.homes
Homes = Callable[..., tuple[Settings, Settings, TeamLink]]
"""A team server's and a laptop's settings and the laptop's link (the delivery tests' fixture)."""


def _joined(laptop: Settings, server: str, ca: Path) -> Settings:
    """The laptop's settings as `sqrl team join server --ca-file ca` leaves them."""
    ensure_token(HomeLayout(laptop.home).token)
    return laptop.with_values(team__server=server, team__ca_file=str(ca))


def _team_lines(settings: Settings, *, repair: bool = False) -> dict[str, Check]:
    return {c.name: c for c in diagnose(settings, repair=repair) if c.name.startswith("team")}


async def test_doctor_on_a_joined_laptop_says_whether_the_team_server_takes_its_token(
    tmp_path: Path, homes: Homes
) -> None:
    server_settings, laptop_settings, link = homes()
    assert link.ca_file is not None
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    async with serving(server_settings) as server:
        target = f"localhost:{server.service.team_port}"
        laptop = _joined(laptop_settings, target, link.ca_file)
        lines = await asyncio.to_thread(_team_lines, laptop)
        answered = lines["team server"]
        assert answered.ok and not answered.info and target in answered.detail, answered
        assert lines["team token"].ok, lines

        other_ca = make_tls_files(tmp_path / "other", ca_name="Someone else").ca
        tls = (await asyncio.to_thread(_team_lines, _joined(laptop, target, other_ca)))[
            "team server"
        ]
        assert not tls.ok and "TLS" in tls.detail and "team.ca_file" in tls.detail, tls

        [record] = [r for r in tokens.list() if r.user == "alice"]
        tokens.revoke(record.id)
        refused = (await asyncio.to_thread(_team_lines, laptop))["team server"]
        assert not refused.ok and "refused this laptop's token" in refused.detail, refused
        for check in (answered, tls, refused):
            assert link.token not in check.detail

    away = _joined(laptop_settings, f"localhost:{_free_port()}", link.ca_file)
    down = (await asyncio.to_thread(_team_lines, away))["team server"]
    assert down.ok and down.info and "unreachable" in down.detail, down
    assert "local memory" in down.detail


def test_doctor_finds_a_team_token_others_can_read_and_repairs_it(
    tmp_path: Path, homes: Homes
) -> None:
    _, laptop_settings, link = homes()
    assert link.ca_file is not None
    laptop = _joined(laptop_settings, f"localhost:{_free_port()}", link.ca_file)
    token = HomeLayout(laptop.home).team_token
    token.chmod(0o644)
    found = _team_lines(laptop)["team token"]
    assert not found.ok and "0600" in found.detail, found
    repaired = _team_lines(laptop, repair=True)["team token"]
    assert repaired.ok and repaired.repaired and (token.stat().st_mode & 0o777) == 0o600
    token.unlink()
    missing = _team_lines(laptop)
    assert not missing["team token"].ok and "sqrl team join" in missing["team token"].detail
    assert "team server" not in missing  # nothing to try the server with


def test_doctor_on_a_home_that_never_joined_says_nothing_of_a_team(tmp_path: Path) -> None:
    home = tmp_path / "solo"
    ensure_token(HomeLayout(home).ensure().token)
    assert _team_lines(_settings(home)) == {}
