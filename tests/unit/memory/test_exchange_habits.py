"""The user's instructions read by the shape of the exchange: a message after the host's own text
(an interrupt's marker, a reminder) still answers the assistant's action, and the words the user
gave while declining a call are the user's; a question, a quote, a plan of the moment, a message
that opens the session or follows a compaction, and a file that merely quotes the host's words
say nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.exchange import answers_assistant, relayed_reason
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import Episode, MemoryCandidate, MemoryType, StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
PROJECT = "/home/dev/app"
DECLINED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). "
)
WITH_REASON = DECLINED + "The user provided the following reason for the rejection:  "
WITH_SAID = DECLINED + "To tell you how to proceed, the user said:\n"
STOPPED = DECLINED + "STOP what you are doing and wait for the user to tell you how to proceed."
INTERRUPTED = "[Request interrupted by user for tool use]"


def _event(n: int, kind: str, origin: str, content: dict[str, object]) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n:04d}",
        project_id=PROJECT,
        user_id="dev",
        source_tool="claude_code",
        session_id="s1",
        timestamp=T0 + timedelta(seconds=20 * n),
        event_type=kind,
        content=content,
        file_paths=(),
        hash=f"h{n}",
        origin=origin,
    )


def _session(*steps: tuple[str, str] | tuple[str, str, str]) -> list[StoredEvent]:
    """Events from (who, text[, command]): `user`, `host` (the host's text in a user turn),
    `compaction`, `reply` (the assistant's), `run` (a command the assistant ran, `make` unless
    given, with its output as text), `declined` (a command the user declined, the host's result
    as text)."""
    events: list[StoredEvent] = []
    for who, text, *command in steps:
        n = len(events)
        if who in ("user", "host", "compaction"):
            origin = {"user": "typed", "host": "harness", "compaction": "compaction"}[who]
            events.append(_event(n, "user_message", origin, {"text": text}))
        elif who == "reply":
            events.append(_event(n, "assistant_response", "assistant", {"text": text}))
        else:
            use = f"t{n}"
            events.append(
                _event(
                    n,
                    "command_run",
                    "assistant",
                    {"command": command[0] if command else "make", "tool_use_id": use},
                )
            )
            result: dict[str, object] = {"tool": "Bash", "tool_use_id": use, "output": text}
            result.update({"is_error": True} if who == "declined" else {"exit_code": 0})
            events.append(_event(n + 1, "tool_result", "tool_result", result))
    return events


def _style(events: list[StoredEvent]) -> list[MemoryCandidate]:
    episode = Episode(
        id="ep1",
        project_id=PROJECT,
        user_id="dev",
        session_id="s1",
        start_ts=T0,
        end_ts=T0 + timedelta(hours=1),
        event_count=len(events),
        summary="",
        importance=0.5,
        created_at=T0,
        event_ids=tuple(e.id for e in events),
    )
    found = RulesExtractor().extract_sync(episode, events)
    return [c for c in found if c.type is MemoryType.USER_STYLE]


@pytest.mark.parametrize("runner", ["cargo test", "pytest", "npm test"])
def test_a_correction_after_the_user_interrupts_the_assistant_is_kept(runner: str) -> None:
    events = _session(
        ("user", "Port the handlers to the new router."),
        ("reply", "Ported the first handler; moving on to the next."),
        ("host", INTERRUPTED),
        ("user", f"did you run {runner}?"),
    )

    found = _style(events)

    assert [c.key for c in found], found
    assert all("correction" in c.tags for c in found), found
    assert any(runner in c.content for c in found), found
    assert answers_assistant(events, len(events) - 1)


def test_a_correction_after_a_reminder_the_host_put_in_the_turn_is_kept() -> None:
    events = _session(
        ("reply", "Added the migration."),
        ("host", "<system-reminder>The file was modified by the user.</system-reminder>"),
        ("user", "did you run the tests?"),
    )

    assert [c for c in _style(events) if "correction" in c.tags]


@pytest.mark.parametrize(
    "before",
    [
        [],  # the session's first words: nothing to correct
        [("compaction", "This session is being continued from a previous conversation.")],
        [("reply", "Done."), ("user", "thanks"), ("host", INTERRUPTED)],  # the user spoke last
    ],
)
def test_a_question_that_answers_no_action_of_the_assistant_is_no_correction(
    before: list[tuple[str, str]],
) -> None:
    events = _session(*before, ("user", "did you run cargo test?"))

    assert _style(events) == []
    assert not answers_assistant(events, len(events) - 1)


@pytest.mark.parametrize(
    ("said", "chosen", "declined"),
    [
        ("use pnpm, not npm", "pnpm", "npm"),
        ("use uv instead of pip", "uv", "pip"),
        ("use cargo nextest instead of cargo test", "cargo nextest", "cargo test"),
    ],
)
@pytest.mark.parametrize("lead", [WITH_REASON, WITH_SAID])
def test_the_words_the_user_gave_while_declining_a_call_are_their_instruction(
    said: str, chosen: str, declined: str, lead: str
) -> None:
    events = _session(("user", "Set up the project."), ("declined", lead + said))

    found = _style(events)

    assert len(found) == 1, found
    assert chosen in found[0].content and declined in found[0].content, found
    assert "correction" in found[0].tags, found


@pytest.mark.parametrize(
    "output",
    [
        # the user quoting a line of the declined commit, not saying how to work
        WITH_SAID + "Co-Authored-By: Claude <noreply@anthropic.com>",
        # a plan for the task at hand
        WITH_REASON + "Let's keep the name of the py file but change the script to reference it",
        # a question back to the assistant
        WITH_REASON + "why not use the existing helper?",
        # a request for the call at hand
        WITH_SAID + "commit 'Add infrastructure overview documentation'",
        WITH_REASON + "rename the module to parser_v2 first",
        # declined without a word
        STOPPED,
    ],
)
def test_a_decline_whose_words_state_no_instruction_says_nothing(output: str) -> None:
    events = _session(("user", "Set up the project."), ("declined", output))

    assert _style(events) == []


def test_a_file_that_quotes_the_hosts_words_is_no_decline() -> None:
    quoted = "fixture text:\n" + WITH_REASON + "use pnpm, not npm"
    events = _session(("user", "Show me the fixture."), ("run", quoted))

    assert relayed_reason(events[-1]) is None
    assert _style(events) == []
    # even opening with them: a command that ran is no decline
    ran = _session(("run", WITH_REASON + "use pnpm, not npm"))
    assert relayed_reason(ran[-1]) is None


def test_words_the_note_on_the_declined_tool_already_says_are_not_kept_twice() -> None:
    installed = "added 212 packages in 4s"
    said = _session(
        ("declined", WITH_REASON + "use pnpm", "npm install"),
        ("run", installed, "pnpm install"),
    )
    more = _session(
        ("declined", WITH_REASON + "use pnpm. never commit the lockfile", "npm install"),
        ("run", installed, "pnpm install"),
    )

    once = _style(said)
    assert [c.key for c in once] == ["tool:instead-of:npm"], once
    # what the note does not say stays
    kept = [c.content for c in _style(more)]
    assert any("lockfile" in c for c in kept) and len(kept) == 2, kept
