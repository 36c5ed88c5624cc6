"""Events on the wire: the hand-written conversions give exactly what protobuf's generic ones
give (same bytes out, same JSON objects back), so event hashes and dedup never change."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from google.protobuf import json_format, struct_pb2, timestamp_pb2

from squirrel.v1 import events_pb2
from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_core.wire import event_from_pb, event_to_pb, struct_to_dict, timestamp_pb

ODD_CONTENT: dict[str, Any] = {
    "text": "é\u0000 \ud7ff tab\tnewline\n",
    "int": 3,
    "float": 2.5,
    "tiny": -1e-300,
    "huge": 2**53,
    "none": None,
    "flag": False,
    "list": [1, "x", {"y": [None, True, []]}],
    "empty": {},
    "nested": {"a": {"b": {"c": "deep"}}},
}


def _generic(event: Event) -> events_pb2.Event:
    ts = timestamp_pb2.Timestamp()
    ts.FromDatetime(event.timestamp.astimezone(UTC))
    content = struct_pb2.Struct()
    content.update(event.content)
    return events_pb2.Event(
        source_tool=events_pb2.SOURCE_TOOL_CLAUDE_CODE,
        event_type=events_pb2.EVENT_TYPE_USER_MESSAGE,
        timestamp=ts,
        session_id=event.session_id or "",
        content=content,
        cwd=event.cwd or "",
        origin=events_pb2.EVENT_ORIGIN_TYPED,
    )


@pytest.mark.parametrize(
    "at",
    [
        datetime(2026, 1, 1, 12, 0, 0, 123456, tzinfo=timezone(timedelta(hours=-7))),
        datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    ],
)
@pytest.mark.parametrize("content", [ODD_CONTENT, {}])
def test_encoding_is_byte_identical_to_protobufs_own(at: datetime, content: dict[str, Any]) -> None:
    event = Event(
        SourceTool.CLAUDE_CODE,
        EventType.USER_MESSAGE,
        at,
        content,
        session_id="s",
        cwd="/p",
        origin=Origin.TYPED,
    )
    fast = event_to_pb(event)
    assert fast.SerializeToString(deterministic=True) == _generic(event).SerializeToString(
        deterministic=True
    )
    assert fast.HasField("content") and fast.HasField("timestamp")
    back = event_from_pb(fast)
    assert back.timestamp == at and back.content == content
    expected = timestamp_pb2.Timestamp()
    expected.FromDatetime(at.astimezone(UTC))
    assert timestamp_pb(at) == expected


def test_a_struct_reads_back_as_message_to_dict_reads_it() -> None:
    struct = struct_pb2.Struct()
    struct.update(ODD_CONTENT)
    ours = struct_to_dict(struct)
    theirs = dict(json_format.MessageToDict(struct))
    assert json.dumps(ours) == json.dumps(theirs)
    assert isinstance(ours["int"], float) and isinstance(theirs["int"], float)


@pytest.mark.parametrize("number", [math.inf, -math.inf, math.nan])
def test_non_json_numbers_are_refused_as_before(number: float) -> None:
    struct = struct_pb2.Struct()
    struct.update({"x": number})
    with pytest.raises(ValueError):
        json_format.MessageToDict(struct)
    with pytest.raises(ValueError):
        struct_to_dict(struct)
