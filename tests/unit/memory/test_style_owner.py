"""Whose an extracted style is: on a team server the episode's user's, a finding about the
project kept to it; on a laptop, the scopes the extractor gave."""

from __future__ import annotations

from pathlib import Path

from squirrel_memory.models import MemoryCandidate, MemoryType, Scope, UpdateAction, UpdateDecision
from squirrel_memory.style_scope import merge_global_style
from squirrel_memory.user_memories.style_owner import (
    PROJECT_ONLY_TAG,
    owned_styles,
    project_only,
)
from squirrel_memory.user_memories.userstore import SqliteUserStore

HERE = MemoryCandidate(
    MemoryType.USER_STYLE,
    "pref:directly_controller",
    "Never call Repo directly from controllers in this repo.",
    ("preference", "standing"),
    0.7,
    scope=Scope.PROJECT,
)
ANYWHERE = MemoryCandidate(
    MemoryType.USER_STYLE,
    "pref:wrap_error",
    "Always wrap errors.",
    ("preference", "standing"),
    0.7,
    scope=Scope.USER,
)
FACT = MemoryCandidate(MemoryType.PROJECT_FACT, "fact:layout", "The footer is in layout.", (), 0.6)
PITFALL = MemoryCandidate(MemoryType.PITFALL, "pitfall:x", "`make` fails without X.", (), 0.6)


def test_a_team_users_project_style_becomes_theirs_and_stays_the_projects() -> None:
    (here,) = owned_styles([HERE], "alice")

    assert here.scope is Scope.USER
    assert here.tags == ("preference", "standing", PROJECT_ONLY_TAG)
    assert (here.type, here.key, here.content, here.importance) == (
        HERE.type,
        HERE.key,
        HERE.content,
        HERE.importance,
    )
    assert project_only(here)


def test_a_user_wide_style_facts_and_pitfalls_are_left_as_they_are() -> None:
    assert owned_styles([ANYWHERE, FACT, PITFALL], "alice") == [ANYWHERE, FACT, PITFALL]
    assert not project_only(ANYWHERE)


def test_on_a_laptop_nothing_changes() -> None:
    assert owned_styles([HERE, ANYWHERE, FACT], None) == [HERE, ANYWHERE, FACT]


def test_owning_twice_marks_once() -> None:
    once = owned_styles([HERE], "alice")

    assert owned_styles(once, "alice") == once


async def test_a_team_users_project_style_never_refines_their_global_style(
    tmp_path: Path,
) -> None:
    users = await SqliteUserStore.open(tmp_path / "home")
    try:
        decisions = [
            UpdateDecision(UpdateAction.ADD_NEW, c) for c in owned_styles([HERE, ANYWHERE], "al")
        ]
        await merge_global_style(users, decisions, "al", "/p")

        assert [i.key for i in await users.list_user_style("al")] == [ANYWHERE.key]
    finally:
        await users.close()
