"""A forked Codex rollout: the source's history it copies is the source's, stored once.

The rollouts are built from the line shapes of the licensed 0.125 excerpt
(tests/fixtures/codex/README.md): the source is that excerpt; the fork is its own
`session_meta` naming the source (`forked_from_id`), the source's lines copied whole and stamped
again at the fork's moment, then the fork's own turn.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from squirrel_core.events import Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers import CodexFileParser, parse_bytes

FIXTURES = Path(__file__).parents[2] / "fixtures" / "codex"
EXCERPT = (
    FIXTURES / "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799-excerpt.jsonl"
)
SOURCE_ID = "019e1625-789d-76c0-80ab-3724b5ddb799"
FORK_ID = "019e2a00-1111-7222-8333-444455556666"
FORKED_AT = "2026-05-12T09:00:00.{ms:03d}Z"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _dump(records: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def _own_turn(prompt: str, command: str) -> list[dict[str, Any]]:
    """The fork's own turn, in the excerpt's shapes, seconds after the fork."""
    turn = {"turn_id": "019e2a00-2222-7000-8000-000000000001", "cwd": "/work/shop"}
    call = {"cmd": command}
    return [
        {"timestamp": "2026-05-12T09:00:07.000Z", "type": "turn_context", "payload": turn},
        {
            "timestamp": "2026-05-12T09:00:07.010Z",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": prompt, "images": []},
        },
        {
            "timestamp": "2026-05-12T09:00:09.000Z",
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "exec_command",
                "arguments": json.dumps(call),
                "call_id": "call_fork_1",
            },
        },
        {
            "timestamp": "2026-05-12T09:00:10.000Z",
            "type": "response_item",
            "payload": {
                "type": "function_call_output",
                "call_id": "call_fork_1",
                "output": "Process exited with code 0\nOutput:\nall good\n",
            },
        },
    ]


def _fork(
    history: list[dict[str, Any]], own: list[dict[str, Any]], **meta: Any
) -> list[dict[str, Any]]:
    """The fork's meta, the source's lines stamped again at the fork, then `own`."""
    head = {**history[0]["payload"], "id": FORK_ID, "forked_from_id": SOURCE_ID, **meta}
    copied = [
        {**record, "timestamp": FORKED_AT.format(ms=n + 1)} for n, record in enumerate(history)
    ]
    opened = {"timestamp": FORKED_AT.format(ms=0), "type": "session_meta", "payload": head}
    return [opened, *copied, *own]


def _sessions(tmp_path: Path, fork: list[dict[str, Any]], *, with_source: bool = True) -> Path:
    """The Codex layout: the source on its day, the fork on the next; the fork's path."""
    if with_source:
        day = tmp_path / "sessions" / "2026" / "05" / "11"
        day.mkdir(parents=True)
        (day / f"rollout-2026-05-11T11-26-55-{SOURCE_ID}.jsonl").write_bytes(EXCERPT.read_bytes())
    next_day = tmp_path / "sessions" / "2026" / "05" / "12"
    next_day.mkdir(parents=True)
    path = next_day / f"rollout-2026-05-12T12-00-00-{FORK_ID}.jsonl"
    path.write_bytes(_dump(fork))
    return path


def _parse(path: Path) -> tuple[list[Event], dict[str, int]]:
    result = parse_bytes(CodexFileParser(str(path)), path.read_bytes(), str(path))
    return result.events, dict(result.skipped)


def _typed(events: list[Event]) -> list[str]:
    return [
        e.content["text"]
        for e in events
        if e.event_type is EventType.USER_MESSAGE and e.origin is Origin.TYPED
    ]


def test_a_fork_stores_only_its_own_turn_not_the_source_history_again(tmp_path: Path) -> None:
    source = _lines(EXCERPT)
    path = _sessions(tmp_path, _fork(source, _own_turn("now run the linter", "ruff check .")))
    events, skipped = _parse(path)
    assert _typed(events) == ["now run the linter"]
    assert [e.content["command"] for e in events if e.event_type is EventType.COMMAND_RUN] == [
        "ruff check ."
    ]
    assert skipped["forked_copy"] == len(source)
    assert {e.session_id for e in events} == {FORK_ID}
    # Nothing of the source is re-dated to the fork's moment; the fork's own meta, written when
    # it opened, records the repository it runs in.
    opened, *own = events
    assert opened.event_type is EventType.SESSION_REPOSITORY
    assert opened.timestamp.isoformat() == "2026-05-12T09:00:00+00:00"
    assert all(e.timestamp.isoformat() >= "2026-05-12T09:00:07" for e in own)
    # The source's own rollout still gives its turns, with their real times.
    source_events, _ = _parse(EXCERPT)
    assert _typed(source_events)[0] == "show tools"


