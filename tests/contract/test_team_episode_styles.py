"""The style an episode's extraction finds on a team server is the user's whose events it read:
owned by them (seen by them alone, in their style view), merged with their own earlier
statements only, read by owner whatever the project's other style memories; project facts stay
shared; a laptop keeps its scopes. Through the processor, on every backend (a real Postgres)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.caller import serving_team_user
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory import candidate_decisions
from squirrel_memory.candidate_decisions import decide_by_rules
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.housekeeping.consolidation import Consolidator
from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import Store
from squirrel_memory.user_memories.privacy import visible_items
from squirrel_memory.user_memories.style_owner import PROJECT_ONLY_TAG
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views import Views

NOW = datetime.now(UTC).replace(microsecond=0)
SERVER = "server"
"""The install's own user on the team server (not one of the teammates)."""

#: An instruction about this project (a laptop files it project-scoped) and one about the
#: user's way of working (user-scoped everywhere).
HERE = "In this repo we never call Repo directly from controllers."
HERE_KEY = "pref:directly_controller"
ANYWHERE = "Always wrap errors with fmt.Errorf and %w."
ANYWHERE_KEY = "pref:wrap_error_fmt_errorf"
#: A correction said once, then again in other words in a later session (another key).
ONCE = "you forgot to update the CHANGELOG"
AGAIN = "did you update the changelog file?"
ONCE_KEY = "pref:update_changelog"
OTHERS = [
    "Why did you skip the pre-commit hook?",
    "I prefer small, focused commits.",
    "Please use pnpm instead of npm.",
]


@pytest.fixture
async def users(tmp_path: Path) -> AsyncIterator[SqliteUserStore]:
    store = await SqliteUserStore.open(tmp_path / "home")
    yield store
    await store.close()


def _processor(store: Store, users: SqliteUserStore, *, team: bool) -> Processor:
    async def stores() -> list[Store]:
        return [store]

    return Processor(
        stores,
        users,
        RulesExtractor(),
        decide_by_rules,
        user_id=SERVER if team else "me",
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: NOW,
        per_user=team,
    )


def _exchange(session: str, day: int, reply: str) -> list[Event]:
    """The user asks for a change, the assistant reports it done, the user answers `reply`."""
    start = NOW - timedelta(days=day)
    said = [
        (EventType.USER_MESSAGE, "Add the footer."),
        (EventType.ASSISTANT_RESPONSE, "Added the footer."),
        (EventType.USER_MESSAGE, reply),
    ]
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            start + timedelta(minutes=n),
            {"text": text},
            session_id=session,
        )
        for n, (kind, text) in enumerate(said)
    ]


async def _say(
    store: Store, processor: Processor, user: str, session: str, day: int, reply: str
) -> None:
    await store.append_events(store.project_id, user, _exchange(session, day, reply), [])
    await processor.drain(store, force=True)


async def _styles(store: Store) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    return [m for m in items if not m.deleted]


def _seen_by(user: str | None, items: list[MemoryItem]) -> list[MemoryItem]:
    with serving_team_user(user):
        return visible_items(items)


async def _style_view_keys(
    store: Store, users: SqliteUserStore, user: str, where: Path
) -> set[str]:
    """The keys of `user`'s style view, asked with their team token."""
    views = Views(store, user_store=users, views_dir=where, clock=lambda: NOW)
    try:
        with serving_team_user(user):
            view = await views.user_style(store.project_id, user_id=user, mode="full")
    finally:
        views.close()
    return {i.key for i in view.items}


async def test_a_users_style_from_an_episode_is_theirs_alone(
    store: Store, users: SqliteUserStore, tmp_path: Path
) -> None:
    processor = _processor(store, users, team=True)
    await _say(store, processor, "alice", "a1", 3, HERE)
    await _say(store, processor, "alice", "a2", 2, ANYWHERE)

    found = {m.key: m for m in await _styles(store)}
    assert set(found) == {HERE_KEY, ANYWHERE_KEY}
    assert {(m.scope, m.user_id) for m in found.values()} == {(Scope.USER, "alice")}
    # The instruction about this project stays this project's: never the global style.
    assert PROJECT_ONLY_TAG in found[HERE_KEY].tags
    assert PROJECT_ONLY_TAG not in found[ANYWHERE_KEY].tags
    assert [i.key for i in await users.list_user_style("alice")] == [ANYWHERE_KEY]

    assert {m.key for m in _seen_by("alice", list(found.values()))} == {HERE_KEY, ANYWHERE_KEY}
    assert _seen_by("bob", list(found.values())) == []
    assert await _style_view_keys(store, users, "alice", tmp_path / "a") >= {HERE_KEY}
    assert HERE_KEY not in await _style_view_keys(store, users, "bob", tmp_path / "b")


