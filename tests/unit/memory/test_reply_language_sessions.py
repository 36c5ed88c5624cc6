"""The language the user writes in, decided over every session of a project: sessions of one
short message add up, one session in another language among many in English retires what it
said, a language said in several sessions ranks higher, and a later language replaces an
earlier one. Through the processor, a real store and the core style view."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.reply_language import KEY, reply_language
from squirrel_memory.models import MemoryItem, MemoryType, StoredEvent
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views.core_style import core_style
from tests.unit.memory.session_builder import clocked_stores, rules_processor

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)

UKRAINIAN = "поміняй в цьому файлі всі змінні на такий формат"
KOREAN = "이 함수를 비동기로 바꿔 주세요 그리고 테스트를 실행해 주세요"
JAPANESE = "このコンポーネントのテストを書いてください"
ENGLISH = "now run the linter on the whole project please"
ALSO = "also update the changelog with the new option"


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    async with clocked_stores(tmp_path, NOW) as pair:
        yield pair


def _session(session: str, start: datetime, said: list[str]) -> list[Event]:
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


async def _replay(
    stores: tuple[SqliteStore, SqliteUserStore], sessions: list[list[str]]
) -> list[MemoryItem | None]:
    """Each session processed in turn, days apart; the live reply-language memory after each."""
    store, users = stores
    processor = rules_processor(store, users, NOW)
    after: list[MemoryItem | None] = []
    for n, said in enumerate(sessions):
        start = NOW - timedelta(days=2) * (len(sessions) - n)
        await store.append_events(store.project_id, "u", _session(f"s{n}", start, said), [])
        await processor.drain(store)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        after.append(next((m for m in items if m.key == KEY and not m.deleted), None))
    return after


async def test_sessions_of_one_short_message_add_up(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    # "так само" alone says Russian or Ukrainian; one message that decides tells which
    after = await _replay(stores, [["так само"], [UKRAINIAN], ["так само"]])

    assert after[0] is None  # nothing decided yet: say less
    last = after[2]
    assert last is not None
    assert last.content == (
        "The user writes to the assistant in Ukrainian (українська), 3 of 3 messages in 3 "
        "sessions: reply in Ukrainian."
    )
    assert "recurring" in last.tags and len(last.source_event_ids) == 3


async def test_one_session_in_a_language_among_many_in_english_is_retired(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    after = await _replay(stores, [[KOREAN], [ENGLISH, ALSO], [ALSO], [ENGLISH]])

    first = after[0]
    assert first is not None and "in Korean" in first.content
    assert after[3] is None  # most sessions are English: the Korean one said nothing lasting
    store, _ = stores
    items, _ = await store.list_memories(
        store.project_id, types=[MemoryType.USER_STYLE], include_deleted=True
    )
    (retired,) = [m for m in items if m.key == KEY]
    assert retired.deleted


async def test_a_language_said_in_more_sessions_ranks_higher_in_the_style_view(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    after = await _replay(stores, [[KOREAN], [KOREAN, "좋아요 계속해"], [KOREAN]])

    grown = [m.importance for m in after if m is not None]
    assert len(grown) == 3 and grown[0] < grown[2] and grown == sorted(grown)
    last = after[2]
    assert last is not None and "4 of 4 messages in 3 sessions" in last.content
    assert core_style([last])[0].key == KEY


async def test_a_later_language_replaces_an_earlier_one(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    after = await _replay(stores, [[KOREAN], [JAPANESE], [JAPANESE], [JAPANESE]])

    last = after[3]
    assert last is not None and "in Japanese" in last.content
    store, _ = stores
    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    assert [m.content for m in items if m.key == KEY and not m.deleted] == [last.content]


def _stored(sessions: list[list[str]]) -> list[StoredEvent]:
    events: list[StoredEvent] = []
    for n, said in enumerate(sessions):
        for i, text in enumerate(said):
            events.append(
                StoredEvent(
                    id=f"e{n}-{i}",
                    project_id="/home/dev/app",
                    user_id="u",
                    session_id=f"s{n}",
                    source_tool=str(SourceTool.CLAUDE_CODE),
                    event_type=str(EventType.USER_MESSAGE),
                    timestamp=NOW + timedelta(days=n, minutes=i),
                    content={"text": text},
                    file_paths=(),
                    hash=f"h{n}-{i}",
                    origin="typed",
                )
            )
    return events


def test_most_messages_in_one_session_do_not_outweigh_most_sessions() -> None:
    # a long session in Korean, then four sessions in English: the user's language is not told
    korean = [KOREAN] * 12
    assert reply_language(_stored([korean, [ENGLISH], [ENGLISH], [ENGLISH], [ENGLISH]])) is None
    found = reply_language(_stored([korean, [ENGLISH], [KOREAN]]))
    assert found is not None and found.language == "ko" and found.sessions == 2
