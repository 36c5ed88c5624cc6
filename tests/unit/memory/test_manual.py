"""Manual memory: nothing overwritten by accident, updates only when named or the same memory,
and manual and extracted memories that say the same thing merge with the manual wording kept."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.convert import remember_response
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    RememberOutcome,
    Scope,
    StoredEvent,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.checks import Clock
from squirrel_memory.storage.values import FindLookalikes
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.manual import WordScreen, remember, same_memory, slug
from squirrel_memory.user_memories.userstore import SqliteUserStore

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
FACT = MemoryType.PROJECT_FACT


@pytest.fixture
def store_clock() -> Clock:
    return lambda: NOW


async def note(
    store: SqliteStore, content: str, key: str = "", memory_type: MemoryType = FACT
) -> tuple[MemoryItem, RememberOutcome, tuple[str, ...]]:
    scope = Scope.USER if memory_type is MemoryType.USER_STYLE else Scope.PROJECT
    done = await remember(
        store,
        store.project_id,
        user_id="u",
        memory_type=memory_type,
        key=key,
        content=content,
        tags=[],
        importance=0.8,
        scope=scope,
    )
    return done.memory, done.outcome, done.merged_ids


async def extracted(store: SqliteStore, key: str, content: str) -> MemoryItem:
    candidate = MemoryCandidate(MemoryType.USER_STYLE, key, content, (), 0.6, scope=Scope.USER)
    item = await store.apply_decision(
        UpdateDecision(UpdateAction.ADD_NEW, candidate, reason="test"), user_id="u"
    )
    assert item is not None and item.source is MemorySource.RULES
    return item


async def live(store: SqliteStore) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, limit=100)
    return items


async def test_two_memories_with_the_same_first_six_words_are_both_kept(
    store: SqliteStore,
) -> None:
    first, o1, _ = await note(store, "Run the tests with pytest -x from the repo root")
    second, o2, _ = await note(store, "Run the tests with pytest -x after activating the venv")
    assert (o1, o2) == (RememberOutcome.ADDED, RememberOutcome.ADDED)
    assert first.id != second.id and first.key != second.key
    assert second.key == slug(second.content) + "_2"
    contents = {m.content for m in await live(store)}
    assert contents == {first.content, second.content}


async def test_a_named_key_updates_and_keeps_the_previous_version(store: SqliteStore) -> None:
    first, _, _ = await note(store, "Deploys go through the staging cluster", key="deploy")
    second, outcome, _ = await note(store, "Deploys go straight to production", key="deploy")
    assert outcome is RememberOutcome.UPDATED and second.id == first.id
    assert second.content == "Deploys go straight to production"
    assert [v.content for v in await store.history(first.id)][-2:] == [
        "Deploys go through the staging cluster",
        "Deploys go straight to production",
    ] or len(await store.history(first.id)) >= 2
    again, outcome, _ = await note(store, "Deploys go straight to production", key="deploy")
    assert outcome is RememberOutcome.UNCHANGED and again.version == second.version


async def test_the_same_memory_reworded_is_merged_not_added(store: SqliteStore) -> None:
    first, _, _ = await note(store, "Run the tests with pytest -x from the repository root.")
    second, outcome, merged = await note(
        store, "Run the tests with pytest -x from the repository root"
    )
    assert outcome is RememberOutcome.MERGED and merged == (first.id,)
    assert second.id == first.id and second.version == first.version + 1
    assert len(await live(store)) == 1


async def test_a_statement_remembered_again_unchanged_reports_nothing_changed(
    store: SqliteStore,
) -> None:
    first, _, _ = await note(store, "Run the tests with pytest -x from the repository root.")
    again = await remember(
        store,
        store.project_id,
        user_id="u",
        memory_type=FACT,
        key="",
        content="Run the tests with pytest -x from the repository root.",
        tags=[],
        importance=0.8,
        scope=Scope.PROJECT,
    )
    assert again.outcome is RememberOutcome.UNCHANGED and again.merged_ids == ()
    assert again.memory.id == first.id and again.memory.version == first.version
    assert remember_response(again).updated is False
    reworded = await remember(
        store,
        store.project_id,
        user_id="u",
        memory_type=FACT,
        key="",
        content="Run the tests with pytest -x from the repository root",
        tags=[],
        importance=0.8,
        scope=Scope.PROJECT,
    )
    assert reworded.outcome is RememberOutcome.MERGED and remember_response(reworded).updated


async def test_a_contradiction_is_not_a_merge(store: SqliteStore) -> None:
    await note(store, "Always use tabs for indentation in Makefiles")
    _, outcome, _ = await note(store, "Never use tabs for indentation in Makefiles")
    assert outcome is RememberOutcome.ADDED
    assert len(await live(store)) == 2
    assert not same_memory("Always use tabs here", "Never use tabs here")


async def test_an_extracted_memory_is_superseded_by_the_manual_one_with_its_wording(
    store: SqliteStore,
) -> None:
    rule = await extracted(store, "pref:logging", "Logs with structlog.")
    manual, outcome, merged = await note(
        store, "Logs with structlog", memory_type=MemoryType.USER_STYLE
    )
    assert outcome is RememberOutcome.MERGED and merged == (rule.id,)
    assert manual.source is MemorySource.MANUAL and manual.content == "Logs with structlog"
    retired = await store.get_memory(rule.id)
    assert retired.deleted and retired.superseded_by == manual.id
    assert [m.id for m in await live(store)] == [manual.id]


async def test_extraction_does_not_re_add_what_a_manual_memory_says(
    store: SqliteStore, tmp_path: Path
) -> None:
    manual, _, _ = await note(store, "Logs with structlog", memory_type=MemoryType.USER_STYLE)

    class SaysTheSame:
        name = "rules"

        async def extract(
            self, episode: Episode, events: list[StoredEvent]
        ) -> list[MemoryCandidate]:
            return [
                MemoryCandidate(
                    MemoryType.USER_STYLE,
                    "pref:logging",
                    "Logs with structlog.",
                    (),
                    0.6,
                    scope=Scope.USER,
                )
            ]

    async def decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
        return decide_update(candidate, existing)

    async def stores() -> list[SqliteStore]:
        return [store]

    users = await SqliteUserStore.open(tmp_path / "home")
    try:
        processor = Processor(
            stores,
            users,
            SaysTheSame(),
            decide,
            user_id="u",  # type: ignore[arg-type]
            settings=ProcessorSettings(batch_size=10, retry_delays=()),
            clock=lambda: NOW,
        )
        events = [
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.USER_MESSAGE,
                NOW - timedelta(hours=1, minutes=i),
                {"text": f"step {i}"},
                session_id="s",
            )
            for i in range(4)
        ]
        await store.append_events(store.project_id, "u", events, [])
        report = await processor.process_once(store, force=True)
        assert report.events_processed == 4
    finally:
        await users.close()
    assert [m.id for m in await live(store)] == [manual.id]


async def test_many_colliding_keys_stay_distinct(store: SqliteStore) -> None:
    base = "Remember this about the build system please: "
    texts = [base + word for word in ("alpha", "bravo", "charlie zulu yankee", "delta echo x")]
    ids = {(await note(store, t))[0].id for t in texts}
    assert len(ids) == len(texts)
    assert len({m.key for m in await live(store)}) == len(texts)


async def test_written_candidates_skip_the_manual_search_only_while_there_is_no_manual_memory(
    store: SqliteStore, tmp_path: Path
) -> None:
    async def decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
        return decide_update(candidate, existing)

    async def stores() -> list[SqliteStore]:
        return [store]

    def style(key: str, content: str) -> MemoryCandidate:
        return MemoryCandidate(MemoryType.USER_STYLE, key, content, (), 0.6, scope=Scope.USER)

    users = await SqliteUserStore.open(tmp_path / "home")
    try:
        processor = Processor(
            stores,
            users,
            RulesExtractor(),
            decide,
            user_id="u",
            clock=lambda: NOW,
        )
        first = await processor.write_candidates(
            store, [style("pref:tests", "Runs pytest before every commit.")]
        )
        assert first.memories_added == 1
        manual, _, _ = await note(store, "Logs with structlog", memory_type=MemoryType.USER_STYLE)
        again = await processor.write_candidates(
            store,
            [
                style("pref:logging", "Logs with structlog."),
                style("pref:format", "Formats with ruff format."),
            ],
        )
        assert again.memories_added == 1
    finally:
        await users.close()
    contents = sorted(m.content for m in await live(store))
    assert contents == [
        "Formats with ruff format.",
        "Logs with structlog",
        "Runs pytest before every commit.",
    ]
    assert manual.id in {m.id for m in await live(store)}


# Few words, so statements share many of them; stop words, negations, tools and punctuation,
# so every branch of `same_memory` (Jaccard, containment, contradiction) is reached.
_WORDS = st.sampled_from(
    [
        "use",
        "uses",
        "pytest",
        "unittest",
        "never",
        "always",
        "the",
        "to",
        "run",
        "tests",
        "ci",
        "deploy",
        "via",
        "github",
        "docs/api.md",
        "make",
        "über",
        "x",
        "y",
        "z",
    ]
)
_STATEMENTS = st.lists(_WORDS, min_size=0, max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(
    existing=st.lists(st.tuples(_STATEMENTS, st.booleans()), max_size=12),
    statement=_STATEMENTS,
    manual=st.booleans(),
)
# Jaccard 0.8 with neither word set inside the other: found only through the rarest words.
@example(
    existing=[("ab bb cc dd ee ff gg hh ii", False)],
    statement="aa bb cc dd ee ff gg hh ii",
    manual=True,
)
def test_the_word_screen_never_rules_out_a_statement_with_a_lookalike(
    existing: list[tuple[str, bool]], statement: str, manual: bool
) -> None:
    """Any look-alike the step keeps (manual ones only when it keeps them) keeps the search."""
    screen = WordScreen()
    screen.learn(FACT, 0, [(f"mem_{n}", text, hand) for n, (text, hand) in enumerate(existing)])
    step = FindLookalikes(FACT, statement, 20, manual=manual)
    if any(same_memory(statement, text) and (manual or not hand) for text, hand in existing):
        assert not screen.rules_out(step)


def test_a_step_that_keeps_no_manual_memory_is_ruled_out_by_manual_lookalikes_alone() -> None:
    screen = WordScreen()
    text = "Deploys run through the GitHub Actions workflow."
    screen.learn(FACT, 0, [("mem_1", text, True)])
    assert screen.rules_out(FindLookalikes(FACT, text, 20, manual=False))
    assert not screen.rules_out(FindLookalikes(FACT, text, 20))
    screen.learn(FACT, 1, [("mem_1", text, True), ("mem_2", text, False)])
    assert not screen.rules_out(FindLookalikes(FACT, text, 20, manual=False))


def test_the_word_screen_follows_the_memories_written_and_retired() -> None:
    screen = WordScreen()
    screen.learn(FACT, 0, [])
    step = FindLookalikes(FACT, "Deploys run through the GitHub Actions workflow!", 20)
    assert screen.rules_out(step)
    item = MemoryItem(
        id="mem_1",
        project_id="p",
        user_id=None,
        scope=Scope.PROJECT,
        type=FACT,
        key="deploys",
        content="Deploys run through the GitHub Actions workflow.",
        tags=(),
        importance=0.5,
        created_at=NOW,
        updated_at=NOW,
        source=MemorySource.MANUAL,
    )
    screen.written(item)
    assert not screen.rules_out(step)
    screen.written(replace(item, deleted=True))
    assert screen.rules_out(step)


@pytest.mark.parametrize(
    "content",
    [
        "y" * 2_000,
        "Pin sha256:" + "ab12" * 200 + " as the base image digest",
        " ".join(["supercalifragilistic" * 5] * 6) + " is the test fixture's name",
    ],
)
async def test_a_statement_of_long_words_gets_a_key_the_store_takes(
    store: SqliteStore, content: str
) -> None:
    """The default key is the first words; words as long as a pasted digest made a key past
    the store's limit, and a valid memory was refused for a key the user never gave."""
    first, outcome, _ = await note(store, content)
    again, _, _ = await note(store, content[:-1] + "!")

    assert outcome is RememberOutcome.ADDED and first.content == " ".join(content.split())
    assert len(first.key) <= 64 and len(again.key) <= 64 + 4
    assert first.key == slug(content) and not first.key.endswith("_")


def test_a_short_statements_key_is_its_first_six_words() -> None:
    """Must not fire: everyday statements keep the key they always had."""
    assert slug("Run the tests with pytest -x from the repo root") == "run_the_tests_with_pytest_x"
    assert slug("!!!") == "note"
