"""The user's standing instructions said again across sessions, in other words: one memory per
habit, its importance rising with the sessions and with the user's stress, first in the core
style view; one-off requests and look-alike instructions stay apart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.firmness import STANDING_IMPORTANCE
from squirrel_memory.extractors.repeated_requests import PREFIX as ASKED_PREFIX
from squirrel_memory.extractors.standing_words import PREFIX as SAID_PREFIX
from squirrel_memory.extractors.workflow_habits import CARRY_KEY, DONE_KEY, workflow_habits
from squirrel_memory.models import MemoryCandidate, MemoryItem, MemoryType
from squirrel_memory.promotion import RECURRING_TAG, recurring_importance
from squirrel_memory.recurrence import merge_pair, unify_keys
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views import Views
from squirrel_memory.views.core_style import core_style
from tests.unit.memory.session_builder import clocked_stores, rules_processor

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


# --- several sessions, through the processor, a real store and the style view ----------------


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


async def _live_style(store: SqliteStore) -> dict[str, MemoryItem]:
    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    return {m.key: m for m in items if not m.deleted}


async def _replay(
    stores: tuple[SqliteStore, SqliteUserStore],
    sessions: list[tuple[str, str, str]],
    *,
    one_session: bool = False,
) -> list[dict[str, MemoryItem]]:
    """Each session processed in turn; what the store holds after each. With `one_session`,
    the exchanges are parts of one session, hours apart (each its own episode)."""
    store, users = stores
    processor = rules_processor(store, users, NOW)
    after: list[dict[str, MemoryItem]] = []
    for n, (request, done, reply) in enumerate(sessions):
        gap = timedelta(hours=2) if one_session else timedelta(days=2)
        start = NOW - gap * (len(sessions) - n)
        session = "s0" if one_session else f"s{n}"
        await store.append_events(
            store.project_id, "u", _session(session, start, request, done, reply), []
        )
        await processor.drain(store)
        after.append(await _live_style(store))
    return after


#: Four sessions in two ecosystems; in each the user says both habits again in other words,
#: after the assistant stopped early or called a task finished.
PLAIN = {
    "go": [
        (
            "Port the handlers to chi.",
            "Ported the first handler.",
            "keep going until all of them are done. It's done when go test passes and it's committed.",
        ),
        (
            "Fix the vet warnings.",
            "Fixed one warning.",
            "don't stop after the first one, do the whole list. Before you say finished, "
            "run go test and commit.",
        ),
        (
            "Add the metrics.",
            "Added the counter.",
            "continue with the remaining ones; it's not done until it's committed.",
        ),
        (
            "Split the config package.",
            "Moved the loader.",
            "do all the steps in one go. A task is only complete when go test is green.",
        ),
    ],
    "python": [
        (
            "Type the models.",
            "Typed user.py.",
            "keep going until every file is done. It's done when pytest passes and it's committed.",
        ),
        (
            "Fix the flaky tests.",
            "Fixed test_login.",
            "don't stop after one test, carry on through the rest. Before you say it's done, "
            "run pytest and commit.",
        ),
        (
            "Move the settings to pydantic.",
            "Moved the db settings.",
            "please do all of them before you report back. Not finished until it's committed.",
        ),
        (
            "Add docstrings.",
            "Added docstrings to api.py.",
            "continue with the remaining modules. Done = the tests pass and it's committed.",
        ),
    ],
}


@pytest.mark.parametrize("ecosystem", sorted(PLAIN))
async def test_a_habit_said_in_more_sessions_ranks_higher(
    ecosystem: str, stores: tuple[SqliteStore, SqliteUserStore]
) -> None:
    after = await _replay(stores, PLAIN[ecosystem])

    for key in (CARRY_KEY, DONE_KEY):
        assert "tentative" in after[0][key].tags  # said once: waiting for a repeat
        grown = [after[n][key].importance for n in range(4)]
        assert grown == sorted(grown) and grown[0] < grown[1] < grown[3]
        assert "recurring" in after[3][key].tags
        assert len(after[3][key].source_event_ids) == 4
    # one memory per habit, whatever the wording
    assert {k for k in after[3] if k in (CARRY_KEY, DONE_KEY)} == {CARRY_KEY, DONE_KEY}
    assert sum(1 for m in after[3].values() if "workflow" in m.tags) == 2


@pytest.mark.parametrize("ecosystem", sorted(PLAIN))
async def test_a_habit_said_again_within_one_session_weighs_less_than_across_sessions(
    ecosystem: str, tmp_path: Path
) -> None:
    # The same three exchanges: in three sessions, then as three parts of one session (breaks
    # of two hours between them, so each is an episode of its own).
    (tmp_path / "apart").mkdir()
    (tmp_path / "one").mkdir()
    async with clocked_stores(tmp_path / "apart", NOW) as apart_stores:
        apart = await _replay(apart_stores, PLAIN[ecosystem][:3])
    async with clocked_stores(tmp_path / "one", NOW) as one_stores:
        one = await _replay(one_stores, PLAIN[ecosystem][:3], one_session=True)

    for key in (CARRY_KEY, DONE_KEY):
        # said again after a break: a standing habit, cited each time
        assert "recurring" in one[-1][key].tags
        assert len(one[-1][key].source_event_ids) == 3
        # but three times in one session weighs less than twice in two sessions, and a third
        # time in that session adds nothing, where a third session does
        assert one[-1][key].importance == one[1][key].importance
        assert one[-1][key].importance < apart[1][key].importance < apart[2][key].importance


async def test_a_stressed_habit_ranks_above_the_same_habit_said_plainly(
    stores: tuple[SqliteStore, SqliteUserStore], tmp_path: Path
) -> None:
    store, users = stores
    sessions = [
        (
            "Port the parser.",
            "Ported the lexer.",
            "I told you, KEEP GOING until all of them are done. Done means cargo test passes.",
        ),
        (
            "Add the flags.",
            "Added --verbose.",
            "again: don't stop after the first one, do the whole list. Done means cargo test "
            "passes.",
        ),
    ]
    after = await _replay(stores, sessions)

    carry, done = after[1][CARRY_KEY], after[1][DONE_KEY]
    assert "emphasis" in carry.tags and carry.importance > done.importance

    views = Views(store, user_store=users, views_dir=tmp_path / "views", clock=lambda: NOW)
    try:
        view = await views.user_style(store.project_id, user_id="u")
    finally:
        views.close()
    assert [i.key for i in view.items[:2]] == [CARRY_KEY, DONE_KEY]
    assert [m.key for m in core_style([done, carry])][:2] == [CARRY_KEY, DONE_KEY]
    assert "No coding-style preferences" not in view.markdown


async def test_one_off_requests_said_in_every_session_are_no_habit(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    sessions = [
        ("The login test fails.", "I looked at the fixture.", "fix this test"),
        ("Start the dev server.", "It is on port 3000.", "use port 8080 for now"),
        ("The signup test fails.", "I read the log.", "fix this test please"),
        ("Start it again.", "Started on port 3000.", "use port 8080 for now"),
    ]
    after = await _replay(stores, sessions)

    assert after[3] == {}


async def test_instructions_that_share_words_but_not_meaning_stay_apart(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    sessions = [
        ("Add the endpoint.", "Added and committed it.", "no, run the linter before you commit"),
        ("Add the model.", "Added and committed it.", "no, run the formatter before you commit"),
    ]
    after = await _replay(stores, sessions)

    kept = after[1]
    assert len(kept) == 2 and all("tentative" in m.tags for m in kept.values())


@pytest.mark.parametrize(
    "reply",
    [
        # French and German: the rules read English instructions; said in other languages the
        # habit is not kept rather than kept wrong (the sentence model cannot tell these apart
        # either: tests/integration/test_habit_meaning.py)
        "ne t'arrête pas après la première, fais toute la liste",
        "hör nicht nach der ersten auf, arbeite die ganze Liste ab",
        "terminado significa que los tests pasan y está commiteado",
    ],
)
def test_a_habit_in_another_language_is_not_guessed(reply: str) -> None:
    assert workflow_habits(reply, after_assistant_action=True) == []


@pytest.mark.parametrize(
    "text",
    [
        "Before you say finished, run the tests and commit.",
        "before you call it complete, run cargo test",
        "Before you say you're done, push it.",
    ],
)
def test_before_you_say_it_is_done_is_the_definition_of_done(text: str) -> None:
    [habit] = workflow_habits(text, after_assistant_action=True)

    assert habit.key == DONE_KEY


@pytest.mark.parametrize(
    "text",
    [
        "before you mark the migration finished, check the logs",
        "Before you say anything, read the README.",
        "before you report, summarise the diff",
        "Before you say it's done?",
    ],
)
def test_before_you_say_about_something_else_is_no_definition_of_done(text: str) -> None:
    assert workflow_habits(text, after_assistant_action=True) == []


async def test_a_habit_said_in_two_sessions_leads_a_rule_stated_once_more_firmly(
    stores: tuple[SqliteStore, SqliteUserStore], tmp_path: Path
) -> None:
    store, users = stores
    sessions = [
        (
            "Port the handlers.",
            "Ported the first handler.",
            "keep going until all of them are done.",
        ),
        (
            "Add the flags.",
            "Added --verbose.",
            "don't stop after the first one, do the whole list. From now on, ALWAYS write the "
            "changelog entry first!!",
        ),
    ]
    after = await _replay(stores, sessions)
    stated = next(m for k, m in after[1].items() if k != CARRY_KEY and "standing" in m.tags)
    carry = after[1][CARRY_KEY]
    # stated once with emphasis, it weighs more than the habit said in two sessions
    assert "recurring" in carry.tags and "recurring" not in stated.tags
    assert stated.importance > carry.importance

    views = Views(store, user_store=users, views_dir=tmp_path / "views", clock=lambda: NOW)
    try:
        core = await views.user_style(store.project_id, user_id="u", mode="core")
        full = await views.user_style(store.project_id, user_id="u", mode="full")
    finally:
        views.close()
    # what the user keeps saying opens the session; the full view keeps the weights' order
    assert [i.key for i in core.items[:2]] == [CARRY_KEY, stated.key]
    assert [i.key for i in full.items[:2]] == [stated.key, CARRY_KEY]


async def test_a_rule_said_again_in_spanish_in_other_words_is_one_recurring_instruction(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    sessions = [
        (
            "Agrega el endpoint de salud.",
            "Agregué el handler.",
            "A partir de ahora, ejecuta las pruebas antes de hacer commit.",
        ),
        (
            "Migra el registro a la nueva biblioteca.",
            "Cambié el logger.",
            "De ahora en adelante ejecuta siempre las pruebas antes del commit.",
        ),
        (
            "Divide el paquete de configuración.",
            "Moví el cargador.",
            "A partir de ahora, antes de hacer commit, ejecuta las pruebas.",
        ),
    ]
    after = await _replay(stores, sessions)

    kept = [m for m in after[2].values() if m.key.startswith(SAID_PREFIX)]
    assert len(kept) == 1, after[2]
    assert "recurring" in kept[0].tags
    assert kept[0].importance > STANDING_IMPORTANCE
    # the tasks of each session are not the user's style
    assert not any("endpoint" in m.content or "Migra" in m.content for m in after[2].values())


async def test_a_request_said_again_in_japanese_without_a_marker_becomes_a_habit(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    sessions = [
        (
            "パーサーにエラー処理を追加して",
            "追加しました。",
            "コミットする前にテストを実行してください",
        ),
        (
            "ビルドスクリプトを整理して",
            "整理しました。",
            "テストを実行してからコミットしてください",
        ),
    ]
    after = await _replay(stores, sessions)

    assert not any(m.key.startswith(ASKED_PREFIX) for m in after[0].values())
    (asked,) = [m for m in after[1].values() if m.key.startswith(ASKED_PREFIX)]
    assert asked.content.startswith("In 2 sessions the user asked: “")
    assert "テストを実行" in asked.content
    assert asked.importance >= STANDING_IMPORTANCE


async def test_a_request_said_again_as_a_rule_is_that_rule_not_a_second_memory(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    sessions = [
        (
            "Agrega el endpoint de salud.",
            "Agregué el handler.",
            "Ejecuta las pruebas y el linter antes de hacer el commit, por favor.",
        ),
        (
            "Migra el registro a la nueva biblioteca.",
            "Cambié el logger.",
            "A partir de ahora, ejecuta las pruebas y el linter antes de hacer el commit.",
        ),
    ]
    after = await _replay(stores, sessions)

    assert after[0] == {}  # said once, with no marker of later work: nothing yet
    (rule,) = after[1].values()
    assert rule.key.startswith(SAID_PREFIX)
    assert "A partir de ahora" in rule.content


async def test_a_standing_rule_said_in_other_words_in_another_session_is_one_rule_said_again(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    sessions = [
        (
            "Add the endpoint.",
            "Added it.",
            "from now on, always run the tests before committing",
        ),
        ("Add the model.", "Added it.", "going forward, run the test suite before every commit"),
    ]
    after = await _replay(stores, sessions)

    [first] = after[0].values()
    [kept] = after[1].values()
    assert kept.key == first.key and kept.content == first.content
    assert "recurring" in kept.tags and kept.importance > first.importance
    assert len(kept.source_event_ids) == 2


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (
            "from now on, always use tabs for indentation",
            "from now on, never use tabs for indentation",
        ),
        (
            "from now on, always run the tests before committing",
            "from now on, always run the linter before committing",
        ),
        ("going forward, use pnpm, not npm", "going forward, use npm, not pnpm"),
        (
            "from now on, run cargo test before committing",
            "from now on, run cargo clippy before committing",
        ),
    ],
)
async def test_standing_rules_that_differ_stay_two_rules(
    stores: tuple[SqliteStore, SqliteUserStore], one: str, other: str
) -> None:
    sessions = [("Add the endpoint.", "Added it.", one), ("Add the model.", "Added it.", other)]
    after = await _replay(stores, sessions)

    assert len(after[1]) == 2 or "recurring" not in next(iter(after[1].values())).tags


def _standing(key: str, content: str, episode: str) -> MemoryCandidate:
    return MemoryCandidate(
        MemoryType.USER_STYLE, key, content, ("preference", "standing"), 0.7, (), episode, (key,)
    )


def test_a_habit_told_by_its_cues_keeps_its_key_beside_a_rule_it_quotes() -> None:
    done = _standing(
        DONE_KEY,
        "What the user counts as done, in their words: “House rules: use includes, not preload, "
        "run the tests before you say it's done”.",
        "ep1",
    )
    rule = _standing("pref:includes", "Prefers includes over preload.", "ep2")

    assert [c.key for c in unify_keys([done, rule])] == [DONE_KEY, "pref:includes"]


# --- one pass over several sessions ----------------------------------------------------------


def _said_once(n: int, *, standing: bool = False) -> MemoryCandidate:
    return MemoryCandidate(
        type=MemoryType.USER_STYLE,
        key="pref:answer_length",
        content="The user wants short replies, in their words: “Keep it short”.",
        tags=("preference", "standing" if standing else "tentative"),
        importance=STANDING_IMPORTANCE if standing else 0.3,
        source_episode_id=f"ep{n}",
        source_event_ids=(f"e{n}",),
    )


def test_a_habit_said_in_a_third_session_of_one_pass_grows_above_two() -> None:
    sessions = {"e1": "s1", "e2": "s2", "e3": "s3"}
    two = merge_pair(_said_once(1), _said_once(2), sessions)
    assert two is not None and two.importance == recurring_importance(2)
    three = merge_pair(two, _said_once(3), sessions)
    assert three is not None and three.importance == recurring_importance(3)
    assert three.source_event_ids == ("e1", "e2", "e3")


def test_a_tentative_of_the_same_session_or_episode_adds_no_weight() -> None:
    firm = _said_once(1, standing=True)
    same_session = merge_pair(firm, _said_once(2), {"e1": "s1", "e2": "s1"})
    assert same_session is not None and same_session.importance == STANDING_IMPORTANCE
    assert RECURRING_TAG not in same_session.tags
    same_episode = replace(_said_once(2), source_episode_id="ep1")
    joined = merge_pair(firm, same_episode, {"e1": "s1", "e2": "s2"})
    assert joined is not None and joined.importance == STANDING_IMPORTANCE
