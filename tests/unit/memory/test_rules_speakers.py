"""The rules extractor reads the origin: only the user's own words can become user_style."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_core.events import Origin
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType, StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _styles(origin: Origin, *, sidechain: bool = False) -> list[str]:
    event = StoredEvent(
        id="evt_1",
        project_id="/home/dev/shop",
        user_id="dev",
        source_tool="claude_code",
        session_id="s",
        timestamp=T0,
        event_type="user_message",
        content={"text": "Always run the linter before committing."},
        file_paths=(),
        hash="h1",
        origin=str(origin),
        sidechain=sidechain,
    )
    (episode,) = segment_episodes([event], now=T0 + timedelta(days=1))
    found = RulesExtractor().extract_sync(episode, [event])
    return [c.content for c in found if c.type is MemoryType.USER_STYLE]


@pytest.mark.parametrize(
    "origin",
    [Origin.PARENT_AGENT, Origin.COMPACTION, Origin.HARNESS, Origin.HOOK, Origin.TOOL_RESULT],
)
def test_always_from_anyone_but_the_user_makes_no_user_style(origin: Origin) -> None:
    assert _styles(origin, sidechain=origin is Origin.PARENT_AGENT) == []


@pytest.mark.parametrize(
    "origin", [Origin.TYPED, Origin.QUEUED, Origin.SLASH_COMMAND, Origin.ANSWER]
)
def test_always_from_the_user_makes_user_style(origin: Origin) -> None:
    assert _styles(origin) == ["Always run the linter before committing."]
