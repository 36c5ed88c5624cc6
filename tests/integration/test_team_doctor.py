"""`sqrl doctor` on a joined laptop, against a real TLS team server on 127.0.0.1.

It tries the saved token and CA on the server as `sqrl team join` does: a server that answers
is a good line, a refused token or a CA that did not sign the server's certificate is a fault
with what to do, a server away is a line of information (reads answer from local memory); the
saved team token is checked to be private like the install's own. A home that never joined
gets no team line.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path

from squirrel_cli.commands.doctor import Check, diagnose
from squirrel_core.auth import ensure_token
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.team_client import TeamLink
from squirrel_core.team_tokens import TeamTokens
from squirrel_gateway import server as gateway_server
from squirrel_memory import server as memory_server
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.conftest import running
from tests.integration.test_team_delivery import _settings, serving
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
    tmp_path: Path, homes: Homes, refused_port: int
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

    away = _joined(laptop_settings, f"localhost:{refused_port}", link.ca_file)
    down = (await asyncio.to_thread(_team_lines, away))["team server"]
    assert down.ok and down.info and "unreachable" in down.detail, down
    assert "local memory" in down.detail


def test_doctor_finds_a_team_token_others_can_read_and_repairs_it(
    tmp_path: Path, homes: Homes, refused_port: int
) -> None:
    _, laptop_settings, link = homes()
    assert link.ca_file is not None
    laptop = _joined(laptop_settings, f"localhost:{refused_port}", link.ca_file)
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


async def test_doctor_says_when_the_running_services_still_use_the_server_before_a_join(
    homes: Homes, refused_port: int
) -> None:
    """A join to a new address while the services run changes the setting, not them: doctor
    compares the two and says to restart, instead of a lone good line for the new server."""
    server_settings, laptop_settings, link = homes()
    assert link.ca_file is not None
    old = f"localhost:{refused_port}"
    started = _joined(laptop_settings, old, link.ca_file)
    async with serving(server_settings) as server:
        new = f"localhost:{server.service.team_port}"
        rejoined = _joined(laptop_settings, new, link.ca_file)
        async with (
            running("memory", memory_server.setup, started),
            running("gateway", gateway_server.setup, started),
        ):
            lines = await asyncio.to_thread(_team_lines, rejoined)
            stale = lines["team in use"]
            assert not stale.ok and old in stale.detail and new in stale.detail, stale
            assert "gateway" in stale.detail and "memory" in stale.detail, stale
            assert "sqrl down && sqrl up" in stale.detail, stale
            assert lines["team server"].ok, lines  # the new server itself answers

            same = await asyncio.to_thread(_team_lines, started)
            assert "team in use" not in same, same

            left = await asyncio.to_thread(_team_lines, laptop_settings)  # `sqrl team leave`
            assert not left["team in use"].ok and old in left["team in use"].detail, left

        after_restart = await asyncio.to_thread(_team_lines, rejoined)
        assert "team in use" not in after_restart, after_restart


async def test_doctor_says_when_services_started_alone_run_after_a_join(homes: Homes) -> None:
    """Services started before the first join use local memory only until restarted."""
    server_settings, laptop_settings, link = homes()
    assert link.ca_file is not None
    async with serving(server_settings) as server:
        joined = _joined(laptop_settings, f"localhost:{server.service.team_port}", link.ca_file)
        async with running("gateway", gateway_server.setup, laptop_settings):
            stale = (await asyncio.to_thread(_team_lines, joined))["team in use"]
            assert not stale.ok and "local memory only" in stale.detail, stale
            assert "gateway service" in stale.detail and "memory service" not in stale.detail, stale


def test_doctor_says_it_waits_for_a_team_server_that_never_answers(homes: Homes) -> None:
    """A server that takes the connection and answers nothing (as one dropping packets does)
    takes doctor's whole wait: the wait is said while it lasts, and it ends as an informational
    line, not a failure."""
    _, laptop_settings, link = homes()
    assert link.ca_file is not None
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # connections are taken by the kernel and never answered
        address = f"localhost:{silent.getsockname()[1]}"
        said: list[str] = []
        checks = diagnose(_joined(laptop_settings, address, link.ca_file), say=said.append)
    [waited] = said
    assert address in waited and "waiting" in waited, said
    [line] = [c for c in checks if c.name == "team server"]
    assert line.ok and line.info and "did not answer" in line.detail, line
