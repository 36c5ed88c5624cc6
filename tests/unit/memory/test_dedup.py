"""The spec's dedup hash: what counts as the same event and what does not."""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_memory.dedup import (
    canonical_struct,
    content_signature,
    event_hash,
    normalise_content,
    timestamp_bucket,
)

PROJECT = "/repo"
T0 = datetime(2026, 11, 1, 12, 0, 0, tzinfo=UTC)


def event(
    content: dict[str, object] | None = None,
    *,
    at: datetime = T0,
    session: str | None = "s1",
    kind: EventType = EventType.USER_MESSAGE,
    paths: tuple[str, ...] = (),
) -> Event:
    return Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=kind,
        timestamp=at,
        content=content if content is not None else {"text": "hello"},
        session_id=session,
        file_paths=paths,
    )


def test_same_event_seconds_apart_in_one_bucket_has_one_hash() -> None:
    assert event_hash(PROJECT, event(at=T0)) == event_hash(
        PROJECT, event(at=T0 + timedelta(minutes=4, seconds=59))
    )


def test_next_bucket_gives_a_different_hash() -> None:
    assert event_hash(PROJECT, event(at=T0)) != event_hash(
        PROJECT, event(at=T0 + timedelta(minutes=5))
    )


def test_different_text_in_the_same_bucket_is_a_different_event() -> None:
    assert event_hash(PROJECT, event({"text": "yes"})) != event_hash(PROJECT, event({"text": "no"}))


def test_tool_calls_with_different_tool_use_ids_do_not_collide() -> None:
    call = {"tool": "Bash", "input": {"command": "pytest"}}
    first = event({**call, "tool_use_id": "toolu_1"}, kind=EventType.TOOL_CALL)
    second = event({**call, "tool_use_id": "toolu_2"}, kind=EventType.TOOL_CALL)
    assert event_hash(PROJECT, first) != event_hash(PROJECT, second)


def test_whitespace_and_unicode_form_are_normalised() -> None:
    composed = event({"text": "caf\u00e9  is\topen "})
    decomposed = event({"text": " cafe\u0301 is open"})
    assert event_hash(PROJECT, composed) == event_hash(PROJECT, decomposed)


def test_null_valued_keys_and_key_order_do_not_matter() -> None:
    a = event({"command": "ls", "exit_code": None, "tool_use_id": "t"})
    b = event({"tool_use_id": "t", "command": "ls"})
    assert event_hash(PROJECT, a) == event_hash(PROJECT, b)


def test_file_path_order_does_not_matter() -> None:
    assert event_hash(PROJECT, event(paths=("b.py", "a.py"))) == event_hash(
        PROJECT, event(paths=("a.py", "b.py", "a.py"))
    )


def test_same_instant_in_another_zone_has_the_same_hash() -> None:
    plus_two = T0.astimezone(timezone(timedelta(hours=2)))
    assert event_hash(PROJECT, event(at=T0)) == event_hash(PROJECT, event(at=plus_two))


def test_project_session_record_kind_and_tool_are_part_of_the_hash() -> None:
    base = event_hash(PROJECT, event())
    assert event_hash("/other", event()) != base
    assert event_hash(PROJECT, event(session="s2")) != base
    assert event_hash(PROJECT, event(session=None)) != base
    # The assistant saying what the user said is another event.
    assert event_hash(PROJECT, event(kind=EventType.ASSISTANT_RESPONSE)) != base


def test_a_type_ingest_reads_from_the_content_is_not_part_of_the_hash() -> None:
    command = {"command": "cd test && make", "tool_use_id": "t1", "exit_code": 0}
    assert event_hash(PROJECT, event(command, kind=EventType.COMMAND_RUN)) == event_hash(
        PROJECT, event(command, kind=EventType.TEST_RUN)
    )
    summary = {"text": "This session is being continued from a previous conversation"}
    assert event_hash(PROJECT, event(summary)) == event_hash(
        PROJECT, event(summary, kind=EventType.COMPACTION_SUMMARY)
    )
    assert event_hash(PROJECT, event(command, kind=EventType.COMMAND_RUN)) != event_hash(
        PROJECT, event(command, kind=EventType.TOOL_CALL)
    )
    # A text kept past its first bound is known by the same shorter form under either type.
    long = {"command": "make " + "x" * 5_000, "tool_use_id": "t2", "kept": 2}
    assert event_hash(PROJECT, event(long, kind=EventType.COMMAND_RUN)) == event_hash(
        PROJECT, event(long, kind=EventType.TEST_RUN)
    )
    said = {"text": "y " * 6_000, "kept": 2}
    assert event_hash(PROJECT, event(said)) == event_hash(
        PROJECT, event(said, kind=EventType.COMPACTION_SUMMARY)
    )


