"""Half of an emoji in a transcript line (a JSON `\\ud83d` escape with no other half): the record
is read with U+FFFD in its place, counted, and redaction and the wire take the event; a pair
written as two escapes is one character, as before."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from datetime import UTC, datetime

from google.protobuf.json_format import MessageToDict

from squirrel_core.events import Event, EventType, SourcePosition, SourceTool
from squirrel_core.wire import event_to_pb
from squirrel_ingest.parsers.records import decode_record
from squirrel_ingest.reading import redacted


def test_a_lone_half_becomes_the_replacement_character_and_is_counted() -> None:
    skipped: Counter[str] = Counter()
    line = json.dumps({"type": "user", "text": "cut here \ud83d", "k\udc00": ["\ud800"]})
    record = decode_record(line.encode(), skipped)
    assert record == {"type": "user", "text": "cut here \ufffd", "k\ufffd": ["\ufffd"]}
    assert skipped["lone_surrogates_replaced"] == 1


def test_a_whole_pair_written_as_escapes_is_one_character_and_not_counted() -> None:
    skipped: Counter[str] = Counter()
    record = decode_record(b'{"text": "ok \\ud83d\\ude00"}', skipped)
    assert record == {"text": "ok \U0001f600"}
    assert not skipped


def test_redaction_and_the_wire_take_an_event_holding_a_lone_half() -> None:
    event = Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=EventType.USER_MESSAGE,
        timestamp=datetime(2026, 5, 1, tzinfo=UTC),
        content={"text": "deploy with key sk-ant-api03-" + "a1B2" * 20 + " \ud83d"},
        session_id="s1",
        position=SourcePosition("x.jsonl", 1, 10),
    )
    (clean,), count = redacted([event])
    assert count == 1
    assert clean.content["text"].endswith(" \ufffd")
    assert event_to_pb(clean).ByteSize() > 0
    short = dataclasses.replace(event, content={"a\ud800": ["ok\udfff"]})
    sent = event_to_pb(redacted([short])[0][0], json_content=True)
    assert json.loads(sent.content_json) == {"a\ufffd": ["ok\ufffd"]}
    as_struct = event_to_pb(short)  # the Struct an older memory service reads
    assert MessageToDict(as_struct.content) == {"a\ufffd": ["ok\ufffd"]}
