"""The same action opening request after request of one session ("spawn a worker to …",
"use the Makefile target to …"): a habit so far, in any ecosystem; the traps: a task verb
("fix the … test" three times), a delivery step, a question, a label, a path at the head, the
same message sent again, two messages only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from squirrel_memory.extractors.asked_actions import action_of, asked_actions
from squirrel_memory.extractors.session_requests import PREFIX
from squirrel_memory.extractors.session_routines import IMPORTANCE
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.project_work import session_routine_candidates
from squirrel_memory.promotion import is_tentative
from squirrel_memory.views.core_style import core_style
from tests.unit.memory.session_builder import Session, clocked_stores, rules_processor, turn_events

START = datetime(2026, 11, 4, 9, 0, tzinfo=UTC)

#: One session of an Elixir service whose user hands research and chores to subagents.
DELEGATING = [
    ("Look into how the pool handles timeouts. Spawn a worker to write up the findings.", "Ok."),
    ("please spawn a worker to compare the two retry libraries", "Spawned."),
    ("The supervisor tree looks wrong, restart order should be reversed.", "Fixed."),
    ("ok, spawn a worker to check the telemetry events against the docs", "Spawned."),
]


def _session(turns: list[tuple[str, str]], session: str = "s0") -> list[StoredEvent]:
    built = Session("/work/relay", session, START)
    for message, reply in turns:
        built.add("user_message", {"text": message}, origin="typed")
        built.say(reply)
    return built.events


def test_an_action_opening_three_requests_of_a_session_is_a_habit_so_far() -> None:
    (found,) = asked_actions(_session(DELEGATING))
    assert found.key == f"{PREFIX}spawn_worker"
    assert found.messages == 3
    assert found.wording == "Spawn a worker to write up the findings"
    (memory,) = session_routine_candidates([found])
    assert memory.type is MemoryType.USER_STYLE
    assert memory.content.startswith("In one session so far the user asked 3 times")
    assert is_tentative(memory.tags) and memory.importance > IMPORTANCE


def test_the_head_of_a_request_is_read_as_a_verb_and_its_object() -> None:
    assert action_of("also use the Makefile target to run the linters") == ("use", "makefile")
    assert action_of("can you update the docs for the new flag") == ("update", "doc")
    for sentence in (
        "fix the failing login test",  # the task's own object
        "commit and push",  # a delivery step: `session_routines`
        "should we spawn a worker for this?",
        "User Selected Files:",
        "see src/pool.ex for the timeout",
        "tests pass now",
        "looks good to me",
        "it works",
    ):
        assert action_of(sentence) is None, sentence


def test_a_task_of_one_form_the_same_message_again_or_two_messages_are_no_habit() -> None:
    tasks = [
        ("fix the failing login test", "Fixed."),
        ("fix the failing signup test", "Fixed."),
        ("fix the failing checkout test", "Fixed."),
    ]
    assert asked_actions(_session(tasks)) == []
    again = [("spawn a worker to compare the two retry libraries", "Spawned.")] * 3
    assert asked_actions(_session(again)) == []
    assert asked_actions(_session(DELEGATING[:2])) == []


async def test_through_the_project_pass_the_action_opens_the_next_session(tmp_path: Path) -> None:
    now = START + timedelta(days=3)
    async with clocked_stores(tmp_path, now) as (store, users):
        processor = rules_processor(store, users, now)
        await store.append_events(store.project_id, "u", turn_events("s0", START, DELEGATING), [])
        await processor.drain(store)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        live = [m for m in items if not m.deleted]
        (habit,) = [m for m in live if m.key == f"{PREFIX}spawn_worker"]
        assert "spawn a worker" in habit.content.lower()
        assert habit.key in [m.key for m in core_style(live)]
