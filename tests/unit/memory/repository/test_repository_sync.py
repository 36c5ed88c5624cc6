"""Repository memories in a real store: added with their lines, updated in place with history
when a file changes, retired with a reason when the fact or the file disappears."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.repository import RepositoryReader
from squirrel_memory.storage import MemoryChange, SqliteStore
from squirrel_memory.views import Views, key_fact
from tests.unit.memory.repository.conftest import ELIXIR, MakeRepo, commit

USER = "alice"


@pytest.fixture
async def elixir(make_repo: MakeRepo) -> AsyncIterator[tuple[Path, SqliteStore]]:
    root = make_repo(ELIXIR)
    store = await SqliteStore.open(str(root))
    yield root, store
    await store.close()


async def _live(store: SqliteStore) -> dict[str, MemoryItem]:
    items, _ = await store.list_memories(store.project_id, limit=1000)
    return {m.key: m for m in items}


async def test_first_read_adds_memories_with_their_lines(elixir: tuple[Path, SqliteStore]) -> None:
    _, store = elixir
    report = await RepositoryReader(USER).refresh(store)
    assert report is not None and report.added > 10 and report.retired == 0
    live = await _live(store)
    stack = live["repo:stack"]
    assert stack.type is MemoryType.PROJECT_FACT and stack.source is MemorySource.RULES
    assert "mix.exs:8" in stack.source_refs
    (v1,) = await store.history(stack.id)
    assert v1.source_refs == stack.source_refs
    assert v1.reason.startswith("read from the repository (mix.exs")


async def test_a_reading_is_written_in_one_transaction(
    elixir: tuple[Path, SqliteStore],
) -> None:
    """Listeners are told once per transaction: once for all the facts a reading adds."""
    _, store = elixir
    heard: list[MemoryChange] = []
    store.add_listener(heard.append)
    report = await RepositoryReader(USER).refresh(store)
    assert report is not None and report.added > 10
    added = [change for change in heard if change.added]
    assert len(added) == 1 and len(added[0].added) == report.added


async def test_the_brief_labels_repository_facts_by_their_topic(
    elixir: tuple[Path, SqliteStore],
) -> None:
    _, store = elixir
    await RepositoryReader(USER).refresh(store)
    live = await _live(store)
    assert key_fact(live["repo:stack"]).startswith("Stack: Heron is an Elixir/Phoenix app")
    assert key_fact(live["repo:database"]).startswith("Database: ")


async def test_the_brief_shows_one_database_fact_when_sessions_saw_it_too(
    elixir: tuple[Path, SqliteStore],
) -> None:
    _, store = elixir
    seen = MemoryCandidate(MemoryType.PROJECT_FACT, "database", "Data layer: Ecto.", (), 0.5)
    await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, seen), user_id=USER)
    await RepositoryReader(USER).refresh(store)
    views = Views(store)
    try:
        brief = await views.project_brief(store.project_id, mode="full")
    finally:
        views.close()
    databases = [f for f in brief.key_facts if f.startswith("Database:")]
    assert databases == ["Database: The project's database is PostgreSQL, used through Ecto."]


async def test_same_head_is_not_read_twice_and_a_forced_read_changes_nothing(
    elixir: tuple[Path, SqliteStore],
) -> None:
    _, store = elixir
    reader = RepositoryReader(USER)
    await reader.refresh(store)
    assert await reader.refresh(store) is None
    again = await RepositoryReader(USER).refresh(store, force=True)
    assert again is not None and (again.added, again.updated, again.retired) == (0, 0, 0)


async def test_a_changed_file_updates_the_memory_in_place_with_history(
    elixir: tuple[Path, SqliteStore],
) -> None:
    root, store = elixir
    reader = RepositoryReader(USER)
    await reader.refresh(store)
    before = (await _live(store))["repo:stack"]
    mix = str(ELIXIR["mix.exs"]).replace('elixir: "~> 1.17"', 'elixir: "~> 1.18"')
    mix = mix.replace("  use Mix.Project\n", "  use Mix.Project\n\n  @moduledoc false\n")
    commit(root, {"mix.exs": mix})
    report = await reader.refresh(store)
    assert report is not None and report.updated >= 1
    after = (await _live(store))["repo:stack"]
    assert after.id == before.id and after.version == 2
    assert "(Elixir 1.18," in after.content
    assert "mix.exs:10" in after.source_refs and "mix.exs:8" not in after.source_refs
    history = await store.history(after.id)
    assert [(v.version, "mix.exs:8" in v.source_refs) for v in history] == [(1, True), (2, False)]
    assert history[1].reason.startswith("re-read from the repository at ")


async def test_a_fact_that_disappears_is_retired_with_the_reason(
    elixir: tuple[Path, SqliteStore],
) -> None:
    root, store = elixir
    reader = RepositoryReader(USER)
    await reader.refresh(store)
    jobs = (await _live(store))["repo:jobs"]
    rules = [m for k, m in (await _live(store)).items() if k.startswith("repo:rule:")]
    mix = str(ELIXIR["mix.exs"]).replace('      {:oban, "~> 2.18"},\n', "")
    commit(root, {"mix.exs": mix}, remove=("CLAUDE.md",))
    report = await reader.refresh(store)
    assert report is not None and report.retired >= 1 + len(rules)
    live = await _live(store)
    assert "repo:jobs" not in live and not any(k.startswith("repo:rule:") for k in live)
    retired = await store.get_memory(jobs.id)
    assert retired.deleted
    last = (await store.history(jobs.id))[-1]
    assert last.action == "forgotten"
    assert "no longer says this (was read from mix.exs, mix.lock)" in last.reason
    assert "Oban" not in live["repo:stack"].content


async def test_manual_memories_and_session_memories_are_left_alone(
    elixir: tuple[Path, SqliteStore],
) -> None:
    _, store = elixir
    manual = await store.remember(
        store.project_id,
        type=MemoryType.RECIPE,
        key="repo:recipe:test",
        content="Run the tests with `mix test --trace`.",
        tags=(),
        importance=0.9,
        scope=Scope.PROJECT,
        user_id=None,
    )
    await RepositoryReader(USER).refresh(store)
    kept = await store.get_memory(manual.id)
    assert not kept.deleted and kept.content == manual.content
    await RepositoryReader(USER).refresh(store, force=True)
    assert not (await store.get_memory(manual.id)).deleted


async def test_a_folder_that_is_not_a_repository_is_skipped(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        assert await RepositoryReader(USER).refresh(store) is None
        assert (await store.list_memories(store.project_id))[1] == 0
    finally:
        await store.close()


async def test_an_incomplete_reading_retires_nothing(
    elixir: tuple[Path, SqliteStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, store = elixir
    reader = RepositoryReader(USER)
    await reader.refresh(store)
    before = set(await _live(store))
    commit(root, {"NOTES.md": "notes\n"})
    monkeypatch.setattr("squirrel_memory.repository.snapshot.MAX_FILES_READ", 2)
    report = await reader.refresh(store)
    assert report is not None and report.retired == 0
    assert set(await _live(store)) >= before
