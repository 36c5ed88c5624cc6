"""Events on the wire: the hand-written conversions give exactly what protobuf's generic ones
give (same bytes out, same JSON objects back), so event hashes and dedup never change."""

from __future__ import annotations

import contextlib
import json
import math
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from google.protobuf import json_format, struct_pb2, timestamp_pb2
from hypothesis import given, settings
from hypothesis import strategies as st

from squirrel.v1 import events_pb2
from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_core.wire import (
    EventDecodeError,
    event_from_pb,
    event_to_pb,
    from_timestamp,
    struct_to_dict,
    timestamp_pb,
)

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


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


def _event(content: dict[str, Any]) -> Event:
    return Event(
        SourceTool.CLAUDE_CODE, EventType.TOOL_RESULT, datetime(2026, 1, 1, tzinfo=UTC), content
    )


def _same(a: Any, b: Any) -> bool:
    """Equal, numbers of the same type included (3.0 is not 3 here)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=6))
def test_json_content_reads_back_as_the_struct_reads_back(content: dict[str, Any]) -> None:
    as_json = event_to_pb(_event(content), json_content=True)
    as_struct = event_to_pb(_event(content))
    assert as_json.content_json and not as_json.HasField("content")
    assert _same(event_from_pb(as_json).content, event_from_pb(as_struct).content)


def test_odd_content_reads_back_the_same_either_way() -> None:
    back = event_from_pb(event_to_pb(_event(ODD_CONTENT), json_content=True)).content
    assert _same(back, event_from_pb(event_to_pb(_event(ODD_CONTENT))).content)
    assert isinstance(back["int"], float) and isinstance(back["list"][0], float)


@pytest.mark.parametrize("content", [{"x": math.nan}, {"x": [math.inf]}])
def test_content_json_cannot_carry_falls_back_to_the_struct(content: dict[str, Any]) -> None:
    with contextlib.suppress(ValueError, UnicodeEncodeError):  # whatever the Struct did before
        msg = event_to_pb(_event(content), json_content=True)
        assert not msg.content_json


@pytest.mark.parametrize("json_content", [True, False])
def test_a_lone_surrogate_travels_as_the_replacement_character(json_content: bool) -> None:
    """Half of an emoji (a UTF-16 half cut from its pair) stopped both forms (UTF-8 refuses
    it); it travels as U+FFFD, in a key too."""
    msg = event_to_pb(_event({"x\udc00": "cut \ud800"}), json_content=json_content)
    assert event_from_pb(msg).content == {"x\ufffd": "cut \ufffd"}


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"{not json", "content_not_json"),
        (b"[1, 2]", "content_not_object"),
        (b'{"x": NaN}', "content_not_json"),
        (b'{"x": "\xff"}', "content_not_json"),
    ],
)
def test_bad_content_json_rejects_the_event_with_a_reason(payload: bytes, reason: str) -> None:
    msg = event_to_pb(_event({}), json_content=True)
    msg.content_json = payload
    with pytest.raises(EventDecodeError) as caught:
        event_from_pb(msg)
    assert str(caught.value) == reason


@pytest.mark.parametrize(
    ("seconds", "nanos"),
    [(0, 0), (1, 999_999_999), (-1, 1), (-62_135_596_800, 0), (253_402_300_799, 999_999_999)],
)
def test_timestamps_read_back_as_protobuf_reads_them(seconds: int, nanos: int) -> None:
    ts = timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos)
    assert from_timestamp(ts) == ts.ToDatetime(tzinfo=UTC)
    assert from_timestamp(ts).tzinfo is ts.ToDatetime(tzinfo=UTC).tzinfo


@pytest.mark.parametrize(
    ("seconds", "nanos"), [(-62_135_596_801, 0), (253_402_300_800, 0), (0, -1), (0, 10**9)]
)
def test_timestamps_out_of_range_are_refused_as_protobuf_refuses_them(
    seconds: int, nanos: int
) -> None:
    ts = timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos)
    with pytest.raises(ValueError):
        ts.ToDatetime(tzinfo=UTC)
    with pytest.raises(ValueError):
        from_timestamp(ts)