def test_a_fork_repeating_a_source_prompt_keeps_its_own(tmp_path: Path) -> None:
    """Must not fire: once the copy is over, the same words typed again are the fork's."""
    own = _own_turn("show tools", "npm test")
    path = _sessions(tmp_path, _fork(_lines(EXCERPT), own))
    events, _ = _parse(path)
    assert _typed(events) == ["show tools"]
    assert {e.session_id for e in events} == {FORK_ID}


def test_a_fork_whose_source_rollout_is_gone_is_read_as_it_is(tmp_path: Path) -> None:
    """Must not fire: without the source to compare with, no line is taken for a copy (the
    copy is then the only record of those turns)."""
    source = _lines(EXCERPT)
    own = _own_turn("now run the linter", "ruff check .")
    path = _sessions(tmp_path, _fork(source, own), with_source=False)
    events, skipped = _parse(path)
    assert "forked_copy" not in skipped
    assert _typed(events)[0] == "show tools"
    assert _typed(events)[-1] == "now run the linter"


def test_a_rollout_that_is_no_fork_is_read_whole(tmp_path: Path) -> None:
    """Must not fire: a rollout without `forked_from_id` whose next meta is another thread's."""
    source = _lines(EXCERPT)
    other = {**source[0], "payload": {**source[0]["payload"], "id": FORK_ID}}
    path = _sessions(tmp_path, [other, *source[1:]])
    events, skipped = _parse(path)
    assert "forked_copy" not in skipped
    assert _typed(events) == _typed(_parse(EXCERPT)[0])


def test_a_fork_whose_lines_differ_from_the_source_is_its_own(tmp_path: Path) -> None:
    """Must not fire: a fork naming a source whose lines it does not copy keeps every line."""
    source = _lines(EXCERPT)
    opened = {
        "timestamp": FORKED_AT.format(ms=0),
        "type": "session_meta",
        "payload": {**source[0]["payload"], "id": FORK_ID, "forked_from_id": SOURCE_ID},
    }
    own = _own_turn("now run the linter", "ruff check .")
    path = _sessions(tmp_path, [opened, *own])
    events, skipped = _parse(path)
    assert "forked_copy" not in skipped
    assert _typed(events) == ["now run the linter"]


def test_a_fork_read_across_a_restart_recognises_the_rest_of_the_copy(tmp_path: Path) -> None:
    fork = _fork(_lines(EXCERPT), _own_turn("now run the linter", "ruff check ."))
    path = _sessions(tmp_path, fork)
    position = SourcePosition(path=str(path), inode=1, end_offset=0)
    first = CodexFileParser(str(path))
    events = [e for r in fork[:9] for e in first.feed(json.dumps(r).encode(), position)]
    state = json.loads(json.dumps(first.export_state()))
    second = CodexFileParser(str(path))
    second.restore_state(state)
    events += [e for r in fork[9:] for e in second.feed(json.dumps(r).encode(), position)]
    assert _typed(events) == ["now run the linter"]
    assert first.skipped["forked_copy"] + second.skipped["forked_copy"] == len(fork) - 5


def test_a_subagent_given_its_parents_context_stores_only_its_own_work(tmp_path: Path) -> None:
    """A subagent's rollout that copies its parent's: the copy is the parent's; the subagent's
    own work is the parent session's sidechain."""
    spawn = {"subagent": {"thread_spawn": {"parent_thread_id": SOURCE_ID, "depth": 1}}}
    own = _own_turn("check the migrations", "make migrate-check")
    path = _sessions(tmp_path, _fork(_lines(EXCERPT), own, source=spawn))
    events, skipped = _parse(path)
    assert skipped["forked_copy"] == len(_lines(EXCERPT))
    assert [e.content["command"] for e in events if e.event_type is EventType.COMMAND_RUN] == [
        "make migrate-check"
    ]
    assert {(e.session_id, e.sidechain) for e in events} == {(SOURCE_ID, True)}
