"""Workflow and reply habits said in many wordings (one piece at a time, the change shown first,
no closing summary, how finished work is handed over), notes after a dash, the team's way
without a rule word, and the one-off tasks none of them may take."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.firmness import STANDING_TAG
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.reply_habits import (
    SUMMARY_KEY,
)
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.workflow_habits import (
    DONE_KEY,
    HANDOVER_KEY,
    PACE_KEY,
    PREVIEW_KEY,
    workflow_habits,
)
from squirrel_memory.models import MemoryCandidate, MemoryItem, MemoryType, UpdateDecision
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views.builder import Views

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Do them one at a time and wait for my ok before the next.", PACE_KEY),
        ("Do one task at a time and wait for me to say go before the next one.", PACE_KEY),
        ("Please wait for my ok before moving on.", PACE_KEY),
        ("Show me the diff before applying anything.", PREVIEW_KEY),
        ("Before applying a change, show me the diff.", PREVIEW_KEY),
        ("Show me the plan before writing any code.", PREVIEW_KEY),
        ("Show me the diff before you apply it.", PREVIEW_KEY),
        ("Let me see the diff before you write anything.", PREVIEW_KEY),
        ("Diff first, then I'll say go.", PREVIEW_KEY),
        ("Plan first, then code.", PREVIEW_KEY),
        ("No summary at the end please, I read the diff.", SUMMARY_KEY),
        ("Skip the recap at the end of your replies.", SUMMARY_KEY),
        ("Don't summarize what you did at the end, I can read the diff.", SUMMARY_KEY),
        ("When you finish, push and open a PR.", HANDOVER_KEY),
        ("Open a pull request when you're done instead of pushing to main.", HANDOVER_KEY),
        ("When the work is done, push the branch and open a PR.", HANDOVER_KEY),
        ("Run hlint and fix its warnings before you tell me it's finished.", DONE_KEY),
        ("Review your own diff before handing it over.", DONE_KEY),
    ],
)
def test_wordings_of_a_workflow_habit_share_one_key(text: str, key: str) -> None:
    [habit] = workflow_habits(text, after_assistant_action=False)

    assert habit.key == key and "workflow" in habit.tags
    assert habit.content.endswith("”.")  # quotes the user's words


@pytest.mark.parametrize(
    "text",
    [
        "Stop after the export endpoint and wait for me.",
        "Do the migrations one at a time.",
        "The worker should take one job at a time and wait before the next poll.",
        "Wait for CI before merging.",
        "Show me the diff of lexer.rs.",
        "Show me the diff.",
        "The diff first line is wrong.",
        "Let me see the diff of the parser.",
        "Summarize what changed in the mailer.",
        "Add a summary at the end of the README.",
        "Push the branch now.",
        "Open a PR for this.",
        "Commit what you have so far.",
        "From now on, push when you're done.",
        "When you're done with the parser, push it.",
        "The retry loop should push the job when it's done.",
        "Hand it over to QA before Friday.",
        "Is it done? Did you open a PR when you finished?",
    ],
)
def test_one_off_steps_are_not_workflow_habits(text: str) -> None:
    assert workflow_habits(text, after_assistant_action=False) == []


def test_a_notice_label_before_a_dash_stays_with_what_it_sets_off() -> None:
    assert clauses("Add pagination. Reminder - every exported function has a return type.") == [
        ("Add pagination.", "Add pagination."),
        (
            "Reminder: every exported function has a return type.",
            "every exported function has a return type.",
        ),
    ]
    # a dash after other words splits as before
    assert [c for c, _ in clauses("Run it - then push")] == ["Run it", "then push"]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Note - every public type derives Debug.", "Every public type derives Debug."),
        ("Reminder - every exported function has an explicit return type.", None),
        (
            "Note - partial functions like head and fromJust are off limits.",
            "Partial functions like head and fromJust are off limits.",
        ),
        (
            "Add the profile screen. Note: coroutines are launched in viewModelScope, not "
            "GlobalScope.",
            "Coroutines are launched in viewModelScope, not GlobalScope.",
        ),
        (
            "Add pagination. Reminder - the logger is passed in, never a global.",
            "The logger is passed in, never a global.",
        ),
        (
            "Reminder - migrations are never edited after they are merged.",
            "Migrations are never edited after they are merged.",
        ),
    ],
)
def test_a_norm_for_every_thing_of_a_kind_after_a_note_is_a_rule(
    text: str, content: str | None
) -> None:
    [rule] = stated_preferences(text, after_assistant_action=False)

    assert STANDING_TAG in rule.tags
    assert content is None or rule.content == content


@pytest.mark.parametrize(
    "text",
    [
        "Note: the bug is in the parser, not the lexer.",
        "Note - every test fails on CI.",
        "Note - tests are slow, not broken.",
        "Note: the build takes five minutes.",
        "FYI - the staging server is down.",
        "Heads up - the API is flaky, not down.",
        "Note: all of these are broken.",
        "Reminder - it's always a timeout, never a crash.",
        "Reminder - the build is always a mess, never a joy.",
    ],
)
def test_notes_about_how_things_stand_are_no_rules(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("We write doctests for public functions.", "Write doctests for public functions."),
        ("We squash commits before merging.", "Squash commits before merging."),
        ("We use records for DTOs.", "Use records for DTOs."),
        (
            "We co-locate tests next to the component file.",
            "Co-locate tests next to the component file.",
        ),
        (
            "We put unit tests in a tests module at the bottom of each file.",
            "Put unit tests in a tests module at the bottom of each file.",
        ),
    ],
)
def test_the_teams_way_without_a_rule_word_is_a_rule(text: str, content: str) -> None:
    [rule] = stated_preferences(text, after_assistant_action=False)

    assert rule.content == content and STANDING_TAG in rule.tags


@pytest.mark.parametrize(
    "text",
    [
        "We use mocks for these tests.",
        "We add tests for the parser.",
        "We put files in the wrong place.",
        "We return early if the key is missing.",
        "We write tests.",
        "We squash.",
        "We use the v2 endpoint for now.",
    ],
)
def test_what_we_do_at_hand_is_no_way_of_the_team(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []


@pytest.mark.parametrize(
    "text",
    ["Keep it brief when you reply.", "Keep it short in your answers.", "Keep answers short."],
)
def test_reply_length_said_of_every_reply(text: str) -> None:
    [rule] = stated_preferences(text, after_assistant_action=False)

    assert rule.key == "pref:answer_length"


def test_keep_it_short_alone_is_this_text() -> None:
    assert stated_preferences("Keep it short.", after_assistant_action=False) == []


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    root = tmp_path / "proj"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
    users = await SqliteUserStore.open(tmp_path / "home")
    yield store, users
    await store.close()
    await users.close()


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


def _session(session: str, start: datetime, texts: list[str]) -> list[Event]:
    events = []
    for i, text in enumerate(texts):
        events.append(
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.USER_MESSAGE,
                start + timedelta(minutes=2 * i),
                {"text": text},
                session_id=session,
            )
        )
        events.append(
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.ASSISTANT_RESPONSE,
                start + timedelta(minutes=2 * i + 1),
                {"text": "Done."},
                session_id=session,
            )
        )
    return events


async def test_one_habit_in_two_wordings_is_one_memory_at_the_top(
    stores: tuple[SqliteStore, SqliteUserStore], tmp_path: Path
) -> None:
    store, users = stores

    async def all_stores() -> list[SqliteStore]:
        return [store]

    processor = Processor(
        all_stores,
        users,
        RulesExtractor(),
        _decide,
        user_id="u",
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: NOW,
    )
    sessions = [
        [
            "Add the invoice endpoint. Open a pull request when you're done instead of pushing "
            "to main.",
            "We use records for DTOs.",
        ],
        [
            "Add the export endpoint. Reminder - dotnet format before every commit.",
            "When the work is done, push the branch and open a PR.",
        ],
    ]
    for n, texts in enumerate(sessions):
        events = _session(f"s{n}", NOW - timedelta(days=4 - 2 * n), texts)
        await store.append_events(store.project_id, "u", events, [])
        await processor.drain(store)

    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    live = [m for m in items if not m.deleted]
    handed = [m for m in live if m.key == HANDOVER_KEY]
    assert len(handed) == 1 and "recurring" in handed[0].tags
    assert all(handed[0].importance > m.importance for m in live if m.key != HANDOVER_KEY)

    views = Views(store, user_store=users, views_dir=tmp_path / "views", clock=lambda: NOW)
    try:
        view = await views.user_style(store.project_id, user_id="u")
    finally:
        views.close()
    assert view.items[0].key == HANDOVER_KEY


@pytest.mark.parametrize(
    "text",
    [
        "ctx goes first in every function signature that does I/O.",
        "Compose previews go at the bottom of the file.",
        "Business logic goes in service objects, not in the controllers.",
        "Every commit message explains why the change was made.",
        "Every public type derives Debug.",
        "Async methods end in Async.",
        "Feature flags are named in kebab-case.",
        "classes are final by default unless they're meant to be extended",
        "Imports are qualified except for the Prelude.",
        "Components are function components, no classes.",
        "One class per file, the file named after the class.",
        "Error strings are lowercase with no trailing punctuation.",
        "Bug fixes go in the changelog.",
        "DTOs are data classes in our codebase",
    ],
)
def test_a_norm_said_of_a_kind_of_thing_is_a_rule_as_said(text: str) -> None:
    [rule] = stated_preferences(text, after_assistant_action=False)

    assert STANDING_TAG in rule.tags
    assert rule.content.lower().startswith(text[:12].lower())


@pytest.mark.parametrize(
    "text",
    [
        "Memory goes up on every request.",
        "The fix goes in the parser.",
        "It goes in the config.",
        "This file goes in src.",
        "Previews go at the bottom of this file.",
        "Everything goes in one file for now.",
        "Every test fails on CI.",
        "Requests end in a 500.",
        "Tests end with errors.",
        "Tests are broken except on CI.",
        "Builds are green except for the nightly.",
        "Users are logged out, no redirects.",
        "Every user needs a password.",
        "One request per second at most.",
        "One test failed per run.",
        "One class per file is fine here.",
        "The names are lowercase.",
        "Requests end in an error.",
        "Every user gets an email.",
        "Tests are flaky in our codebase.",
    ],
)
def test_a_state_or_one_thing_of_the_task_is_no_norm(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []


@pytest.mark.parametrize(
    ("text", "gated"),
    [
        ("Ask before adding a dependency.", True),
        ("Ask before adding a new package.", True),
        ("Ask before deleting a file.", True),
        ("Ask before deleting the old branch.", False),
        ("Ask before you start.", False),
    ],
)
def test_asking_before_any_one_of_a_kind_is_a_rule(text: str, gated: bool) -> None:
    found = stated_preferences(text, after_assistant_action=False)

    assert bool(found) is gated
    assert not found or STANDING_TAG in found[0].tags
