"""Finding the memory a user names: by its id or, as git does, a unique prefix of it."""

from __future__ import annotations

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_memory.models import MemoryItem
from squirrel_memory.privacy import visible
from squirrel_memory.storage import Store

#: A memory id prefix needs this many characters (`mem_` and four more) to be looked up.
MIN_ID_PREFIX = 8
#: How many ids an ambiguous prefix lists.
MAX_ID_CANDIDATES = 10


async def require_memory(store: Store, memory_id: str) -> MemoryItem:
    """The memory (or the one a unique id prefix names) if this caller may see it; another
    user's private memory reads exactly like a missing one."""
    item = await find_memory(store, memory_id)
    if not visible(item):
        raise _missing(store, memory_id)
    return item


async def find_memory(store: Store, memory_id: str) -> MemoryItem:
    """The memory with this id, or the only one whose id starts with it, visible or not."""
    if not memory_id:
        raise InvalidArgumentError("memory_id is required")
    try:
        return await store.get_memory(memory_id)
    except NotFoundError:
        pass
    # Like git: a unique prefix of an id is the id (`mem_` may be left out).
    prefix = memory_id if memory_id.startswith("mem_") else f"mem_{memory_id}"
    found = (
        await store.memory_ids_with_prefix(prefix, MAX_ID_CANDIDATES + 1)
        if len(prefix) >= MIN_ID_PREFIX
        else []
    )
    if len(found) == 1:
        return await store.get_memory(found[0])
    if found:
        shown = ", ".join(found[:MAX_ID_CANDIDATES])
        more = " and more" if len(found) > MAX_ID_CANDIDATES else ""
        raise InvalidArgumentError(
            f"memory id {memory_id} is ambiguous: it starts {shown}{more}; give more of it"
        )
    raise _missing(store, memory_id)


def _missing(store: Store, memory_id: str) -> NotFoundError:
    return NotFoundError(f"no memory {memory_id} in {store.project_id}; `sqrl memories` lists them")
