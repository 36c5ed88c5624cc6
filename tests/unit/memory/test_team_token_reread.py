"""After the team server refused the token, the home's token file is read again off the event
loop (a home on a slow disk never stalls the service's calls), and a new token is taken."""

from __future__ import annotations

import threading

from squirrel_core.team_client import TeamLink
from squirrel_memory.storage import Store
from squirrel_memory.team.delivery import TeamDelivery

REFUSED = TeamLink("team.example:7443", "sqt_refused", None, "m")


async def _no_stores() -> list[Store]:
    return []


async def test_the_token_file_is_read_again_off_the_event_loop() -> None:
    loop_thread = threading.current_thread()
    read_on: list[threading.Thread] = []

    def relink() -> TeamLink:
        read_on.append(threading.current_thread())
        return TeamLink(REFUSED.server, "sqt_new", None, "m")

    delivery = TeamDelivery(_no_stores, REFUSED, interval=3600, relink=relink)
    assert await delivery._token_replaced()
    assert read_on and read_on[0] is not loop_thread
    # The new token is the one used from then on: the same file again is no news.
    assert not await delivery._token_replaced()
