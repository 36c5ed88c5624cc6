"""The passes over a user's messages of every session (the language they write in, the requests
they make again) on a team server: one user's messages at a time, each finding that user's
alone; on a laptop, the project's one user, as before. Through the processor, on every backend."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.caller import serving_team_user
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.candidate_decisions import decide_by_rules
from squirrel_memory.extractors.repeated_requests import PREFIX as ASKED_PREFIX
from squirrel_memory.extractors.reply_language import KEY as LANGUAGE_KEY
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.pass_report import PassReport
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import HistoryAction, Store
from squirrel_memory.user_memories.privacy import visible_items
from squirrel_memory.user_memories.userstore import SqliteUserStore

NOW = datetime.now(UTC).replace(microsecond=0)
SERVER = "server"
"""The install's own user on the team server (not one of the teammates)."""

CHINESE = ["帮我看看为什么测试失败了", "把配置文件的路径改成从环境变量读取"]
SPANISH = [
    "agrega un endpoint para listar los usuarios por favor",
    "ahora ejecuta los tests y dime que falla",
]
KOREAN = ["이 함수를 비동기로 바꿔 주세요 그리고 테스트를 실행해 주세요"]
ENGLISH = ["now run the linter on the whole project please"]
#: A request said again in another session, in other words (a habit once two sessions say it).
ASKED = ["コミットする前にテストを実行してください", "テストを実行してからコミットしてください"]
WORK = ["パーサーにエラー処理を追加して", "ビルドスクリプトを整理して"]


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


def _session(session: str, day: int, said: Sequence[str]) -> list[Event]:
    """One session `day` days ago: each message answered."""
    start = NOW - timedelta(days=day)
    events: list[Event] = []
    for n, text in enumerate(said):
        at = start + timedelta(minutes=2 * n)
        events.append(
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.USER_MESSAGE,
                at,
                {"text": text},
                session_id=session,
            )
        )
        events.append(
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.ASSISTANT_RESPONSE,
                at + timedelta(minutes=1),
                {"text": "Done."},
                session_id=session,
            )
        )
    return events


async def _deliver(store: Store, user: str, session: str, day: int, said: Sequence[str]) -> None:
    await store.append_events(store.project_id, user, _session(session, day, said), [])


async def _live(store: Store, *, prefix: str = LANGUAGE_KEY) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    return [m for m in items if m.key.startswith(prefix) and not m.deleted]


def _seen_by(user: str, items: list[MemoryItem]) -> list[MemoryItem]:
    with serving_team_user(user):
        return visible_items(items)


async def test_each_users_language_is_theirs_alone(store: Store, users: SqliteUserStore) -> None:
    await _deliver(store, "alice", "a1", 3, CHINESE)
    await _deliver(store, "bob", "b1", 3, SPANISH)
    await _deliver(store, "alice", "a2", 2, CHINESE[:1])
    await _deliver(store, "bob", "b2", 2, SPANISH[:1])

    await _processor(store, users, team=True).drain(store, force=True)

    found = {m.user_id: m for m in await _live(store)}
    assert sorted(found) == ["alice", "bob"]
    assert "in Chinese" in found["alice"].content and "in Spanish" in found["bob"].content
    assert {m.scope for m in found.values()} == {Scope.USER}
    languages = list(found.values())
    assert [m.user_id for m in _seen_by("alice", languages)] == ["alice"]
    assert [m.user_id for m in _seen_by("bob", languages)] == ["bob"]
    assert _seen_by("carol", languages) == []


async def test_a_language_is_found_per_user_in_a_pass_that_is_not_deferred(
    store: Store, users: SqliteUserStore
) -> None:
    await _deliver(store, "alice", "a1", 3, CHINESE)
    await _deliver(store, "bob", "b1", 3, ENGLISH * 3)

    await _processor(store, users, team=True).process_sessions(store, ["a1", "b1"])

    (language,) = await _live(store)
    assert language.user_id == "alice" and "in Chinese" in language.content
    assert language.scope is Scope.USER


async def test_a_request_one_user_repeats_is_their_habit_only(
    store: Store, users: SqliteUserStore
) -> None:
    await _deliver(store, "alice", "a1", 4, [WORK[0], ASKED[0]])
    await _deliver(store, "alice", "a2", 3, [WORK[1], ASKED[1]])
    await _deliver(store, "bob", "b1", 4, ENGLISH)

    await _processor(store, users, team=True).drain(store, force=True)

    (habit,) = await _live(store, prefix=ASKED_PREFIX)
    assert habit.user_id == "alice" and habit.scope is Scope.USER
    assert habit.content.startswith("In 2 sessions the user asked")
    assert _seen_by("bob", [habit]) == []


async def test_a_request_said_once_by_each_of_two_users_is_no_ones_habit(
    store: Store, users: SqliteUserStore
) -> None:
    await _deliver(store, "alice", "a1", 4, [WORK[0], ASKED[0]])
    await _deliver(store, "bob", "b1", 3, [WORK[1], ASKED[1]])

    await _processor(store, users, team=True).drain(store, force=True)

    assert await _live(store, prefix=ASKED_PREFIX) == []


async def test_a_language_no_longer_shown_is_retired_in_the_pass_and_counted(
    store: Store, users: SqliteUserStore
) -> None:
    processor = _processor(store, users, team=True)
    await _deliver(store, "alice", "a1", 9, KOREAN)
    await _deliver(store, "bob", "b1", 9, SPANISH)
    await processor.drain(store, force=True)
    (korean,) = [m for m in await _live(store) if m.user_id == "alice"]

    for n in range(3):  # most of alice's sessions are in English now
        await _deliver(store, "alice", f"a{n + 2}", 8 - n, ENGLISH)
    report: PassReport = await processor.drain(store, force=True)

    assert report.memories_deleted == 1
    assert [m.user_id for m in await _live(store)] == ["bob"]  # bob's Spanish stays
    last = (await store.history(korean.id))[-1]
    assert last.action == HistoryAction.FORGOTTEN


async def test_on_a_laptop_the_language_is_the_projects_as_before(
    store: Store, users: SqliteUserStore
) -> None:
    processor = _processor(store, users, team=False)
    await _deliver(store, "me", "s1", 9, KOREAN)
    await processor.drain(store, force=True)
    (korean,) = await _live(store)
    assert korean.scope is Scope.PROJECT and korean.user_id is None
    assert "in Korean" in korean.content

    for n in range(3):
        await _deliver(store, "me", f"s{n + 2}", 8 - n, ENGLISH)
    report = await processor.drain(store, force=True)

    assert report.memories_deleted == 1
    assert await _live(store) == []
