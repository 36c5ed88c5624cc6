"""The simplicity habit: many wordings, one instruction, promoted when it comes back; only
the user's instructions and corrections count, never their questions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event
from squirrel_memory.extractors.working_habits import (
    HABIT_KEY,
    doubt_clause,
    habit_clause,
    user_instructions,
    working_habit,
)
from squirrel_memory.models import MemoryType
from squirrel_memory.processor import Processor
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views.core_style import core_style
from tests.unit.memory.session_builder import clocked_stores, exchange, rules_processor

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
DONE = "Done: I added an exporter class and tests."


@pytest.mark.parametrize(
    "text",
    [
        # Elixir / Phoenix
        "reuse the existing PubSub topic for that",
        # Ruby / Rails: a statement said as a correction
        "no, there is existing logic for this in the Billing concern",
        # Go
        "Don't overcomplicate the handler, a plain switch is enough.",
        # Rust
        "keep it dependency free: no new crates for this",
        # Java / Gradle
        "check the existing implementation in the gradle plugin before proposing anything",
        # JavaScript
        "You can set it with the router's own option, which is less work.",
        "keeping it simple and compilation free, see the TODOs and propose a plan",
        # Python
        "Let's find a simpler way to do this without another module.",
        "KISS please",
        "Please do this without adding new dependencies.",
        # Kotlin: a polite request is a request, even with a question mark
        "Could you please keep it simple and skip the new Gradle plugin?",
    ],
)
def test_wordings_of_the_habit_are_one_instruction(text: str) -> None:
    habit = working_habit(text, after_assistant_action=True)

    assert habit is not None
    assert habit.key == HABIT_KEY and "tentative" in habit.tags and "correction" in habit.tags
    assert habit.importance == 0.35  # a one-off nudge, at the level a session opens with
    assert habit.content.startswith("The user asks for the simplest way")
    assert habit.content.endswith("”.")  # quotes the user rather than widening the rule


@pytest.mark.parametrize(
    "text",
    [
        "install the dependencies first",  # a task, not a constraint
        "the worker pool is reused across requests",  # a fact about the code
        "code reuse is poor in this package",
        "the existing migrations fail on CI",  # existing, but not code to build on
        "this is a simple fix: rename the Gradle task",  # "simple" describing the task
        "cargo add serde and derive Serialize",
        "mix deps.get failed: no new dependencies were fetched",  # output, not a wish
        "Why is the Rails boot so complicated?",  # a question about the code
        "Keep it running while I check the logs.",  # keep it, not simple
        # questions ask, they do not instruct
        "could we reuse the existing PubSub topic for that?",
        "Is there a simpler way to do this without another module?",
        "should we reuse the connection pool here",  # a question without its mark
        "Can we keep it dependency free?",
        "why not reuse the Ecto changeset?",
        # the size of every unit of code is a habit of its own, not the simplest way
        "Keep the functions small and write the test first.",
        "keep the components minimal",
    ],
)
def test_other_mentions_of_reuse_simplicity_or_dependencies_are_not_the_habit(
    text: str,
) -> None:
    assert working_habit(text, after_assistant_action=True) is None


@pytest.mark.parametrize(
    "text",
    [
        "there is existing logic for this in the Billing concern",  # Ruby
        "that would be less work for the Swift package",
        "this is too complicated for a Cargo workspace",
    ],
)
def test_a_statement_is_the_habit_only_as_a_correction_of_what_the_assistant_did(
    text: str,
) -> None:
    assert working_habit(text, after_assistant_action=False) is None
    assert working_habit(text, after_assistant_action=True) is None  # no contrast: a remark
    corrected = working_habit(f"ok, but {text}", after_assistant_action=True)
    assert corrected is not None and text in corrected.content
    assert "correction" in corrected.tags


@pytest.mark.parametrize(
    "text",
    [
        "Are we over-engineering this?",  # any ecosystem: the work at hand
        "hold on, aren't we overengineering the Ecto schemas?",  # Elixir
        "Can you double-check we're not over-engineering the Tokio retry loop?",  # Rust
        "isn't this overkill for a Cobra CLI with three commands?",  # Go
        "could you think about whether some of this is overdoing it?",
        "Step back and check whether we're over-engineering the Gradle plugin.",  # Kotlin
        "Honestly, isn't a whole event bus overkill here?",
        "is this getting over-engineered? we only need the one endpoint",
    ],
)
def test_a_doubt_about_the_size_of_the_work_is_the_habit_said_once(text: str) -> None:
    for after in (False, True):
        habit = working_habit(text, after_assistant_action=after)

        assert habit is not None and habit.key == HABIT_KEY, text
        assert "tentative" in habit.tags and not habit.standing
        assert habit.content.startswith("The user pushes back on over-engineering")
        assert habit.content.endswith("”.")


@pytest.mark.parametrize(
    "text",
    [
        # a question that weighs a named tool or part, or asks about the past or a method
        "Is Redis overkill for caching a hundred rows, or is it the usual choice?",
        "Do you think Kubernetes is overkill for this side project?",
        "Is the Rails retry concern over-engineered? I didn't write it.",
        "Was the old parser over-engineered, or did it need all those states?",
        "The reviewer asked whether we were over-engineering the cache. Summarise it.",
        "How do I avoid over-engineering a design like this?",
        "how do I know if we are over-engineering?",
        # a title to write, in quotes
        'Write a section titled "Are we over-engineering our microservices?" for the blog.',
        # a statement that defends the work, a task about the word
        "We're not over-engineering this, just add the flag.",
        "Add a lint rule that flags over-engineered factory classes.",
    ],
)
def test_a_question_that_only_asks_is_no_doubt_about_the_work(text: str) -> None:
    assert doubt_clause(text) is None
    assert working_habit(text, after_assistant_action=True) is None


def test_every_doubting_sentence_of_a_message_is_quoted_when_short() -> None:
    clause = doubt_clause(
        "well can you think whether some of this isn't overdoing it? can you check whether we "
        "are not overengineering some of the tickets we made"
    )

    assert clause is not None and "overdoing it?" in clause and "overengineering" in clause


def test_a_suggestion_to_the_assistant_is_quoted_as_said() -> None:
    habit = working_habit(
        "You can set the flag with the router's own option, which is less work",
        after_assistant_action=False,
    )

    assert habit is not None and habit.importance == 0.3
    assert "“You can set the flag with the router's own option, which is less work”" in (
        habit.content
    )


def test_a_long_request_is_quoted_around_the_wording() -> None:
    text = (
        "Can you please read the three files and do a thorough code review with a plan while "
        "keeping it simple and dependency free (except for the one library we load from a "
        "CDN) and compilation free, see TODOs and propose how to refactor it and what to keep?"
    )
    clause = habit_clause(text)

    assert clause is not None and "keeping it simple and dependency free" in clause
    assert clause.startswith("… ") and clause.endswith(" …") and len(clause) < 140


def test_the_habit_replaces_the_one_off_wording_of_the_same_clause() -> None:
    found = user_instructions("don't overcomplicate. Don't add notes.", after_assistant_action=True)

    assert [p.key for p in found].count(HABIT_KEY) == 1
    assert not any(p.content == "Don't overcomplicate." for p in found)


def test_said_as_a_rule_the_habit_is_standing_from_the_start() -> None:
    [habit] = user_instructions("Always keep it simple.", after_assistant_action=False)

    assert habit.key == HABIT_KEY and habit.standing and "standing" in habit.tags
    assert habit.importance >= 0.7


def test_a_plain_request_without_the_habit_is_left_to_the_preference_rules() -> None:
    found = user_instructions(
        "From now on, run `mix format` before every commit.", after_assistant_action=False
    )

    assert [p.key for p in found] == ["pref:run_mix_format_commit"]


# --- recurrence across sessions, in other words ---------------------------------------------


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    async with clocked_stores(tmp_path, NOW) as opened:
        yield opened


def _processor(store: SqliteStore, users: SqliteUserStore) -> Processor:
    return rules_processor(store, users, NOW)


def _exchange(session: str, start: datetime, reply: str) -> list[Event]:
    """The assistant reports a task done, the user answers with `reply`."""
    return exchange(session, start, DONE, reply)


async def test_the_habit_said_in_other_words_in_two_sessions_tops_the_core_style(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    processor = _processor(store, users)
    said = [
        ("a", "no, important not to commit until the final step"),  # stressed, said once
        ("b", "great, but there is existing logic for the CSV writer"),
        ("c", "just reuse the serializer module for that, it looks very similar"),
    ]
    for n, (session, reply) in enumerate(said):
        events = _exchange(session, NOW - timedelta(days=5 - n), reply)
        await store.append_events(store.project_id, "u", events, [])
        await processor.drain(store)

    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    live = sorted((m for m in items if not m.deleted), key=lambda m: -m.importance)
    shown = core_style(live)

    assert shown[0].key == HABIT_KEY and "recurring" in shown[0].tags
    assert shown[0].importance >= 0.7 and len(shown[0].source_event_ids) == 2
    # the instruction stressed once waits beside the standing habit (search and full mode keep it)
    assert [m.key for m in shown] == [HABIT_KEY]
    assert any(m.content == "Don't commit until the final step." for m in live)


async def test_the_same_question_in_two_sessions_is_never_a_habit(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    processor = _processor(store, users)
    for n, session in enumerate(("a", "b")):
        events = _exchange(session, NOW - timedelta(days=5 - n), "could we reuse the cache?")
        await store.append_events(store.project_id, "u", events, [])
        await processor.drain(store)

    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])

    assert not [m for m in items if not m.deleted and m.key == HABIT_KEY]
    assert await users.list_user_style("u") == []
