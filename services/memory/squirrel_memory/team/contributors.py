"""Who contributed a memory, as a team server tells a teammate's laptop.

A team server's answer to a team token names, beside each memory it shows, the team user who
contributed it: the first to `remember` it (`MemoryItem.writers`), else the user whose session
it was learnt from (the token's user that delivered its first source event). The name is the
one the team token was issued to, as the server keeps it in `tokens.json`: never a token. A
local caller (a laptop's own memory, the server machine's install token) is told nothing: every
memory there is its own user's.
"""

from __future__ import annotations

from collections.abc import Sequence

from squirrel_core.read_shapes import contributor_name
from squirrel_memory.storage import Store


async def contributors(store: Store, memory_ids: Sequence[str]) -> dict[str, str]:
    """Memory id → the team user who contributed it (asked only for a team caller, whose
    `team_user()` is set); a memory whose contributor is not known is left out."""
    if not memory_ids:
        return {}
    named: dict[str, str] = {}
    first_event: dict[str, str] = {}
    for item in await store.get_memories(sorted(set(memory_ids))):
        if item.writers:
            named[item.id] = item.writers[0]
        elif item.source_event_ids:
            first_event[item.id] = item.source_event_ids[0]
    if first_event:
        users = {e.id: e.user_id for e in await store.get_events(sorted(set(first_event.values())))}
        for memory_id, event_id in first_event.items():
            if users.get(event_id):
                named[memory_id] = users[event_id]
    return {
        memory_id: name for memory_id, user in named.items() if (name := contributor_name(user))
    }
