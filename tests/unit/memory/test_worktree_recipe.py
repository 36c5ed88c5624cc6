"""Starting new work in a git worktree: a recipe when the runs repeat one layout, and nothing
from a single worktree, scattered folders or one machine's absolute paths."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.evidence import Attempt, attempts
from squirrel_memory.extractors.worktrees import worktree_recipe

ROOT = "/home/dev/lab/main"
T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _found(*commands: str, ok: bool = True, sessions: bool = False) -> list[Attempt]:
    """Attempts of `commands`, each in its own session when `sessions`, else in one."""
    runs = [
        CommandRun(f"e{n}", T0 + timedelta(hours=n), c, ok, "", session_id=f"s{n * sessions}")
        for n, c in enumerate(commands)
    ]
    return attempts(runs, ROOT)


def test_repeated_worktrees_in_one_folder_make_a_recipe() -> None:
    found = _found(
        "git worktree add ../trees/cache-bench -b exp/cache-bench",
        "git status",
        "git worktree add -b exp/retry-policy ../trees/retry-policy main",
        sessions=True,
    )

    recipe = worktree_recipe(found, ROOT)

    assert recipe is not None
    assert recipe.key == "recipe:worktree"
    assert recipe.content == (
        "New work gets its own git worktree: `git worktree add ../trees/<name> -b exp/<name>` "
        "(done 2 times in 2 sessions)."
    )
    assert recipe.event_ids == ("e0", "e2")


def test_absolute_paths_beside_the_project_are_shown_relative() -> None:
    found = _found(
        "git worktree add /home/dev/lab/wt/a -b a", "git worktree add /home/dev/lab/wt/b -b b"
    )

    recipe = worktree_recipe(found, ROOT)

    assert recipe is not None
    assert "`git worktree add ../wt/<name> -b <name>`" in recipe.content


@pytest.mark.parametrize(
    "commands",
    [
        # One worktree.
        ("git worktree add ../trees/a -b exp/a",),
        # The same worktree twice.
        ("git worktree add ../trees/a -b exp/a", "git worktree add ../trees/a -b exp/a"),
        # Folders that share nothing.
        ("git worktree add ../a -b exp/a", "git worktree add /tmp/scratch/b -b exp/b"),
        # One machine's paths elsewhere.
        ("git worktree add /tmp/wt/a", "git worktree add /tmp/wt/b"),
        # Other worktree commands.
        ("git worktree list", "git worktree remove ../trees/a", "git worktree prune"),
    ],
)
def test_no_recipe_without_a_repeated_layout(commands: tuple[str, ...]) -> None:
    assert worktree_recipe(_found(*commands), ROOT) is None


def test_failed_runs_are_no_recipe() -> None:
    found = _found("git worktree add ../trees/a -b x/a", "git worktree add ../trees/b", ok=False)

    assert worktree_recipe(found, ROOT) is None


def test_branches_named_without_a_shared_prefix_are_shown_as_such() -> None:
    found = _found("git worktree add ../t/a -b fix-a", "git worktree add ../t/b -b feat/b")

    recipe = worktree_recipe(found, ROOT)

    assert recipe is not None
    assert "`git worktree add ../t/<name> -b <branch>`" in recipe.content


def test_worktrees_added_from_a_sub_folder_are_not_read_as_from_the_root() -> None:
    found = _found(
        "cd tools && git worktree add ../trees/a -b exp/a",
        "cd tools && git worktree add ../trees/b -b exp/b",
    )

    assert worktree_recipe(found, ROOT) is None
