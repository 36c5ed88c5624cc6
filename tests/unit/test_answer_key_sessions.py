"""The one-session replay of the answer key (bench/answer_key_sessions.py): sessions and support."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench import fixture_pipeline
from bench.answer_key_score import Memory, score
from bench.answer_key_sessions import SessionRun, hook_trace, merged, sessions_of, supported_key
from squirrel_core.events import Event, EventType, Origin, SourceTool
from tests.unit.demo_answer_key import demo_key, key_toml

KEY_TOML = key_toml(
    "tuning",
    ["test", "lint"],
    r"""
[[item]]
id = "short"
importance = "normal"
kind = "user_style"
note = "Keep commit messages short."
match = [['short'], ['commit']]

[[wrong]]
pattern = '\bpython\b'
why = "no Python here"

[[question]]
text = "how do I run the tests?"
answers = ["test"]
""",
)
T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)


def _event(
    session: str, minute: int, content: dict[str, object], kind: EventType = EventType.COMMAND_RUN
) -> Event:
    return Event(
        SourceTool.CLAUDE_CODE, kind, T0 + timedelta(minutes=minute), content, session_id=session
    )


def test_sessions_are_ordered_by_start_and_hold_every_string_of_their_events() -> None:
    events = [
        _event("b", 5, {"command": "cargo clippy -- -D warnings", "output": "ok"}),
        _event("a", 1, {"command": "cargo test", "nested": {"lines": ["12 passed"]}}),
        _event("", 2, {"command": "cargo build"}),
        _event("a", 9, {"command": "git status"}),
    ]

    first, second = sessions_of("demo", events)

    assert (first.name, first.session_id, second.session_id) == ("demo@s1", "a", "b")
    assert "cargo test" in first.text and "12 passed" in first.text
    assert "git status" in first.text and "cargo build" not in first.text
    assert "clippy" in second.text and "cargo test" not in second.text


def test_a_replayed_session_runs_in_a_folder_named_as_its_project() -> None:
    events = [_event("a", 1, {"command": "make"}), _event("b", 5, {"command": "make test"})]
    sessions = sessions_of("ledger", events)

    run = SessionRun({}, sessions, hook=False)

    assert [run.folder(s.name) for s in sessions] == ["ledger", "ledger"]


def test_an_item_counts_only_where_every_concept_occurs() -> None:
    key = demo_key(KEY_TOML)

    only_clippy = supported_key(key, "cargo clippy ran")
    both = supported_key(key, "cargo test, then cargo clippy -- -D warnings")

    assert [i.id for i in only_clippy.items] == []
    assert only_clippy.session_start == () and only_clippy.questions == ()
    assert [i.id for i in both.items] == ["test", "lint"]
    assert both.session_start == ("test", "lint")


def test_a_project_row_sums_its_sessions_and_wrong_facts_count_everywhere() -> None:
    key = demo_key(KEY_TOML)
    first = score(supported_key(key, "cargo test"), [Memory("recipe", "t", "Run `cargo test`.")])
    second = score(supported_key(key, "nothing"), [Memory("project_fact", "l", "A Python app.")])

    row = merged("demo", "Rust", [first, second])

    assert (row.high_covered, row.high_total, row.memories, row.wrong) == (1, 1, 2, 1)
    assert row.language == "Rust (2 sessions)"


def test_a_preference_counts_only_where_the_user_said_it() -> None:
    key = demo_key(KEY_TOML)
    said = dataclasses.replace(
        _event("a", 1, {"text": "keep commit messages short"}, EventType.USER_MESSAGE),
        origin=Origin.TYPED,
    )
    assistant = _event(
        "b", 1, {"text": "I keep commit messages short."}, EventType.ASSISTANT_RESPONSE
    )
    (user_session,) = sessions_of("demo", [said])
    (assistant_session,) = sessions_of("demo", [assistant])

    by_user = supported_key(key, user_session.text, user_session.user_text)
    by_assistant = supported_key(key, assistant_session.text, assistant_session.user_text)

    assert [i.id for i in by_user.items] == ["short"]
    assert [i.id for i in by_assistant.items] == []


def test_a_missed_session_start_is_traced_with_its_text_and_the_stored_commands() -> None:
    text = "Squirrel memory: notes.\n\n### Project\n- Language: Go project."
    stored = [
        Memory("recipe", "recipe:lint", "To lint: `golangci-lint run`."),
        Memory("user_style", "pref:short", "Keep commit messages short."),
        Memory("project_fact", "language", "Go project."),
    ]

    trace = hook_trace(text, stored).splitlines()

    assert "  | - Language: Go project." in trace
    assert "  - [recipe] recipe:lint: To lint: `golangci-lint run`." in trace
    assert "  - [user_style] pref:short: Keep commit messages short." in trace
    assert not any("[project_fact]" in line for line in trace)
    assert hook_trace(text, stored[2:]).endswith("stored recipes and preferences:\n  none")


def test_a_project_is_scored_with_the_hook_of_the_host_that_wrote_its_transcripts(
    tmp_path: Path,
) -> None:
    data = fixture_pipeline.PROJECT_TRANSCRIPTS
    codex = sorted((data / "agent-sample-codex").glob("rollout-*.jsonl"))
    gemini = sorted((data / "agent-sample-gemini").glob("session-*.json"))
    claude = sorted((data / "entireio-cli").glob("*.jsonl"))
    assert codex and gemini and claude
    assert fixture_pipeline.transcript_host(codex) == "codex"
    assert fixture_pipeline.transcript_host(gemini) == "gemini"
    assert fixture_pipeline.transcript_host(claude) == "claude"
    # Most transcripts decide; a project with none the parsers know is asked as Claude Code.
    assert fixture_pipeline.transcript_host([*codex, *claude[:2]]) == "claude"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert fixture_pipeline.transcript_host([empty]) == "claude"
