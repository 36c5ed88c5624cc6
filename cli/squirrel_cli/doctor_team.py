"""The checks `sqrl doctor` runs on a laptop that joined a team: its token file and the server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from squirrel_cli.doctor_checks import Check, permission_check
from squirrel_core.errors import SquirrelError
from squirrel_core.files import FILE_MODE
from squirrel_core.home import HomeLayout
from squirrel_core.outbox_count import queued_remembers
from squirrel_core.settings import Settings
from squirrel_core.team_client import (
    READ_ONLY,
    REFUSED_REASON,
    TeamLink,
    TokenSeen,
    check_link,
    team_link,
)
from squirrel_core.team_in_use import teams_in_use

TEAM_CHECK_SECONDS = 5.0
"""How long doctor waits for the team server's answer."""

SAY_WAIT_AFTER_SECONDS = 1.0
"""A server not answered by then is said to be waited for (one that drops packets takes the
whole wait); the wait itself stays whole, so a loaded machine gets no false failure."""

Say = Callable[[str], None]

_AWAY = ("unreachable", "did not answer", "is starting", "is migrating")
"""Reasons that are the server's state, not this laptop's fault: reads and writes go on locally."""


def team_checks(settings: Settings, repair: bool, say: Say | None = None) -> list[Check]:
    """Nothing on a home that never joined; else the team token's file, then the server tried
    with that token and `team.ca_file` (as `sqrl team join` tries them); `say` is told when
    the server is being waited for."""
    server = settings.str_("team.server").strip()
    layout = HomeLayout(settings.home)
    stale = _restart_check(layout, server)
    if not server:
        return stale
    if not layout.team_token.is_file():
        return [
            *stale,
            Check(
                "team token",
                False,
                f"team.server is {server} but there is no team token at {layout.team_token};"
                " run `sqrl team join <host:port>` with the token your admin gave you",
            ),
        ]
    checks = [*stale, permission_check("team token", layout.team_token, FILE_MODE, repair)]
    try:
        link = team_link(settings)
    except SquirrelError as exc:
        return [*checks, Check("team server", False, str(exc))]
    if link is None:
        return checks
    try:
        seen = asyncio.run(_asked(link, server, say))
    except SquirrelError as exc:
        return [*checks, _refusal(exc, server, layout)]
    plural = "s" * (len(seen.projects) != 1)
    granted = f"{len(seen.projects)} project{plural} granted"
    if seen.role:
        granted = f"{seen.user}, {seen.role}, {granted}"
    detail = f"{server} accepted this laptop's token ({granted})"
    if seen.role == "read":
        detail += f"; {READ_ONLY}"
    return [*checks, Check("team server", True, detail, warn=seen.role == "read")]


async def _asked(link: TeamLink, server: str, say: Say | None) -> TokenSeen:
    """The projects `link`'s token is granted, saying so when the answer is slow to come."""
    asking = asyncio.ensure_future(check_link(link, TEAM_CHECK_SECONDS))
    if say is not None:
        done, _ = await asyncio.wait({asking}, timeout=SAY_WAIT_AFTER_SECONDS)
        if not done:
            say(
                f"waiting for the team server {server} to answer"
                f" (at most {TEAM_CHECK_SECONDS:g} s)…"
            )
    return await asking


def _restart_check(layout: HomeLayout, server: str) -> list[Check]:
    """A fault when a running service uses another team server than `team.server` names (a
    join or leave since `sqrl up`): they read it only at their start."""
    stale = [t for t in teams_in_use(layout.run) if t.server != server]
    if not stale:
        return []
    names = " and ".join(f"{t.service} service" for t in stale)
    used = {t.server for t in stale}
    in_use = (
        "local memory only" if used == {""} else "team server " + ", ".join(sorted(used - {""}))
    )
    wanted = f"team server {server}" if server else "local memory only (team.server is unset)"
    return [
        Check(
            "team in use",
            False,
            f"the running {names} still use{'s' * (len(stale) == 1)} {in_use}, not {wanted}:"
            " run `sqrl down && sqrl up -d` to switch",
        )
    ]


def _refusal(exc: SquirrelError, server: str, layout: HomeLayout) -> Check:
    """`check_link`'s refusal as a line: a fault to act on, or the server simply away."""
    reason = str(exc)
    if REFUSED_REASON in reason:  # what waits is kept: say so, and how it goes
        from squirrel_cli.memory_status import kept_while_refused  # noqa: PLC0415

        queued = queued_remembers(layout.team_outbox)
        kept = kept_while_refused(server, None, queued)
        said = f"team server {server}: it refused this laptop's token (revoked or unknown); {kept}"
        return Check("team server", False, said)
    if any(w in reason for w in _AWAY):
        return Check(
            "team server",
            True,
            f"{reason}; reads answer from local memory and remembers are queued until it is back",
            info=True,
        )
    return Check("team server", False, reason)
