"""Short requests for the same delivery steps said again: "commit and push" at the end of work
in several sessions is a habit of how work is delivered, in any ecosystem or language; the
traps: said once or in one session, a question, a step with an object, a slash command, a
subagent's prompt, the host's text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from squirrel_memory.extractors.routine_requests import (
    PREFIX,
    routine_requests,
    routine_steps,
    steps_asked,
)
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.project_work import routine_candidates
from squirrel_memory.promotion import RECURRING_TAG, recurring_importance
from squirrel_memory.views.core_style import core_style
from tests.unit.memory.session_builder import (
    Session,
    clocked_stores,
    rules_processor,
    turn_events,
)

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
    assert memory.content == "In 3 sessions the user asked to close the work: “Commit and push”."
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


#: Four sessions of a Ruby gem, each a plan carried out, each closed with a commit asked in
#: other words (along with the changelog once, pointing at the change at hand once).
CLOSED_WITH_A_COMMIT = [
    [
        ("Implement the plan: a retry budget for the HTTP adapter, with specs.", "Done."),
        ("commit and update the changelog", "Committed."),
    ],
    [
        ("Implement the plan: split the parser into a lexer and a reader.", "Done."),
        ("commit", "Ok."),
    ],
    [
        ("The gemspec should not list the spec files, drop them from it.", "Dropped."),
        ("commit all your recent changes", "Committed."),
    ],
    [("Rename the config option to max_retries everywhere.", "Renamed."), ("commit", "Ok.")],
]


def test_a_commit_asked_in_other_words_in_four_sessions_is_one_routine_that_closes_the_work() -> (
    None
):
    (found,) = routine_requests(_sessions("/work/gem", *CLOSED_WITH_A_COMMIT))
    assert found.key == f"{PREFIX}commit"
    assert found.sessions == 4 and found.messages == 4
    assert found.wording == "commit"
    assert found.more == ("commit all your recent changes", "commit and update the changelog")
    (memory,) = routine_candidates([found])
    assert memory.content == (
        "In 4 sessions the user asked to close the work: “commit”; also “commit all your recent "
        "changes”, “commit and update the changelog”."
    )
    assert memory.importance == recurring_importance(4) > recurring_importance(2)


def test_a_routine_asked_in_japanese_with_the_docs_to_update_first_joins_the_bare_one() -> None:
    events = _sessions(
        "/work/jjui",
        [
            ("ログ画面のキー操作を整理して", "整理しました。"),
            ("コミットお願いします", "コミットしました。"),
        ],
        [("大丈夫そうです。CHANGELOG更新後にcommit,push,publishしてください", "公開しました。")],
    )
    (found,) = routine_requests(events)
    assert found.key == f"{PREFIX}commit" and found.sessions == 2
    assert found.wording == "コミットお願いします"
    assert found.more == ("CHANGELOG更新後にcommit,push,publishしてください",)


def test_a_step_asked_along_other_work_is_read_only_as_a_request_of_its_own() -> None:
    assert steps_asked("commit and update the changelog") == frozenset({"commit"})
    assert steps_asked("update the changelog and commit") == frozenset({"commit"})
    assert steps_asked("go ahead and push to main") == frozenset({"push"})
    assert steps_asked("把所有的文件都提交") == frozenset({"commit"})
    for sentence in (
        "commit the new test files",
        "don't push yet",
        "did you commit?",
        "the commit failed",
        "commit messages are short",
        "merge the two functions",
        "we should push the fix",
        "the tests pass and I pushed",
        "コミットしないで",
        "コミットしました",
        "ok now use your script to check ci",
    ):
        assert steps_asked(sentence) == frozenset(), sentence


def test_a_step_asked_in_other_words_in_one_session_or_before_other_work_is_not_a_closing() -> None:
    one_session = _sessions(
        "/work/gem",
        [
            ("Add the retry budget.", "Added."),
            ("commit and update the changelog", "Committed."),
            ("Now split the parser.", "Split."),
            ("commit all your recent changes", "Committed."),
        ],
    )
    assert routine_requests(one_session) == []
    mid_session = _sessions(
        "/work/gem",
        [("commit and update the changelog", "Committed."), ("Now split the parser.", "Ok.")],
        [("Add the retry budget.", "Added."), ("commit", "Committed.")],
    )
    (found,) = routine_requests(mid_session)
    assert not found.closing
    assert routine_candidates([found])[0].content.startswith("In 2 sessions the user asked: “")


async def test_through_the_project_pass_a_commit_asked_session_after_session_leads_the_style(
    tmp_path: Path,
) -> None:
    now = START + timedelta(days=10)
    async with clocked_stores(tmp_path, now) as (store, users):
        processor = rules_processor(store, users, now)
        for n, said in enumerate(CLOSED_WITH_A_COMMIT):
            events = turn_events(f"s{n}", START + timedelta(days=n), said)
            await store.append_events(store.project_id, "u", events, [])
            await processor.drain(store)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        live = [m for m in items if not m.deleted]
        (habit,) = [m for m in live if m.key == f"{PREFIX}commit"]
        assert habit.content.startswith("In 4 sessions the user asked to close the work: “commit”")
        assert "changelog" in habit.content
        assert RECURRING_TAG in habit.tags and habit.importance == recurring_importance(4)
        assert [m.key for m in core_style(live)][:1] == [habit.key]
