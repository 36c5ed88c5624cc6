"""A laptop's sharing with a team server as the memory service starts and reports it: the
delivery made from the settings (`delivery_for`: none without a link; a half-configured link is
logged and local memory goes on alone) and a project's delivery fields of the processing status
(`delivery_fields`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import structlog

from squirrel_core.errors import SquirrelError
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.team_client import TeamLink, laptop_id, saved_team_link, team_link
from squirrel_memory.storage import Store
from squirrel_memory.team.delivery import TeamDelivery

log = structlog.get_logger()


def delivery_for(
    settings: Settings, stores: Callable[[], Awaitable[list[Store]]]
) -> TeamDelivery | None:
    """The delivery of `stores`' events to the team server the settings link to, or None when
    they link to none (or only half)."""
    link = _team_link_or_none(settings)
    if link is None:
        return None
    return TeamDelivery(
        stores,
        link,
        interval=settings.float_("team.deliver_seconds"),
        relink=lambda: saved_team_link(settings),
        refusal_file=HomeLayout(settings.home).team_refused,
        laptop=laptop_id(HomeLayout(settings.home)),
    )


def _team_link_or_none(settings: Settings) -> TeamLink | None:
    """The team server to deliver to; a half-configured link is logged and local memory goes
    on alone (the service never refuses to start over it)."""
    try:
        return team_link(settings)
    except SquirrelError as exc:
        log.warning("team_delivery_off", reason=str(exc))
        return None


async def delivery_fields(delivery: TeamDelivery, store: Store) -> dict[str, Any]:
    """The project's delivery to the team server, for a laptop that shares with one."""
    rejected = delivery.rejected(store)
    return {
        "team_events_waiting": await delivery.waiting(store),
        "team_delivery_error": delivery.last_error or "",
        "team_events_rejected": rejected[0],
        "team_rejected_reason": rejected[1],
    }
