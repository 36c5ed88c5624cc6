"""The checks `sqrl doctor` runs on a laptop that joined a team: its token file and the server."""

from __future__ import annotations

import asyncio

from squirrel_cli.doctor_checks import Check, permission_check
from squirrel_core.errors import SquirrelError
from squirrel_core.files import FILE_MODE
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.team_client import check_link, team_link

TEAM_CHECK_SECONDS = 5.0
"""How long doctor waits for the team server's answer."""

_AWAY = ("unreachable", "did not answer", "is starting", "is migrating")
"""Reasons that are the server's state, not this laptop's fault: reads and writes go on locally."""


def team_checks(settings: Settings, repair: bool) -> list[Check]:
    """Nothing on a home that never joined; else the team token's file, then the server tried
    with that token and `team.ca_file` (as `sqrl team join` tries them)."""
    server = settings.str_("team.server").strip()
    if not server:
        return []
    layout = HomeLayout(settings.home)
    if not layout.team_token.is_file():
        return [
            Check(
                "team token",
                False,
                f"team.server is {server} but there is no team token at {layout.team_token};"
                " run `sqrl team join <host:port>` with the token your admin gave you",
            )
        ]
    checks = [permission_check("team token", layout.team_token, FILE_MODE, repair)]
    try:
        link = team_link(settings)
    except SquirrelError as exc:
        return [*checks, Check("team server", False, str(exc))]
    if link is None:
        return checks
    try:
        granted = asyncio.run(check_link(link, TEAM_CHECK_SECONDS))
    except SquirrelError as exc:
        return [*checks, _refusal(exc)]
    plural = "s" * (len(granted) != 1)
    return [
        *checks,
        Check(
            "team server",
            True,
            f"{server} accepted this laptop's token ({len(granted)} project{plural} granted)",
        ),
    ]


def _refusal(exc: SquirrelError) -> Check:
    """`check_link`'s refusal as a line: a fault to act on, or the server simply away."""
    reason = str(exc)
    if any(w in reason for w in _AWAY):
        return Check(
            "team server",
            True,
            f"{reason}; reads answer from local memory and remembers are queued until it is back",
            info=True,
        )
    return Check("team server", False, reason)
