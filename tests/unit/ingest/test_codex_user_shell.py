"""A command the user ran themselves in the Codex TUI (`!cmd`) is a typed command, as Claude
Code's `<bash-input>` is: the user's, with what it printed as the host's next message.

The lines have the shapes of the licensed 0.125 excerpt (tests/fixtures/codex/README.md); the
`<user_shell_command>` body is the one Codex writes for the model (command, then `Exit code`,
`Duration`, `Output`), and its `exec_command_end` carries `"source": "user_shell"`.
"""

from __future__ import annotations

import json
from typing import Any

from bench.stored_events import stored
from squirrel_core.events import Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers import CodexFileParser
from squirrel_ingest.parsers.speaker import split_user_text, user_shell_command
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.evidence.typed_runs import typed_output, with_typed_outcomes

TS = "2026-05-11T08:27:17.490Z"


def _block(command: str, code: int, output: str) -> str:
    return (
        f"<user_shell_command>\n<command>\n{command}\n</command>\n<result>\n"
        f"Exit code: {code}\nDuration: 0.4210 seconds\nOutput:\n{output}\n</result>\n"
        "</user_shell_command>"
    )


def _line(kind: str, payload: dict[str, Any]) -> bytes:
    return json.dumps({"timestamp": TS, "type": kind, "payload": payload}).encode()


def _user(text: str) -> bytes:
    content = [{"type": "input_text", "text": text}]
    return _line("response_item", {"type": "message", "role": "user", "content": content})


def _meta() -> bytes:
    payload = {"id": "sess-1", "cwd": "/work/shop", "cli_version": "0.125.0", "source": "cli"}
    return _line("session_meta", payload)


def _exec_end(command: str, output: str, source: str) -> bytes:
    return _line(
        "event_msg",
        {
            "type": "exec_command_end",
            "call_id": "b1c2",
            "command": ["/bin/zsh", "-lc", command],
            "cwd": "/work/shop",
            "source": source,
            "aggregated_output": output,
            "exit_code": 0,
        },
    )


def _feed(*lines: bytes) -> tuple[CodexFileParser, list[Event]]:
    parser = CodexFileParser("rollout-x.jsonl")
    position = SourcePosition(path="rollout-x.jsonl", inode=1, end_offset=0)
    return parser, [event for line in lines for event in parser.feed(line, position)]


def test_a_user_shell_command_is_typed_by_the_user_with_its_output_the_hosts() -> None:
    printed = "12 passed in 0.41s"
    parser, events = _feed(
        _meta(),
        _exec_end("uv run pytest -q", printed, "user_shell"),
        _user(_block("uv run pytest -q", 0, printed)),
    )
    said = [(e.origin, e.content["text"]) for e in events]
    assert said == [
        (Origin.TYPED, "<bash-input>uv run pytest -q</bash-input>"),
        (Origin.HARNESS, f"<bash-stdout>{printed}</bash-stdout>"),
    ]
    # Not also a command the assistant ran.
    assert not [e for e in events if e.event_type in (EventType.COMMAND_RUN, EventType.TEST_RUN)]
    assert parser.skipped["user_shell_end"] == 1
    # The memory side reads it as it reads Claude Code's: a run by the user, its output known.
    rows = stored(events, "/work/shop", "t")
    (run,) = with_typed_outcomes(commands(rows), rows)
    assert (run.command, run.by_user, run.ok, run.output) == (
        "uv run pytest -q",
        True,
        True,
        printed,
    )
    assert typed_output(rows[1]) == printed


def test_a_failed_user_shell_command_keeps_its_output_and_no_outcome() -> None:
    printed = "error: no such file: Makefile"
    _, events = _feed(_meta(), _user(_block("make lint", 2, printed)))
    rows = stored(events, "/work/shop", "t")
    (run,) = with_typed_outcomes(commands(rows), rows)
    assert (run.command, run.by_user, run.ok, run.output) == ("make lint", True, None, printed)


def test_the_assistants_own_command_end_stays_its_command() -> None:
    """Must not fire: an `exec_command_end` of the agent's (another `source`) is a run."""
    _, events = _feed(_meta(), _exec_end("npm test", "ok", "unified_exec_startup"))
    assert [e.content["command"] for e in events if e.event_type is EventType.TEST_RUN] == [
        "npm test"
    ]


def test_text_that_only_mentions_the_block_is_not_a_typed_command() -> None:
    """Must not fire: a block with no command, one cut short, and a prompt quoting the tag."""
    assert (
        user_shell_command("<user_shell_command>\n<command>\n\n</command>\n</user_shell_command>")
        is None
    )
    assert user_shell_command("<user_shell_command>\n<command>\nls\n</command>") is None
    quoting = "why does my log show <user_shell_command> blocks?"
    assert user_shell_command(quoting) is None
    assert [(u.origin, u.text) for u in split_user_text(quoting)] == [(Origin.TYPED, quoting)]
    # A cut-off block stays the host's text, as before.
    (said,) = split_user_text("<user_shell_command>\n<command>\nls\n</command>")
    assert said.origin is Origin.HARNESS


def test_the_older_rollout_format_reads_the_block_the_same_way() -> None:
    bare = json.dumps({"id": "sess-0", "timestamp": TS}).encode()
    message = {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": _block("cargo test", 0, "ok")}],
        "timestamp": TS,
    }
    _, events = _feed(bare, json.dumps(message).encode())
    assert [(e.origin, e.content["text"]) for e in events] == [
        (Origin.TYPED, "<bash-input>cargo test</bash-input>"),
        (Origin.HARNESS, "<bash-stdout>ok</bash-stdout>"),
    ]
