"""Short requests for the same delivery steps said again: "commit and push" at the end of work
in several sessions is a habit of how work is delivered, in any ecosystem or language; the
traps: said once or in one session, a question, a step with an object, a slash command, a
subagent's prompt, the host's text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from squirrel_memory.extractors.routine_requests import (
    PREFIX,
    routine_requests,
    routine_steps,
)
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.project_work import routine_candidates
from tests.unit.memory.session_builder import Session

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _sessions(root: str, *turns: list[tuple[str, str]], origin: str = "typed") -> list[StoredEvent]:
    """One session per list of (the user's message, the assistant's reply), a day apart."""
    events: list[StoredEvent] = []
    for n, said in enumerate(turns):
        session = Session(root, f"s{n}", START + timedelta(days=n))
        for message, reply in said:
            session.add("user_message", {"text": message}, origin=origin)
            session.say(reply)
        events.extend(session.events)
    return events


def test_commit_and_push_in_three_sessions_of_a_go_service_is_a_standing_routine() -> None:
    events = _sessions(
        "/work/payments",
        [
            ("Add a retry to the webhook client in internal/hooks.", "Added."),
            ("Commit and push", "Pushed."),
        ],
        [
            ("The ledger test is flaky, find out why.", "A shared clock."),
            ("commit and push this", "Done."),
        ],
        [
            ("Rename the config flag to --dry-run.", "Renamed."),
            ("Yes, commit and push.", "Pushed."),
        ],
    )
    (found,) = routine_requests(events)
    assert found.sessions == 3
    assert found.key == f"{PREFIX}commit_push"
    assert found.wording == "Commit and push"
    (memory,) = routine_candidates([found])
    assert memory.type is MemoryType.USER_STYLE
    assert memory.content == "In 3 sessions the user asked: “Commit and push”."
    assert "recurring" in memory.tags
    assert len(memory.source_event_ids) == 3


def test_a_routine_said_in_japanese_around_the_step_names_is_found_in_a_book_repository() -> None:
    events = _sessions(
        "/work/book",
        [("第3章の誤字を直して", "直しました。"), ("まずはcommit", "コミットしました。")],
        [("脚注の番号を振り直して", "振り直しました。"), ("ok, commit", "コミットしました。")],
    )
    (found,) = routine_requests(events)
    assert found.sessions == 2
    assert found.key == f"{PREFIX}commit"


def test_asked_twice_in_one_session_is_that_sessions_request_not_a_habit() -> None:
    events = _sessions(
        "/work/cli",
        [
            ("fix the parallel tests first", "Fixed."),
            ("commit and push", "Pushed."),
            ("now, what should we do about the session index lookup", "Two options."),
            ("commit and push", "Pushed."),
        ],
    )
    assert routine_requests(events) == []


def test_a_routine_asked_once_is_not_a_habit() -> None:
    events = _sessions(
        "/work/payments",
        [("Add the refund endpoint.", "Added."), ("commit and push", "Pushed.")],
        [("Update the README.", "Updated.")],
    )
    assert routine_requests(events) == []


def test_steps_with_an_object_or_asked_as_a_question_are_not_routines() -> None:
    assert routine_steps("push the fix for the login bug") == frozenset()
    assert routine_steps("Commit the new test files") == frozenset()
    assert routine_steps("should I push?") == frozenset()
    assert routine_steps("draft prを進めて") == frozenset()
    assert routine_steps("Push and create a pull request") == frozenset({"push", "pull request"})


def test_slash_commands_subagent_prompts_and_host_text_are_not_the_users_routine() -> None:
    for origin in ("slash_command", "harness"):
        events = _sessions(
            "/work/payments",
            [("commit and push", "Pushed.")],
            [("commit and push", "Pushed.")],
            origin=origin,
        )
        assert routine_requests(events) == []
    events: list[StoredEvent] = []
    for n in range(2):
        session = Session("/work/payments", f"s{n}", START + timedelta(days=n))
        session.add("user_message", {"text": "commit and push"}, origin="typed", sidechain=True)
        session.say("Pushed.")
        events.extend(session.events)
    assert routine_requests(events) == []