def test_case_is_significant_in_content() -> None:
    assert content_signature({"text": "Run Tests"}) != content_signature({"text": "run tests"})


def test_bucket_starts_on_a_five_minute_boundary() -> None:
    assert timestamp_bucket(datetime(2026, 11, 1, 12, 7, 31, tzinfo=UTC)) == (
        "2026-11-01T12:05:00Z"
    )
    assert timestamp_bucket(datetime(2026, 11, 1, 12, 7, 31)) == "2026-11-01T12:05:00Z"


def test_canonical_struct_has_the_spec_fields_with_the_record_kind_for_the_type() -> None:
    assert set(canonical_struct(PROJECT, event())) == {
        "project_id",
        "source_tool",
        "record",
        "session_id",
        "timestamp_bucket",
        "file_paths",
        "content_signature",
    }


def test_hash_is_sha256_hex() -> None:
    digest = event_hash(PROJECT, event())
    assert len(digest) == 64
    int(digest, 16)


def test_normalisation_keeps_lists_in_order_and_numbers_as_they_are() -> None:
    assert normalise_content({"b": [" x ", 2, 1.5, True], "a": {"z": None}}) == {
        "a": {},
        "b": ["x", 2, 1.5, True],
    }


def test_context_recorded_after_the_fact_is_not_hashed() -> None:
    # A record re-read by a version that records more about it stays one event: the shell's
    # folder of a command, who said it, and the subagent marks.
    run = {"command": "mix test", "tool_use_id": "t1", "exit_code": 0}
    bare = event(run, kind=EventType.TEST_RUN)
    richer = Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=EventType.TEST_RUN,
        timestamp=T0,
        content={**run, "cwd": "/repo/assets"},
        session_id="s1",
        cwd="/repo/assets",
        sidechain=True,
        agent_id="a1",
        origin=Origin.PARENT_AGENT,
    )
    assert event_hash(PROJECT, richer) == event_hash(PROJECT, bare)
    assert event_hash(
        PROJECT, event({**run, "command": "mix test --failed"}, kind=EventType.TEST_RUN)
    ) != (event_hash(PROJECT, bare))


def test_hashes_are_pinned() -> None:
    """The hash is on-disk format: these were computed by the code that stored existing events
    (the hash of the type, `fe4fd734…`, was rehashed to the record kind's by schema 13)."""
    content: dict[str, Any] = {
        "text": "  Cafe\u0301  au\tlait\n\nplease ",
        "z": None,
        "b": [" x ", {"k": "\u00e9t\u00e9", "a": 1.5, "n": None}],
        "a": {"y": True, "x": "  two   spaces "},
        "cwd": "/tmp",
    }
    assert content_signature(content) == (
        "7d385e022f1f94ba06992f013aa1c93b3986b2530180e57989a47325ee009cc4"
    )
    assert event_hash(PROJECT, event(content)) == (
        "d71d36d3aa631abeb5c4495d03aea3644dfefe97947e63c3c70e0f79f10189f6"
    )


def _reference_normalise(value: Any) -> Any:
    """Normalisation as first written: keys sorted here too, NFC checked on every string."""
    if isinstance(value, str):
        return " ".join(unicodedata.normalize("NFC", value).split())
    if isinstance(value, dict):
        return {
            str(key): _reference_normalise(item)
            for key, item in sorted(value.items(), key=lambda kv: str(kv[0]))
            if item is not None
        }
    if isinstance(value, list | tuple):
        return [_reference_normalise(item) for item in value]
    return value


_TEXT = st.text(alphabet=st.sampled_from(["a", "B", " ", "\t", "\n", "e", "\u0301", "\u00e9", "1"]))
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(_TEXT | st.integers(-3, 3).map(str), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_TEXT, _JSON, max_size=5))
def test_normalised_json_is_what_the_reference_gives(content: dict[str, Any]) -> None:
    canonical = {"sort_keys": True, "separators": (",", ":"), "ensure_ascii": False}
    assert json.dumps(normalise_content(content), **canonical) == json.dumps(
        _reference_normalise(content), **canonical
    )
