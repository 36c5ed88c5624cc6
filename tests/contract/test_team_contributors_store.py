"""Who contributed a memory, read from either backend's store as a team server does: the first
writer of a remembered memory, else the user who delivered its first source event."""

from __future__ import annotations

from squirrel_memory.models import MemoryType, Scope
from squirrel_memory.storage import Store
from squirrel_memory.team.contributors import contributors

from .test_event_log import ev
from .test_memory_book import add, candidate


async def test_a_memory_names_its_first_writer_else_its_sessions_user(
    store: Store, project: str
) -> None:
    bobs = await store.append_events(project, "bob", [ev("bob ran the tests")], [])
    learnt = await add(store, candidate(events=tuple(bobs.event_ids)))
    stated = await store.remember(
        project,
        type=MemoryType.PROJECT_FACT,
        key="release_branch",
        content="Releases are cut from the release branch.",
        tags=(),
        importance=0.6,
        scope=Scope.PROJECT,
        user_id="carol",
    )
    unknown = await add(store, candidate("Lint with ruff.", key="lint", events=("evt_not_stored",)))

    named = await contributors(store, [learnt.id, stated.id, unknown.id, "mem_missing"])

    assert named == {learnt.id: "bob", stated.id: "carol"}
    assert await contributors(store, []) == {}
