"""One transaction's many new memories (written together on Postgres, pipelined) end as if
written one by one: every row and its CREATED history, in order with the steps between them
(a superseded memory in the same call). Both backends."""

from __future__ import annotations

from squirrel_memory.models import UpdateAction
from squirrel_memory.storage import Store

from .test_memory_book import USER, add, candidate, decide


async def test_many_new_memories_in_one_call_are_each_written_with_their_history(
    store: Store,
) -> None:
    old = await add(store, candidate("Tests run with nose", key="runner_old"))
    decisions = [
        decide(UpdateAction.ADD_NEW, candidate(f"Fact number {n} about module m{n}", key=f"k{n}"))
        for n in range(300)
    ]
    # Between the inserts: a step that reads and changes a row (the old memory superseded).
    decisions.insert(
        150, decide(UpdateAction.DELETE_AND_ADD, candidate("Tests run with pytest"), old.id)
    )
    result = await store.apply_processing_result([], decisions, [], user_id=USER)
    written = [m for m in result.memories if m.id != old.id]
    assert len(written) == 301 and len({m.id for m in written}) == 301
    live = await store.live_memory_ids()
    assert live == {m.id for m in written}
    successor = next(m for m in written if m.content == "Tests run with pytest")
    for memory in written:  # every one its CREATED history row, with its own content
        history = await store.history(memory.id)
        assert [(v.action, v.content) for v in history] == [("created", memory.content)]
    retired = await store.get_memory(old.id)
    assert retired.deleted
    assert retired.superseded_by == successor.id
