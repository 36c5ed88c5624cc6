"""Delivery steps asked for again in one session, each after other work: a habit so far, in any
ecosystem, weighed below the same routine in several sessions; the traps: asked again right
away (after an interrupt or an acknowledgement), a question, a step with an object or pointing
at the change at hand ("commit this"), the host's or a subagent's text, the assistant's words,
a routine already seen in two sessions."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_memory.extractors.routine_requests import PREFIX
from squirrel_memory.extractors.session_routines import (
    IMPORTANCE,
    MAX_IMPORTANCE,
    TAG,
    session_routines,
)
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope, StoredEvent
from squirrel_memory.project_work import session_routine_candidates
from squirrel_memory.promotion import ONE_SESSION_IMPORTANCE, RECURRING_TAG, is_tentative
from squirrel_memory.views.core_style import core_style
from tests.unit.memory.session_builder import Session, clocked_stores, rules_processor, turn_events

START = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)
NOW = START + timedelta(days=10)


def _session(
    root: str, turns: list[tuple[str, str]], *, session: str = "s0", origin: str = "typed"
) -> list[StoredEvent]:
    """One session of (the user's message, the assistant's reply) turns."""
    built = Session(root, session, START)
    for message, reply in turns:
        built.add("user_message", {"text": message}, origin=origin)
        built.say(reply)
    return built.events


#: One session each, in two ecosystems: the user closes two or three pieces of work alike.
CLOSING = {
    "go": [
        ("The ledger test is flaky, find out why.", "A shared clock; fixed."),
        ("commit and push", "Pushed."),
        ("Now add a retry to the webhook client in internal/hooks.", "Added."),
        ("Commit and push.", "Pushed."),
    ],
    "python": [
        ("Type the models in the billing package.", "Typed."),
        ("commit", "Committed."),
        ("Move the settings to pydantic and drop the old loader.", "Moved."),
        ("Commit please.", "Committed."),
        ("Then split the CLI module by command, keep the entry point.", "Split."),
        ("ok, commit", "Committed."),
    ],
}


@pytest.mark.parametrize("ecosystem", sorted(CLOSING))
def test_a_routine_asked_after_each_piece_of_work_is_a_habit_so_far(ecosystem: str) -> None:
    (found,) = session_routines(_session(f"/work/{ecosystem}", CLOSING[ecosystem]))

    assert found.messages == len([m for m, _ in CLOSING[ecosystem] if "ommit" in m])
    (memory,) = session_routine_candidates([found])
    assert memory.type is MemoryType.USER_STYLE and memory.key.startswith(PREFIX)
    assert memory.content.startswith("In one session so far the user asked")
    assert re.search(r"“[^”]*commit[^”]*”", memory.content, re.IGNORECASE)
    assert TAG in memory.tags and RECURRING_TAG not in memory.tags
    assert is_tentative(memory.tags)  # until another session asks it
    assert IMPORTANCE <= memory.importance <= MAX_IMPORTANCE < ONE_SESSION_IMPORTANCE
    assert len(memory.source_event_ids) == found.messages


def test_asked_more_often_it_weighs_more_up_to_its_ceiling() -> None:
    (twice,) = session_routines(_session("/work/go", CLOSING["go"]))
    (thrice,) = session_routines(_session("/work/py", CLOSING["python"]))
    assert twice.importance == IMPORTANCE < thrice.importance <= MAX_IMPORTANCE


@pytest.mark.parametrize(
    "turns",
    [
        # asked again right after an interrupt: one task asked twice
        [
            ("Fix the flaky ledger test.", "Fixed."),
            ("commit and push", ""),
            ("commit and push", "Pushed."),
        ],
        # only an acknowledgement between: the same request of the moment
        [
            ("Fix the flaky ledger test.", "Fixed."),
            ("commit and push", "Shall I also tag it?"),
            ("ok", "Ok."),
            ("commit and push", "Pushed."),
        ],
        # asked once
        [("Fix the flaky ledger test.", "Fixed."), ("commit and push", "Pushed.")],
        # questions are not requests
        [
            ("Fix the flaky ledger test.", "Fixed."),
            ("should we push?", "Yes."),
            ("Add the retry flag to the webhook client.", "Added."),
            ("did you push?", "Yes."),
        ],
        # a step that points at the change at hand: a request of the moment, each time
        [
            ("Fix the flaky ledger test.", "Fixed."),
            ("commit this", "Committed."),
            ("Add the retry flag to the webhook client.", "Added."),
            ("commit this", "Committed."),
        ],
        # a step with an object is a task, not a routine
        [
            ("Fix the flaky ledger test.", "Fixed."),
            ("commit the fix for the ledger clock", "Committed."),
            ("Add the retry flag to the webhook client.", "Added."),
            ("commit the retry flag change", "Committed."),
        ],
    ],
)
def test_task_requests_are_not_habits_so_far(turns: list[tuple[str, str]]) -> None:
    assert session_routines(_session("/work/go", turns)) == []


@pytest.mark.parametrize("origin", ["harness", "slash_command", "parent_agent", "hook"])
def test_the_hosts_text_and_a_subagents_prompt_are_not_the_users(origin: str) -> None:
    assert session_routines(_session("/work/py", CLOSING["python"], origin=origin)) == []


def test_the_assistants_words_are_not_the_users() -> None:
    built = Session("/work/go", "s0", START)
    for request in ("Fix the ledger test.", "Add the retry flag.", "Rename the config flag."):
        built.add("user_message", {"text": request}, origin="typed")
        built.say("commit and push")
    assert session_routines(built.events) == []


def test_a_routine_of_two_sessions_is_left_to_the_habit_across_sessions() -> None:
    first = _session("/work/go", CLOSING["go"], session="s0")
    second = _session("/work/go", CLOSING["go"][2:], session="s1")
    assert session_routines([*first, *second]) == []


# --- through the processor: one session, then a second one ---------------------------------


async def test_a_habit_so_far_starts_the_next_session_and_grows_into_a_habit(
    tmp_path: Path,
) -> None:
    async with clocked_stores(tmp_path, NOW) as (store, users):
        processor = rules_processor(store, users, NOW)
        await store.append_events(
            store.project_id, "u", turn_events("s0", NOW - timedelta(days=3), CLOSING["go"]), []
        )
        await processor.drain(store)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        (so_far,) = [m for m in items if not m.deleted and m.key.startswith(PREFIX)]
        assert TAG in so_far.tags and so_far.importance == IMPORTANCE
        assert [m.key for m in core_style(items)][:1] == [so_far.key]

        again = [
            ("Rename the config flag to --dry-run.", "Renamed."),
            ("commit and push", "Pushed."),
        ]
        await store.append_events(
            store.project_id, "u", turn_events("s1", NOW - timedelta(days=1), again), []
        )
        await processor.drain(store)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        (habit,) = [m for m in items if not m.deleted and m.key.startswith(PREFIX)]
        assert habit.content.startswith("In 2 sessions the user asked")
        assert RECURRING_TAG in habit.tags and habit.importance > so_far.importance


async def test_a_later_pass_over_the_same_session_does_not_make_it_a_habit(
    tmp_path: Path,
) -> None:
    async with clocked_stores(tmp_path, NOW) as (store, users):
        processor = rules_processor(store, users, NOW)
        start = NOW - timedelta(days=3)
        await store.append_events(
            store.project_id, "u", turn_events("s0", start, CLOSING["go"]), []
        )
        await processor.drain(store)
        # the same session goes on after a break (another episode), with other work only
        later = [("Now document the retry flag in the README.", "Documented.")]
        await store.append_events(
            store.project_id, "u", turn_events("s0", start + timedelta(hours=5), later), []
        )
        await processor.drain(store)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        (so_far,) = [m for m in items if not m.deleted and m.key.startswith(PREFIX)]
        assert is_tentative(so_far.tags) and RECURRING_TAG not in so_far.tags
        assert so_far.importance == IMPORTANCE


def test_the_session_view_says_how_often_a_waiting_instruction_was_said() -> None:
    said = [
        _stored("pref:a", "Don't amend commits.", ("preference", "tentative", "emphasis")),
        _stored(
            "pref:b",
            "Run the linter first.",
            ("preference", "tentative", "emphasis", "repeated"),
        ),
        _stored(
            f"{PREFIX}commit_push",
            "In one session so far the user asked 2 times, each after other work: “commit”.",
            ("preference", "tentative", "repeated", TAG),
        ),
    ]
    shown = {m.key: m.content for m in core_style(said)}
    assert shown["pref:a"] == "Noted once so far: Don't amend commits."
    assert shown["pref:b"] == "Noted in one session so far: Run the linter first."
    assert f"{PREFIX}commit_push" not in shown  # at most two waiting ones: the weightiest


def _stored(key: str, content: str, tags: tuple[str, ...]) -> MemoryItem:
    weight = {"pref:a": 0.35, "pref:b": 0.4}.get(key, 0.3)
    return MemoryItem(
        id=f"m_{key}",
        project_id="/p",
        user_id="u",
        scope=Scope.PROJECT,
        source=MemorySource.RULES,
        type=MemoryType.USER_STYLE,
        key=key,
        content=content,
        tags=tags,
        importance=weight,
        created_at=START,
        updated_at=START,
    )
