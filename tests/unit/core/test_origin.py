"""Who said it: the origin enum, the user-voice predicate and the wire form agree."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel.v1 import events_pb2
from squirrel_core.events import (
    Event,
    EventType,
    Origin,
    SourceTool,
    default_origin,
    is_user_voice,
    parse_origin,
)
from squirrel_core.wire import ORIGINS, EventDecodeError, event_from_pb, event_to_pb

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def test_only_the_users_own_words_are_the_users_voice() -> None:
    voice = {origin for origin in Origin if is_user_voice(origin)}
    assert voice == {Origin.TYPED, Origin.QUEUED, Origin.SLASH_COMMAND, Origin.ANSWER}
    assert is_user_voice("typed")
    for other in ("", None, "user", "parent_agent", "compaction", "harness", "TYPED"):
        assert not is_user_voice(other)


def test_every_origin_has_a_wire_value_and_back() -> None:
    assert set(ORIGINS.values()) == set(Origin)
    names = {v.name for v in events_pb2.EventOrigin.DESCRIPTOR.values}
    assert names == {"EVENT_ORIGIN_UNSPECIFIED"} | {f"EVENT_ORIGIN_{o.name}" for o in Origin}


@pytest.mark.parametrize("origin", [*Origin, None])
def test_event_origin_round_trips(origin: Origin | None) -> None:
    event = Event(
        SourceTool.CLAUDE_CODE,
        EventType.USER_MESSAGE,
        T0,
        {"text": "hi"},
        session_id="s",
        sidechain=True,
        agent_id="a1",
        origin=origin,
    )
    back = event_from_pb(event_to_pb(event))
    assert (back.origin, back.sidechain, back.agent_id) == (origin, True, "a1")


def test_an_unknown_wire_origin_is_refused() -> None:
    msg = event_to_pb(Event(SourceTool.CODEX, EventType.USER_MESSAGE, T0, {"text": "x"}))
    msg.origin = 999  # type: ignore[assignment]
    with pytest.raises(EventDecodeError, match="unknown_origin"):
        event_from_pb(msg)


def test_unclassified_events_take_the_default_of_their_type() -> None:
    assert default_origin(EventType.USER_MESSAGE) is Origin.TYPED
    assert default_origin("command_run") is Origin.ASSISTANT
    assert default_origin(EventType.COMPACTION_SUMMARY) is Origin.COMPACTION
    assert default_origin("teleport") is Origin.HARNESS
    assert parse_origin("queued", "user_message") is Origin.QUEUED
    assert parse_origin("", "commit") is Origin.GIT
    assert parse_origin("from the future", "tool_result") is Origin.TOOL_RESULT
