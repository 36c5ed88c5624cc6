"""A ban the user lifts later ("actually, wildcard imports are fine") is no habit of theirs
(`extractors/lifted_bans.py`): its memory is retired, and an episode or batch that holds both
drops it; said again after the lift, the ban stands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from session_builder import Session, clocked_stores, rules_processor

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.lifted_bans import bans, lifted_since
from squirrel_memory.models import MemoryType

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
BAN = "Never use wildcard imports in Kotlin files."
LIFT = "Actually, wildcard imports are fine, ignore what I said yesterday."


def _styles(*said: str) -> list[str]:
    s = Session("/home/u/tally", "s1", START)
    s.user("Add the money helpers.")
    for text in said:
        s.say("Done.")
        s.user(text)
    return [c.content for c in s.extracted() if c.type is MemoryType.USER_STYLE]


def test_a_ban_goes_when_the_user_lifts_it_later_and_stands_when_said_again() -> None:
    assert any("wildcard imports" in c for c in _styles(BAN))
    assert not any("wildcard imports" in c for c in _styles(BAN, LIFT))
    assert any("wildcard imports" in c for c in _styles(LIFT, BAN))


def test_only_a_lift_said_while_taking_something_back_counts() -> None:
    s = Session("/home/u/tally", "s1", START)
    s.user("The tests are fine now.")  # the work's state
    s.user("Tabs are fine.")  # no take-back: a remark, not a lift
    s.user("OK, I was wrong: trailing commas are allowed. Actually it is fine.")
    assert set(lifted_since(s.events)) == {"trailing commas"}


def test_a_memory_bans_a_thing_only_with_the_ban_word_right_before_it() -> None:
    style = MemoryType.USER_STYLE
    assert bans(style, "Never use wildcard imports in Kotlin files.", "wildcard imports")
    assert bans(style, "Avoid wildcard import.", "wildcard imports")
    assert not bans(style, "Never skip the tests.", "the tests")
    assert not bans(style, "Use wildcard imports.", "wildcard imports")
    assert not bans(MemoryType.PROJECT_FACT, "Never use wildcard imports.", "wildcard imports")


NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def _said(session: str, start: datetime, text: str) -> list[Event]:
    return [Event(SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE, start, {"text": text}, session)]


async def _stored_styles(tmp_path: Path, *batches: list[Event]) -> list[str]:
    """The user_style memories left once each batch is processed in turn."""
    tmp_path.mkdir()
    async with clocked_stores(tmp_path, NOW) as (store, users):
        processor = rules_processor(store, users, NOW)
        for batch in batches:
            await store.append_events(store.project_id, "u", batch, [])
            await processor.process_once(store, force=True)
        kept, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        return [m.content for m in kept if not m.deleted]


async def test_a_stored_ban_is_retired_when_a_later_session_lifts_it(tmp_path: Path) -> None:
    ban = _said("a", NOW - timedelta(days=2), BAN)
    lift = _said("b", NOW - timedelta(days=1), LIFT)
    assert any("wildcard" in c for c in await _stored_styles(tmp_path / "1", ban))
    assert not any("wildcard" in c for c in await _stored_styles(tmp_path / "2", ban, lift))
    # one batch that holds both sessions
    assert not any("wildcard" in c for c in await _stored_styles(tmp_path / "3", ban + lift))
