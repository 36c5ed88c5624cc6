"""Rules no verb form reads, told by their shape, and a rule the user says again in words no
form reads.

- An imperative clause over every future thing of a kind ("declare strict types in every new
  PHP file") and a requirement that things keep a property ("the scripts must stay POSIX sh")
  are standing rules, whatever their verb; a statement about things ("every new test fails")
  and a task over existing things ("fix the imports in every file") are not.
- Words the user says they said before ("As I said before: constructor injection, no field
  injection") become the earlier instruction said again, in its wording, leading the core style
  view; the same marker before words that say again no instruction ("Again, the build fails on
  CI") leaves nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.firmness import RESTATED_TAG, STANDING_TAG
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views import Views
from tests.unit.memory.session_builder import rules_processor

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "Please declare strict_types at the top of every new PHP file.",
            "Declare strict_types at the top of every new PHP file.",
        ),
        (
            "Register every new handler in routes.go with its own middleware chain.",
            "Register every new handler in routes.go with its own middleware chain.",
        ),
        ("The scripts must stay POSIX sh - no bashisms.", "Scripts must stay POSIX sh."),
        (
            "The public API must remain backwards compatible, we have users on 1.x.",
            "Public API must stay backwards compatible.",
        ),
    ],
)
def test_a_rule_is_told_by_its_shape(text: str, content: str) -> None:
    (found,) = stated_preferences(text, after_assistant_action=True)
    assert found.content == content
    assert STANDING_TAG in found.tags


@pytest.mark.parametrize(
    "text",
    [
        "Every new test fails on my machine.",
        "Fix the imports in every file under src.",
        "The function must be fixed before we ship.",
        "Can you add a header to every new file?",
        "Added logging to every new endpoint.",
    ],
)
def test_statements_and_tasks_are_no_rule(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=True) == []


@pytest.mark.parametrize(
    "text",
    [
        "As I said before: constructor injection, no @Autowired fields in the new service.",
        "Again, one logical change per commit: split the schema and the module.",
        "DTOs stay immutable: val only, data classes, like I said last week.",
    ],
)
def test_words_said_again_wait_for_their_instruction(text: str) -> None:
    (found,) = stated_preferences(text, after_assistant_action=True)
    assert RESTATED_TAG in found.tags and "tentative" in found.tags


def test_an_ordinary_request_is_not_words_said_again() -> None:
    assert stated_preferences("Run the tests again.", after_assistant_action=True) == []


# --- across sessions, through the processor, a real store and the core style view -------------


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    root = tmp_path / "proj"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
    users = await SqliteUserStore.open(tmp_path / "home")
    yield store, users
    await store.close()
    await users.close()


def _session(session: str, start: datetime, request: str, done: str, reply: str) -> list[Event]:
    texts = [
        (EventType.USER_MESSAGE, {"text": request}),
        (EventType.ASSISTANT_RESPONSE, {"text": done}),
        (EventType.USER_MESSAGE, {"text": reply}),
    ]
    return [
        Event(SourceTool.CLAUDE_CODE, kind, start + timedelta(minutes=i), body, session_id=session)
        for i, (kind, body) in enumerate(texts)
    ]


async def _replay(
    stores: tuple[SqliteStore, SqliteUserStore], sessions: list[tuple[str, str, str]]
) -> dict[str, MemoryItem]:
    """Each session processed in turn, two days apart; the live user_style memories after."""
    store, users = stores
    processor = rules_processor(store, users, NOW)
    for n, exchange in enumerate(sessions):
        start = NOW - timedelta(days=2) * (len(sessions) - n)
        await store.append_events(store.project_id, "u", _session(f"s{n}", start, *exchange), [])
        await processor.drain(store)
    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    return {m.key: m for m in items if not m.deleted}


#: Per ecosystem: the instruction as first said, a firm one-off of the second session, and the
#: instruction said again in words no form reads.
SAID_AGAIN = {
    "jvm": (
        "Use constructor injection for new services, not field injection with @Autowired.",
        "Never log customer emails!",
        "As I said before: constructor injection, no @Autowired fields in the new service.",
    ),
    "elixir": (
        "Keep each commit to one logical change, please.",
        "NEVER push to main directly.",
        "Again, one logical change per commit: split the schema and the context.",
    ),
}


@pytest.mark.parametrize("ecosystem", sorted(SAID_AGAIN))
async def test_an_instruction_said_again_in_other_words_leads_the_start(
    ecosystem: str, stores: tuple[SqliteStore, SqliteUserStore], tmp_path: Path
) -> None:
    first, firm, again = SAID_AGAIN[ecosystem]
    live = await _replay(
        stores,
        [
            ("Add the service.", "Added it.", first),
            ("Add the repository.", "Added it.", firm),
            ("Add the endpoint.", "Added it.", again),
        ],
    )
    said = [m for m in live.values() if "recurring" in m.tags]
    assert len(said) == 1
    assert RESTATED_TAG not in said[0].tags
    assert not any(RESTATED_TAG in m.tags for m in live.values())
    store, users = stores
    views = Views(store, user_store=users, views_dir=tmp_path / "views", clock=lambda: NOW)
    try:
        core = await views.user_style(store.project_id, user_id="u", mode="core")
    finally:
        views.close()
    assert core.items[0].key == said[0].key
    assert core.items[0].summary == said[0].content
    # the wording the instruction was first given in, not the words said again
    assert "constructor injection for new services" in said[0].content or (
        "Keep each commit to one logical change" in said[0].content
    )


@pytest.mark.parametrize(
    "again",
    ["Again, the build fails on CI.", "As I said, the staging server is down this week."],
)
async def test_words_said_again_that_match_no_instruction_leave_nothing(
    again: str, stores: tuple[SqliteStore, SqliteUserStore]
) -> None:
    live = await _replay(
        stores,
        [
            ("Add the service.", "Added it.", "Always write the changelog entry first."),
            ("Add the endpoint.", "Added it.", again),
        ],
    )
    assert not any(RESTATED_TAG in m.tags for m in live.values())
    assert all("changelog" in m.content.lower() for m in live.values())