async def test_the_same_preference_of_two_users_is_two_memories_and_recurs_per_user(
    store: Store, users: SqliteUserStore
) -> None:
    processor = _processor(store, users, team=True)
    await _say(store, processor, "alice", "a1", 4, HERE)
    await _say(store, processor, "bob", "b1", 3, HERE)
    await _say(store, processor, "alice", "a2", 2, HERE)

    here = {m.user_id: m for m in await _styles(store) if m.key == HERE_KEY}
    assert sorted(here) == ["alice", "bob"]
    # Said in two of alice's sessions: raised as on a laptop; bob's said once stays as it was.
    assert "recurring" in here["alice"].tags and "recurring" not in here["bob"].tags
    assert here["alice"].importance > here["bob"].importance
    assert len(here["alice"].source_event_ids) == 2
    assert [m.user_id for m in _seen_by("bob", list(here.values()))] == ["bob"]


async def test_one_preference_said_by_two_users_once_each_never_recurs(
    store: Store, users: SqliteUserStore
) -> None:
    processor = _processor(store, users, team=True)
    await _say(store, processor, "alice", "a1", 4, ONCE)
    await _say(store, processor, "bob", "b1", 3, AGAIN)

    found = await _styles(store)
    assert sorted(m.user_id or "" for m in found) == ["alice", "bob"]
    assert all("tentative" in m.tags and "recurring" not in m.tags for m in found)


async def test_a_users_restatement_finds_their_memory_among_many_of_others(
    store: Store, users: SqliteUserStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fewer stored styles are compared than bob has, all newer than alice's: read by owner,
    # alice's is found all the same (a capped read of the project's would miss it).
    monkeypatch.setattr(candidate_decisions, "STYLE_LIMIT", 2)
    processor = _processor(store, users, team=True)
    await _say(store, processor, "alice", "a1", 6, ONCE)
    for n, reply in enumerate(OTHERS):
        await _say(store, processor, "bob", f"b{n}", 5 - n, reply)
    assert len([m for m in await _styles(store) if m.user_id == "bob"]) == len(OTHERS)

    await _say(store, processor, "alice", "a2", 1, AGAIN)

    (theirs,) = [m for m in await _styles(store) if m.user_id == "alice"]
    assert theirs.key == ONCE_KEY and "recurring" in theirs.tags
    assert len(theirs.source_event_ids) == 2


async def test_on_a_laptop_the_project_instruction_stays_the_projects(
    store: Store, users: SqliteUserStore
) -> None:
    processor = _processor(store, users, team=False)
    await _say(store, processor, "me", "s1", 3, HERE)
    await _say(store, processor, "me", "s2", 2, ANYWHERE)
    await _say(store, processor, "me", "s3", 1, HERE)

    found = {m.key: m for m in await _styles(store)}
    assert (found[HERE_KEY].scope, found[HERE_KEY].user_id) == (Scope.PROJECT, None)
    assert (found[ANYWHERE_KEY].scope, found[ANYWHERE_KEY].user_id) == (Scope.USER, "me")
    assert "recurring" in found[HERE_KEY].tags
    assert not any(PROJECT_ONLY_TAG in m.tags for m in found.values())
    assert len(_seen_by(None, list(found.values()))) == 2


async def test_an_unowned_style_from_before_is_kept_and_seen_as_before(
    store: Store, users: SqliteUserStore
) -> None:
    # What a team server wrote before style was owned: the project's, no owner.
    await _say(store, _processor(store, users, team=False), SERVER, "old", 5, HERE)
    (old,) = await _styles(store)
    assert (old.scope, old.user_id) == (Scope.PROJECT, None)

    await _say(store, _processor(store, users, team=True), "alice", "a1", 2, HERE)

    found = {m.user_id: m for m in await _styles(store)}
    assert set(found) == {"alice", None}
    assert found[None] == old  # untouched
    assert [m.id for m in _seen_by(None, [old])] == [old.id]  # the server machine's own caller
    assert _seen_by("alice", [old]) == []  # a team user never saw it, nor now
    assert [m.user_id for m in _seen_by("alice", list(found.values()))] == ["alice"]


def _install_session(session: str, day: int) -> list[Event]:
    """An install that failed, the same with a flag that passed, the tests run, and the user's
    instruction about this project."""
    start = NOW - timedelta(days=day)
    events: list[Event] = []
    runs = [
        ("npm install", 1, "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve"),
        ("npm install --legacy-peer-deps", 0, "added 312 packages in 9s"),
        ("npm test", 0, "Tests: 12 passed, 12 total"),
    ]
    for n, (command, code, output) in enumerate(runs):
        at, use = start + timedelta(minutes=n + 1), f"t{n}"
        call = {"tool": "Bash", "tool_use_id": use, "input": {"command": command}}
        ran = {
            "command": command,
            "tool_use_id": use,
            "exit_code": code,
            "is_error": code != 0,
            "output": output,
        }
        events.append(
            Event(SourceTool.CLAUDE_CODE, EventType.TOOL_CALL, at, call, session_id=session)
        )
        events.append(
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.COMMAND_RUN,
                at + timedelta(seconds=5),
                ran,
                session_id=session,
            )
        )
    events.append(
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            start + timedelta(minutes=5),
            {"text": HERE},
            session_id=session,
        )
    )
    return events


