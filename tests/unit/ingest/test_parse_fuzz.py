"""Hostile input: random bytes and mutated real lines never make a parser raise or misbehave."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from squirrel_core.events import SourcePosition
from squirrel_ingest.parsers import (
    ClaudeFileParser,
    CodexFileParser,
    GeminiJsonlParser,
    Parser,
    parse_bytes,
    parse_gemini_json_document,
    parse_git_log,
)
from squirrel_ingest.parsers.cursor import (
    bubble_context,
    bubble_events,
    composer_from_json,
    is_settled,
)
from tests.cursor_stores import assistant_bubble, tool, user_bubble

FIXTURES = Path(__file__).parents[2] / "fixtures"
ORIGIN = SourcePosition(path="fuzz.jsonl", inode=1, end_offset=0)


def _lines(*names: str) -> list[bytes]:
    return [
        line
        for name in names
        for line in (FIXTURES / name).read_bytes().splitlines()
        if len(line) < 20_000
    ]


CLAUDE_LINES = _lines(
    "claude/tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl",
    "claude/compaction-excerpt.jsonl",
)
CODEX_LINES = _lines(
    "codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799-excerpt.jsonl",
    "codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl",
)
GEMINI_LINES = _lines("gemini/jsonl_v040.jsonl")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key/index path inside a JSON value, so a mutation can hit any depth."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value[:8]):
            found.extend(_paths(item, (*prefix, index)))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


@st.composite
def mutated(draw: st.DrawFn, lines: list[bytes]) -> bytes:
    line = draw(st.sampled_from(lines))
    how = draw(st.sampled_from(["value", "cut", "splice", "bytes"]))
    if how == "cut":
        return line[: draw(st.integers(0, len(line)))]
    if how == "splice":
        other = draw(st.sampled_from(lines))
        return line[: draw(st.integers(0, len(line)))] + other
    if how == "bytes":
        at = draw(st.integers(0, len(line)))
        return line[:at] + draw(st.binary(max_size=8)) + line[at:]
    record = json.loads(line)
    path = draw(st.sampled_from(_paths(record)))
    return json.dumps(_replace(record, path, draw(json_values))).encode()


def _check(parser: Parser, lines: list[bytes]) -> None:
    for line in lines:
        events = parser.feed(line, ORIGIN)
        assert isinstance(events, list)
        for event in events:
            assert event.timestamp.tzinfo is not None
            json.dumps(event.content)
    assert parser.skipped["internal_error"] == 0


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.lists(st.binary(max_size=200), max_size=5))
def test_random_bytes_never_raise(chunks: list[bytes]) -> None:
    for parser in (
        ClaudeFileParser("f.jsonl"),
        CodexFileParser("f.jsonl"),
        GeminiJsonlParser("f.jsonl"),
    ):
        _check(parser, chunks)


@FUZZ
@given(st.lists(mutated(CLAUDE_LINES), min_size=1, max_size=6))
def test_mutated_claude_lines_never_raise(lines: list[bytes]) -> None:
    _check(ClaudeFileParser("/p/projects/-x/agent-a1.jsonl"), lines)


@FUZZ
@given(st.lists(mutated(CODEX_LINES), min_size=1, max_size=6))
def test_mutated_codex_lines_never_raise(lines: list[bytes]) -> None:
    _check(CodexFileParser("rollout-x.jsonl"), lines)


@FUZZ
@given(st.lists(mutated(GEMINI_LINES), min_size=1, max_size=6))
def test_mutated_gemini_lines_never_raise(lines: list[bytes]) -> None:
    _check(GeminiJsonlParser("/h/.gemini/tmp/p/chats/session-x.jsonl"), lines)


DOCUMENT = json.loads((FIXTURES / "gemini" / "large.json").read_bytes())


@FUZZ
@given(st.data())
def test_mutated_gemini_documents_never_raise(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(_paths(DOCUMENT)))
    document = json.dumps(_replace(DOCUMENT, path, data.draw(json_values))).encode()
    counter: Counter[str] = Counter()
    events, seen = parse_gemini_json_document(document, "session-x.json", 1, set(), skipped=counter)
    again, _ = parse_gemini_json_document(document, "session-x.json", 1, seen, skipped=counter)
    assert again == []
    assert counter["internal_error"] == 0
    assert all(event.timestamp.tzinfo is not None for event in events)


@FUZZ
@given(
    st.lists(
        st.sampled_from(["\x1e", "\x1f", "\n", "a", "0" * 40, "f", "2026-01-01T00:00:00Z", " "])
    ).map("".join)
)
def test_random_git_output_never_raises(output: str) -> None:
    for event in parse_git_log(output, "/repo"):
        assert event.timestamp.tzinfo is not None


def test_empty_file_yields_nothing() -> None:
    result = parse_bytes(ClaudeFileParser("s.jsonl"), b"", "s.jsonl")
    assert (result.events, result.records, result.skipped) == ([], 0, {})


CURSOR_BUBBLES: list[dict[str, Any]] = [
    assistant_bubble(
        "b2",
        "Running them.",
        1,
        tool=tool("run_terminal_cmd", {"command": "pytest -x"}, {"output": "ok", "exitCode": 0}),
    ),
    assistant_bubble(
        "b3",
        minute=2,
        tool=tool(
            "ask_question",
            {"questions": [{"prompt": "Which?", "options": [{"id": "a", "label": "A"}]}]},
            {"answers": [{"questionId": "a"}]},
        ),
    ),
    user_bubble("b1", "<system-reminder>x</system-reminder> run the tests"),
]
CURSOR_COMPOSER: dict[str, Any] = {
    "composerId": "c1",
    "createdAt": 1_790_000_000_000,
    "status": "completed",
    "fullConversationHeadersOnly": [{"bubbleId": "b1", "type": 1}],
    "conversation": [{"bubbleId": "b9", "type": 1, "text": "inline"}],
    "subagentInfo": {"parentComposerId": "p1"},
    "generatingBubbleIds": ["b7"],
}


@FUZZ
@given(st.data())
def test_mutated_cursor_chats_and_bubbles_never_raise(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(_paths(CURSOR_COMPOSER)))
    composer = composer_from_json(
        _replace(CURSOR_COMPOSER, path, data.draw(json_values)), "c1"
    ) or composer_from_json(CURSOR_COMPOSER, "c1")
    assert composer is not None
    template = data.draw(st.sampled_from(CURSOR_BUBBLES))
    path = data.draw(st.sampled_from(_paths(template)))
    bubble = _replace(template, path, data.draw(json_values))
    skipped: Counter[str] = Counter()
    ctx = bubble_context(bubble, composer, "/repo", ORIGIN) if isinstance(bubble, dict) else None
    events = bubble_events(bubble, ctx, skipped) if ctx is not None else []
    if isinstance(bubble, dict):
        is_settled(bubble, composer)
    for event in events:
        assert event.timestamp.tzinfo is not None
        json.dumps(event.content)
    assert skipped["internal_error"] == 0
