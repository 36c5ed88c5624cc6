"""Two episodes processed in one batch propose one memory per anchor: the statement with the
stronger evidence wins whichever episode came first (a root manifest's language over one counted
from listed files, the project's own description over the assistant's summary), as it would if
the episodes were processed one pass apart."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from squirrel_memory.candidate_decisions import _taking_back, merge_candidates
from squirrel_memory.extractors.about import ABOUT_KEY
from squirrel_memory.extractors.summaries import SUMMARY_TAG
from squirrel_memory.extractors.touched_languages import PREFIX, SEARCHED_PREFIX, TOUCHED_TAG
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)

T0 = datetime(2026, 3, 2, tzinfo=UTC)


def _fact(key: str, content: str, tags: tuple[str, ...], event: str) -> MemoryCandidate:
    return MemoryCandidate(MemoryType.PROJECT_FACT, key, content, tags, 0.6, (), None, (event,))


@pytest.mark.parametrize(
    ("counted", "manifest"),
    [
        (f"{SEARCHED_PREFIX}Rust (3 files).", "Rust project (Cargo.toml: edition 2021)."),
        (f"{PREFIX}Ruby (2 files: `a.rb`, `b.rb`).", "Ruby project (Gemfile)."),
        (f"{PREFIX}Elixir (2 files: `a.ex`, `b.ex`).", "Elixir project (mix.exs)."),
    ],
)
@pytest.mark.parametrize("manifest_first", [True, False])
def test_a_manifests_language_wins_over_a_counted_one_in_either_order(
    counted: str, manifest: str, manifest_first: bool
) -> None:
    listed = _fact("language", counted, ("language", TOUCHED_TAG), "e1")
    read = _fact("language", manifest, ("language",), "e2")
    batch = [read, listed] if manifest_first else [listed, read]

    [merged] = merge_candidates(batch)

    assert merged.content == manifest
    assert TOUCHED_TAG not in merged.tags
    assert set(merged.source_event_ids) == {"e1", "e2"}


def test_two_counted_languages_keep_the_first_as_before() -> None:
    first = _fact("language", f"{PREFIX}Go (2 files: `a.go`, `b.go`).", (TOUCHED_TAG,), "e1")
    second = _fact("language", f"{SEARCHED_PREFIX}Go (4 files).", (TOUCHED_TAG,), "e2")

    [merged] = merge_candidates([first, second])

    assert merged.content == first.content


def test_the_projects_own_description_wins_over_a_summary_in_either_order() -> None:
    summary = _fact(ABOUT_KEY, "A CLI, as the assistant summarised it.", (SUMMARY_TAG,), "e1")
    readme = _fact(ABOUT_KEY, "A CLI that syncs calendars (README.md).", ("about",), "e2")

    for batch in ([summary, readme], [readme, summary]):
        [merged] = merge_candidates(batch)
        assert merged.content == readme.content
        assert SUMMARY_TAG not in merged.tags


def test_other_keys_are_still_weighed_by_importance() -> None:
    low = MemoryCandidate(MemoryType.PROJECT_FACT, "framework", "Built with Axum.", (), 0.4)
    high = MemoryCandidate(MemoryType.PROJECT_FACT, "framework", "Built with Rocket.", (), 0.7)

    assert [m.content for m in merge_candidates([high, low])] == ["Built with Rocket."]
    assert [m.content for m in merge_candidates([low, high])] == ["Built with Rocket."]


@pytest.mark.parametrize(
    ("key", "earlier", "later"),
    [
        ("testing", "Tests are written with Jest.", "Tests are written with Vitest."),
        ("database", "Data layer: SQLite.", "Data layer: PostgreSQL."),
        (
            "package_manager",
            "Commands in this project run through npm, its package manager.",
            "Commands in this project run through pnpm, its package manager.",
        ),
    ],
)
def test_a_later_episode_that_contradicts_an_earlier_one_wins(
    key: str, earlier: str, later: str
) -> None:
    old = _fact(key, earlier, (key,), "e1")
    new = _fact(key, later, (key,), "e2")

    [merged] = merge_candidates([old, new])

    assert merged.content == later
    assert merged.source_event_ids == ("e2",)


def test_a_later_episode_that_agrees_keeps_the_first_and_pools_evidence() -> None:
    first = _fact("testing", "Tests are written with Vitest.", ("testing",), "e1")
    again = _fact("testing", "Tests are written with Vitest and Playwright.", ("testing",), "e2")

    [merged] = merge_candidates([first, again])

    assert merged.content == first.content
    assert set(merged.source_event_ids) == {"e1", "e2"}


def test_accumulating_keys_are_never_replaced_by_a_later_episode() -> None:
    first = _fact("libraries", "Key libraries: httpx, Pydantic.", ("libraries",), "e1")
    later = _fact("libraries", "Key libraries: requests.", ("libraries",), "e2")

    [merged] = merge_candidates([first, later])

    assert merged.content == first.content


def test_a_later_read_of_a_task_file_replaces_the_earlier_one() -> None:
    key = "tasks:package.json"
    old = _fact(key, "Tasks `package.json` defines: `npm test` (runs `jest`).", ("tasks",), "e1")
    new = _fact(key, "Tasks `package.json` defines: `npm test` (runs `vitest run`).", (), "e2")

    [merged] = merge_candidates([old, new])

    assert merged.content == new.content


def _style(key: str, content: str, event: str) -> MemoryCandidate:
    return MemoryCandidate(MemoryType.USER_STYLE, key, content, (), 0.6, (), None, (event,))


def test_a_later_instruction_that_takes_an_earlier_one_back_leaves_only_itself() -> None:
    earlier = _style("pref:indent-2", "Always indent Lua with 2 spaces in this repo.", "e1")
    other = _style("pref:tests", "Run busted before every commit.", "e2")
    later = _style("pref:indent-4", "From now on always indent Lua with 4 spaces, not 2.", "e3")

    merged = merge_candidates([earlier, other, later])

    assert [c.key for c in merged] == ["pref:tests", "pref:indent-4"]


def test_the_same_statement_with_a_newer_version_wins_the_batch() -> None:
    old = _fact("language", "Python project (pyproject.toml: Python >=3.10).", (), "e1")
    new = _fact("language", "Python project (pyproject.toml: Python >=3.12).", (), "e2")

    [merged] = merge_candidates([old, new])

    assert merged.content == new.content


def test_a_stored_instruction_taken_back_is_deleted_and_replaced() -> None:
    stored = MemoryItem(
        id="mem_indent",
        project_id="/repo",
        user_id="dev",
        scope=Scope.PROJECT,
        type=MemoryType.USER_STYLE,
        key="pref:indent-2",
        content="Always indent Lua with 2 spaces in this repo.",
        tags=(),
        importance=0.8,
        created_at=T0,
        updated_at=T0,
        source=MemorySource.RULES,
    )
    later = _style("pref:indent-4", "From now on always indent Lua with 4 spaces, not 2.", "e3")
    added = UpdateDecision(UpdateAction.ADD_NEW, later)

    decision = _taking_back(added, [stored])

    assert decision.action is UpdateAction.DELETE_AND_ADD
    assert decision.target_id == "mem_indent"
    manual = _taking_back(added, [replace(stored, source=MemorySource.MANUAL)])
    assert manual.action is UpdateAction.ADD_NEW
