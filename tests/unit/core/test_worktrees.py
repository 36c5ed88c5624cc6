"""Linked worktrees are read from git's own records and remembered after they are removed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path, PurePath

from squirrel_core.worktrees import (
    WorktreeMemory,
    admin_worktrees,
    branches,
    claude_worktree_root,
    current_branch,
    linked_worktrees,
    parse_porcelain,
    porcelain_worktrees,
)
from tests.gitrepos import git, make_repo


def test_both_records_list_a_linked_worktree_with_its_branch(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "app-worktrees" / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(worktree))

    expected = [(str(worktree.resolve()), "feature")]
    assert [(w.path, w.branch) for w in admin_worktrees(repo)] == expected
    assert [(w.path, w.branch) for w in porcelain_worktrees(repo)] == expected
    assert [(w.path, w.branch) for w in linked_worktrees(repo, use_git=False)] == expected


def test_a_worktree_deleted_from_disk_stays_listed_until_pruned(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "fix", str(worktree))
    subprocess.run(["rm", "-rf", str(worktree)], check=True)

    assert [w.path for w in admin_worktrees(repo)] == [str(worktree.resolve())]

    git(repo, "worktree", "prune")
    assert admin_worktrees(repo) == []


def test_branches_include_local_packed_and_remote_tracking(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    git(repo, "branch", "topic/one")
    git(repo, "branch", "packed")
    git(repo, "pack-refs", "--all")
    git(repo, "branch", "loose")
    git(repo, "update-ref", "refs/remotes/origin/from-remote", "HEAD")

    assert {"main", "topic/one", "packed", "loose", "from-remote"} <= branches(repo)
    assert current_branch(repo) == "main"


def test_a_folder_that_is_not_a_repository_has_no_worktrees_or_branches(tmp_path: Path) -> None:
    assert linked_worktrees(tmp_path) == []
    assert branches(tmp_path) == frozenset()
    assert current_branch(tmp_path) is None


def test_a_worktree_finds_the_shared_records_through_its_git_file(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(worktree))

    assert [w.path for w in admin_worktrees(worktree)] == [str(worktree.resolve())]
    assert "side" in branches(worktree)


def test_porcelain_output_is_parsed_including_detached_and_prunable() -> None:
    output = (
        "worktree /r/app\nHEAD abc\nbranch refs/heads/main\n\n"
        "worktree /r/wt-a\nHEAD def\ndetached\n\n"
        "worktree /r/wt-b\nHEAD 123\nbranch refs/heads/feat/x\nprunable gitdir file points to "
        "non-existent location\n"
    )
    listed = [(w.path.rsplit("/", 1)[-1], w.branch) for w in parse_porcelain(output)]

    assert listed == [("app", "main"), ("wt-a", None), ("wt-b", "feat/x")]


def test_claude_worktree_root_is_the_named_folder() -> None:
    path = PurePath("/r/app/.claude/worktrees/brave-fox/src/lib")

    assert claude_worktree_root(path) == PurePath("/r/app/.claude/worktrees/brave-fox")
    assert claude_worktree_root(PurePath("/r/app/.claude/worktrees")) is None
    assert claude_worktree_root(PurePath("/r/app/src")) is None


def test_memory_survives_a_restart_and_ignores_a_damaged_file(tmp_path: Path) -> None:
    file = tmp_path / "worktrees.json"
    memory = WorktreeMemory(file)

    assert memory.remember("/r/app", ["/r/wt-1", "/r/app"]) is True
    assert memory.remember("/r/app", ["/r/wt-1"]) is False
    assert WorktreeMemory(file).entries() == {"/r/wt-1": "/r/app"}
    assert file.stat().st_mode & 0o777 == 0o600

    file.write_text("{not json")
    damaged = WorktreeMemory(file)
    assert damaged.entries() == {}
    damaged.remember("/r/app", ["/r/wt-2"])
    assert json.loads(file.read_text()) == {"worktrees": {"/r/wt-2": "/r/app"}}
