"""Finding the memory a user names: by its id, its handle (`squirrel_core.handles`) or, as git
does, a unique prefix of either. Every command and browser page that takes an id comes here."""

from __future__ import annotations

from squirrel_core import handles
from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_memory.models import MemoryItem
from squirrel_memory.storage import Store
from squirrel_memory.user_memories.privacy import visible

#: A memory id prefix needs this many characters (`mem_` and four more) to be looked up.
MIN_ID_PREFIX = 8
#: How many ids an ambiguous prefix lists.
MAX_ID_CANDIDATES = 10
#: The longest id, handle or prefix looked up (an id is 30 characters; MCP's `forget` takes 200):
#: a longer one is refused without being said back, as a missing one would be (a paste of
#: 100,000 characters went back in the error, past gRPC's 16 KB limit on its metadata).
MAX_ID_CHARS = 200


async def require_memory(store: Store, memory_id: str) -> MemoryItem:
    """The memory (or the one a unique id prefix names) if this caller may see it; another
    user's private memory reads exactly like a missing one."""
    item = await find_memory(store, memory_id)
    if not visible(item):
        raise _missing(store, memory_id)
    return item


async def find_memory(store: Store, memory_id: str) -> MemoryItem:
    """The memory with this id, or the only one whose handle or id starts with it, visible or
    not. An ambiguous handle lists the candidates by their handles."""
    if not memory_id:
        raise InvalidArgumentError("memory_id is required")
    if len(memory_id) > MAX_ID_CHARS:
        raise InvalidArgumentError(
            f"memory_id is {len(memory_id):,} characters; an id or handle is at most"
            f" {MAX_ID_CHARS} (`sqrl memories` lists them)"
        )
    try:
        return await store.get_memory(memory_id)
    except NotFoundError:
        pass
    # Like git: a unique prefix of a handle or of an id names the memory (`mem_` may be left out).
    prefix = memory_id if memory_id.startswith("mem_") else f"mem_{memory_id}"
    every = await all_memory_ids(store)
    found = set(handles.matching(memory_id, every))
    if len(prefix) >= MIN_ID_PREFIX:
        found.update(m for m in every if m.startswith(prefix))
    if len(found) == 1:
        return await store.get_memory(found.pop())
    if found:
        shown_of = handles.handles(every)
        names = sorted(f"{shown_of[m]} ({m})" for m in found)
        shown = ", ".join(names[:MAX_ID_CANDIDATES])
        extra = len(names) - MAX_ID_CANDIDATES
        more = f" and {extra} more" if extra > 0 else ""
        raise InvalidArgumentError(
            f"memory {memory_id} is ambiguous: it could be {shown}{more}; give more of it"
        )
    raise _missing(store, memory_id)


def _missing(store: Store, memory_id: str) -> NotFoundError:
    return NotFoundError(f"no memory {memory_id} in {store.project_id}; `sqrl memories` lists them")


async def all_memory_ids(store: Store) -> list[str]:
    """Every memory id of the store's project, forgotten ones too: handles are unique among them."""
    return await store.memory_ids_with_prefix(handles.ID_PREFIX, _EVERY)


async def handles_of(store: Store) -> dict[str, str]:
    """Each memory id of the project and its handle, as every list shows it."""
    return handles.handles(await all_memory_ids(store))


#: No project holds this many memories.
_EVERY = 10_000_000