async def test_project_memories_from_the_same_episodes_stay_shared(
    store: Store, users: SqliteUserStore
) -> None:
    processor = _processor(store, users, team=True)
    for user, session, day in (("alice", "a1", 3), ("bob", "b1", 2)):
        await store.append_events(store.project_id, user, _install_session(session, day), [])
        await processor.drain(store, force=True)

    items, _ = await store.list_memories(store.project_id)
    live = [m for m in items if not m.deleted]
    shared = [m for m in live if m.type is not MemoryType.USER_STYLE]
    kinds = {m.type for m in shared}
    assert {MemoryType.PITFALL, MemoryType.RECIPE} <= kinds
    assert {(m.scope, m.user_id) for m in shared} == {(Scope.PROJECT, None)}
    # The failure both users met is one pitfall, seen in both sessions.
    (pitfall,) = [m for m in shared if m.type is MemoryType.PITFALL]
    assert "recurring" in pitfall.tags
    assert _seen_by("alice", shared) == shared and _seen_by("bob", shared) == shared
    styles = [m for m in live if m.type is MemoryType.USER_STYLE]
    assert sorted(m.user_id or "" for m in styles) == ["alice", "bob"]


class MergeAll:
    """A model that merges the last memory into the first and retires the first as
    contradicted by the last, whatever they are."""

    backend = "claude_cli"
    model = ""

    async def call_tool(self, **kwargs: Any) -> dict[str, Any]:
        refs = re.findall(r"^(m\d+) \[", str(kwargs["message"]), re.MULTILINE)
        first, last = refs[0], refs[-1]
        return {
            "merge": [{"keep": first, "drop": [last], "content": "Never call Repo directly."}],
            "retire": [{"ref": first, "contradicted_by": last}],
        }

    async def close(self) -> None:
        return None


def _consolidator(*, team: bool) -> Consolidator:
    return Consolidator(
        MergeAll(), interval=timedelta(hours=24), user_id=SERVER, clock=lambda: NOW, per_user=team
    )


async def test_consolidation_on_a_team_server_never_merges_two_users_style(
    store: Store, users: SqliteUserStore
) -> None:
    processor = _processor(store, users, team=True)
    await _say(store, processor, "alice", "a1", 3, HERE)
    await _say(store, processor, "bob", "b1", 2, HERE)

    report = await _consolidator(team=True).run(store, force=True)

    assert (report.merged, report.retired) == (0, 0)
    assert sorted(m.user_id or "" for m in await _styles(store)) == ["alice", "bob"]


async def test_consolidation_on_a_laptop_merges_as_before(
    store: Store, users: SqliteUserStore
) -> None:
    processor = _processor(store, users, team=False)
    await _say(store, processor, "me", "s1", 3, HERE)
    await _say(store, processor, "me", "s2", 2, ANYWHERE)

    report = await _consolidator(team=False).run(store, force=True)

    assert report.merged == 1
    assert len(await _styles(store)) == 1
