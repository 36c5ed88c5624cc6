"""One memory per recipe: when the repository and the sessions name the same command for the
same purpose, the repository's recipe is kept (with its `path:line` sources) and carries the
sessions' evidence; when they differ, both stay and say which is which. Real git repositories,
the real processor and SQLite store, and search and task context through the real retrieval."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.index import FaissIndex
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.recipe_join import (
    KEY_PREFIX,
    SESSION_NOTE,
    join_candidates,
    same_command,
    slot_of,
)
from squirrel_memory.repository import RepositoryReader
from squirrel_memory.repository.wording import KEY_PREFIX as READER_PREFIX
from squirrel_memory.retrieval import RetrievalSettings, Retriever, embedding_text
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import TaskContextBuilder
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore
from tests.unit.memory.repository.conftest import ELIXIR, JS, PYTHON, MakeRepo, commit

USER = "dev"
NOW = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("repository", "session"),
    [
        ("pytest", "pytest -x"),
        ("pytest", "uv run pytest tests/unit -q"),
        ("mix test", "mix test test/heron_web/live/page_test.exs"),
        ("mix test", "MIX_ENV=test mix test --cover"),
        ("pnpm test", "pnpm test -- --watch=false"),
        ("go test ./...", "go test ./..."),
        ("cargo test --locked", "cargo test"),
    ],
)
def test_the_same_command_after_normalisation(repository: str, session: str) -> None:
    assert same_command(repository, session)


@pytest.mark.parametrize(
    ("repository", "session"),
    [
        ("make test", "pytest -x"),
        ("mix precommit", "mix test"),
        ("pnpm test", "npx vitest run"),
        ("npm test", "pnpm test"),
        ("", ""),
        ("`", "pytest"),
    ],
)
def test_different_commands_are_not_joined(repository: str, session: str) -> None:
    assert not same_command(repository, session)


def test_slots_of_both_sources_line_up() -> None:
    assert KEY_PREFIX == READER_PREFIX
    recipe, fact = MemoryType.RECIPE, MemoryType.PROJECT_FACT
    assert slot_of(recipe, "repo:recipe:test") == slot_of(recipe, "recipe:test")
    assert slot_of(recipe, "repo:recipe:test@assets") == slot_of(recipe, "recipe:test:assets")
    assert slot_of(fact, "test_command") == slot_of(recipe, "recipe:test")
    assert (
        slot_of(recipe, "recipe:verify") is None and slot_of(recipe, "repo:recipe:checks") is None
    )
    assert slot_of(fact, "repo:recipe:test") is None and slot_of(recipe, "ci") is None


# --- through the real processor and store -------------------------------------------------


def _runs(
    root: Path, session: str, commands: Sequence[str], start: datetime, folder: str = ""
) -> list[Event]:
    events = []
    for index, command in enumerate(commands):
        content: dict[str, Any] = {
            "command": command,
            "tool_use_id": f"{session}-{index}",
            "exit_code": 0,
            "is_error": False,
            "output": "ok",
            "cwd": str(root / folder) if folder else str(root),
        }
        events.append(
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.COMMAND_RUN,
                start + timedelta(seconds=30 * (index + 1)),
                content,
                session_id=session,
            )
        )
    return events


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


class Project:
    def __init__(self, root: Path, store: SqliteStore, users: SqliteUserStore) -> None:
        self.root, self.store = root, store

        async def stores() -> list[SqliteStore]:
            return [store]

        self.processor = Processor(
            stores,
            users,
            RulesExtractor(),
            _decide,
            user_id=USER,
            clock=lambda: NOW,
            settings=ProcessorSettings(retry_delays=()),
        )

    async def sessions(self, *sessions: Sequence[str], folder: str = "") -> None:
        for number, commands in enumerate(sessions):
            start = NOW - timedelta(days=2 - number)
            events = _runs(self.root, f"{folder}s{number}", commands, start, folder)
            result = await self.store.append_events(self.store.project_id, USER, events, [])
            assert not result.rejected
            await self.processor.process_once(self.store, force=True)

    async def live(self) -> dict[str, MemoryItem]:
        items, _ = await self.store.list_memories(self.store.project_id, limit=1000)
        return {m.key: m for m in items}


@pytest.fixture
async def opened(
    make_repo: MakeRepo, tmp_path: Path
) -> AsyncIterator[tuple[MakeRepo, SqliteUserStore]]:
    users = await SqliteUserStore.open(tmp_path / "home")
    yield make_repo, users
    await users.close()


async def _project(
    opened: tuple[MakeRepo, SqliteUserStore], files: dict[str, str | bytes]
) -> Project:
    make_repo, users = opened
    root = make_repo(files)
    store = await SqliteStore.open(str(root), clock=lambda: NOW)
    return Project(root, store, users)


LANGUAGES = [
    # (repository files, the repository's test command, what the sessions ran)
    (ELIXIR, "mix test", ["mix test", "mix test test/heron_web/live/page_live_test.exs"]),
    (JS, "pnpm test", ["pnpm test", "pnpm test -- --run"]),
]


@pytest.mark.parametrize(("files", "named", "ran"), LANGUAGES)
async def test_sessions_running_the_repositorys_command_enrich_its_recipe(
    opened: tuple[MakeRepo, SqliteUserStore],
    files: dict[str, str | bytes],
    named: str,
    ran: list[str],
) -> None:
    project = await _project(opened, files)
    try:
        await RepositoryReader(USER).refresh(project.store)
        before = (await project.live())["repo:recipe:test"]
        assert f"`{named}`" in before.content
        await project.sessions(ran, ran)
        live = await project.live()
        assert "recipe:test" not in live and "test_command" not in live
        joined = live["repo:recipe:test"]
        assert joined.id == before.id
        assert joined.source_refs == before.source_refs  # the repository stays the source
        assert joined.content.startswith(before.content.rstrip())
        assert SESSION_NOTE + f"`{ran[0]}`" in joined.content or SESSION_NOTE in joined.content
        assert "(worked in 2 sessions)" in joined.content
        assert len(joined.source_event_ids) >= 4 and joined.importance >= before.importance
        # A later pass with the same evidence writes no new version.
        versions = len(await project.store.history(joined.id))
        await project.sessions(ran)
        assert len(await project.store.history(joined.id)) <= versions + 1
        assert "recipe:test" not in await project.live()
    finally:
        await project.store.close()


async def test_different_commands_both_stay_and_say_which_is_which(
    opened: tuple[MakeRepo, SqliteUserStore],
) -> None:
    project = await _project(opened, PYTHON)  # the Makefile's `make test`
    try:
        await RepositoryReader(USER).refresh(project.store)
        await project.sessions(["uv run pytest -x", "uv run pytest -x"], ["uv run pytest -x"])
        live = await project.live()
        assert live["repo:recipe:test"].content.startswith("Run the tests with `make test`")
        assert SESSION_NOTE not in live["repo:recipe:test"].content
        session = live["recipe:test"].content
        assert session.startswith("In sessions, to run the tests: `uv run pytest -x`")
        assert session.endswith("the repository names `make test` instead.")
        assert "test_command" not in live  # the recipe already names the command
    finally:
        await project.store.close()


async def test_a_reading_after_the_sessions_retires_their_copy_with_a_reason(
    opened: tuple[MakeRepo, SqliteUserStore],
) -> None:
    project = await _project(opened, ELIXIR)
    try:
        await project.sessions(["mix test", "mix test"], ["mix test --failed"])
        session = (await project.live())["recipe:test"]
        reader = RepositoryReader(USER)
        report = await reader.refresh(project.store)
        assert report is not None and report.retired >= 1
        live = await project.live()
        assert "recipe:test" not in live
        history = await project.store.history(session.id)
        assert history[-1].reason.startswith("retired: the repository's recipe (repo:recipe:test)")
        joined = live["repo:recipe:test"]
        assert SESSION_NOTE in joined.content and set(session.source_event_ids) <= set(
            joined.source_event_ids
        )
        # A commit that moves the line re-reads the recipe and keeps the sessions' note.
        mix = str(ELIXIR["mix.exs"])
        commit(project.root, {"mix.exs": "# moved\n" + mix})
        await reader.refresh(project.store)
        moved = (await project.live())["repo:recipe:test"]
        assert moved.source_refs != joined.source_refs
        assert moved.content.split(SESSION_NOTE)[1] == joined.content.split(SESSION_NOTE)[1]
    finally:
        await project.store.close()


async def test_search_and_task_context_return_one_test_recipe(
    opened: tuple[MakeRepo, SqliteUserStore],
) -> None:
    project = await _project(opened, ELIXIR)
    try:
        await RepositoryReader(USER).refresh(project.store)
        await project.sessions(["mix test", "mix test"], ["mix test", "mix format"])
        items = list((await project.live()).values())
        embedder = FakeEmbedder(dim=128)
        index = FaissIndex(embedder.dim, embedder.model_id)
        vectors = embedder.embed_now([embedding_text(i) for i in items])
        index.upsert(zip([i.id for i in items], vectors, strict=True))
        retriever = Retriever(
            project.store,
            embedder=embedder,
            index=index,
            settings=RetrievalSettings(vector_floor=0.1),
        )
        page = await retriever.search(project.store.project_id, "how do I run the tests", 10)
        texts = [r.content for r in page.results]
        assert (
            sum("`mix test`" in t and t.startswith(("Run the tests", "To run")) for t in texts) == 1
        )
        context = await TaskContextBuilder(retriever).build(
            project.store.project_id, "run the tests and fix the failing ones", user_id=USER
        )
        tests = [m for m in context.selected_memories if "`mix test`" in m.content]
        assert [m.key for m in tests if m.key.endswith("recipe:test")] == ["repo:recipe:test"]
        assert not [m for m in context.selected_memories if m.key == "test_command"]
    finally:
        await project.store.close()


def test_join_leaves_other_memories_and_manual_ones_alone() -> None:
    unrelated = MemoryCandidate(MemoryType.RECIPE, "recipe:verify", "Before committing …", (), 0.5)
    pitfall = MemoryCandidate(MemoryType.PITFALL, "recipe:test", "`mix test` failed …", (), 0.5)
    kept, updates = join_candidates([unrelated, pitfall], [])
    assert kept == [unrelated, pitfall] and updates == []


async def test_a_folders_recipe_joins_the_repositorys_recipe_for_that_folder(
    opened: tuple[MakeRepo, SqliteUserStore],
) -> None:
    project = await _project(opened, ELIXIR)  # assets/package.json: `npm test` runs vitest
    try:
        await RepositoryReader(USER).refresh(project.store)
        scoped = (await project.live())["repo:recipe:test@assets"]
        assert scoped.content.startswith("In `assets/`, run the tests with `npm test`")
        await project.sessions(["npm test", "npm test -- --run"], ["npm test"], folder="assets")
        live = await project.live()
        assert "recipe:test:assets" not in live
        assert SESSION_NOTE + "`npm test`" in live["repo:recipe:test@assets"].content
        assert live["repo:recipe:test@assets"].source_refs == scoped.source_refs
        assert "repo:recipe:test" in live and SESSION_NOTE not in live["repo:recipe:test"].content
    finally:
        await project.store.close()


async def test_a_stored_test_command_fact_is_retired_once_a_recipe_names_its_command(
    opened: tuple[MakeRepo, SqliteUserStore],
) -> None:
    project = await _project(opened, {"README.md": "# notes\n"})  # no manifest, no recipe
    try:
        fact = MemoryCandidate(
            MemoryType.PROJECT_FACT, "test_command", "Tests run with `pytest`.", (), 0.5
        )
        stored = await project.store.apply_decision(
            UpdateDecision(UpdateAction.ADD_NEW, fact), user_id=USER
        )
        assert stored is not None
        await project.sessions(["pytest -x", "pytest -x"], ["pytest"])
        live = await project.live()
        assert live["recipe:test"].content.startswith("To run the tests: `pytest")
        assert "test_command" not in live
        history = await project.store.history(stored.id)
        assert history[-1].reason == "retired: the recipe (recipe:test) names `pytest -x` too"
    finally:
        await project.store.close()


@pytest.mark.parametrize(
    "text",
    [
        "`" * 10_000,
        "Run the tests with `" + "x " * 50_000 + "`.",
        "Run the tests with `((((`.",
        "Run the tests with `\x00pytest`.",
        "In `assets/`, run the tests with .",
        "To run the tests: `'unterminated`.",
    ],
)
def test_hostile_recipe_text_never_joins_and_never_raises(text: str) -> None:
    repo = MemoryItem(
        id="mem_1",
        project_id="/p",
        user_id=None,
        scope=Scope.PROJECT,
        type=MemoryType.RECIPE,
        key="repo:recipe:test",
        content="Run the tests with `pytest` (README.md:7).",
        tags=(),
        importance=0.85,
        created_at=NOW,
        updated_at=NOW,
        source=MemorySource.RULES,
    )
    session = MemoryCandidate(MemoryType.RECIPE, "recipe:test", text, (), 0.6)
    kept, updates = join_candidates([session], [repo])
    assert updates == [] and len(kept) == 1
    assert kept[0].content.endswith("the repository names `pytest` instead.")
