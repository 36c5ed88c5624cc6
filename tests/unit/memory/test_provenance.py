"""Only stores this home made are opened: markers, foreign folders set aside, tracked ones left."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from squirrel_core.errors import FailedPreconditionError
from squirrel_core.home import HomeLayout
from squirrel_core.store_placement import (
    MARKER_NAME,
    Location,
    ctx_is_tracked,
    inspect_store,
    keep_out_of_git,
    place_store,
)
from squirrel_memory.bootstrap import init_project_files


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@pytest.fixture
def layout(tmp_path: Path) -> HomeLayout:
    return HomeLayout(tmp_path / "home").ensure()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = (tmp_path / "repo").resolve()
    path.mkdir()
    git(path, "init", "-q")
    (path / "README.md").write_text("# r\n")
    git(path, "add", "README.md")
    git(path, "commit", "-qm", "first")
    return path


def place(layout: HomeLayout, root: Path, *, before: bool = False, where: str = "repo") -> Path:
    placed = place_store(layout, str(root), location=Location(where), registered_before=before)
    init_project_files(root, placed.store_dir)
    return placed.store_dir


def test_a_fresh_store_is_marked_trusted_and_kept_out_of_git(
    layout: HomeLayout, repo: Path
) -> None:
    store = place(layout, repo)
    assert store == repo / ".ctx"
    assert (store / MARKER_NAME).stat().st_mode & 0o777 == 0o600
    assert layout.store_key.stat().st_mode & 0o777 == 0o600
    assert inspect_store(layout, str(repo)).trusted
    assert git(repo, "status", "--porcelain") == ""
    exclude = (repo / ".git" / "info" / "exclude").read_text()
    assert ".ctx/" in exclude.splitlines()
    again = place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    assert again.store_dir == store and again.notice is None
    keep_out_of_git(repo)
    assert (repo / ".git" / "info" / "exclude").read_text() == exclude


def test_a_linked_worktree_uses_the_common_exclude_file(layout: HomeLayout, repo: Path) -> None:
    tree = repo.parent / "tree"
    git(repo, "worktree", "add", "-q", str(tree))
    store = place(layout, tree.resolve())
    assert ".ctx/" in (repo / ".git" / "info" / "exclude").read_text().splitlines()
    assert store.is_dir() and git(tree, "status", "--porcelain") == ""


def test_a_store_copied_from_another_project_is_moved_aside(
    layout: HomeLayout, repo: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    shutil.copytree(place(layout, other), repo / ".ctx")
    planted = (repo / ".ctx" / "data.db").read_bytes()
    placed = place_store(layout, str(repo), location=Location.REPO, registered_before=False)
    [aside] = repo.glob(".ctx.foreign-*")
    assert (aside / "data.db").read_bytes() == planted
    assert placed.notice is not None and str(aside) in placed.notice
    assert "another project" in placed.notice
    assert not (repo / ".ctx" / "data.db").exists()
    assert inspect_store(layout, str(repo)).notice == placed.notice
    shutil.rmtree(aside)
    assert inspect_store(layout, str(repo)).notice is None


def test_the_set_aside_notice_says_that_deleting_the_folder_ends_it(
    layout: HomeLayout, repo: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    shutil.copytree(place(layout, other), repo / ".ctx")
    placed = place_store(layout, str(repo), location=Location.REPO, registered_before=False)
    [aside] = repo.glob(".ctx.foreign-*")
    assert placed.notice is not None and len(placed.notice.splitlines()) == 1
    assert placed.notice.endswith(f"delete {aside} to end this notice")
    again = place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    assert again.notice == placed.notice
    shutil.rmtree(aside)
    assert (
        place_store(layout, str(repo), location=Location.REPO, registered_before=True).notice
        is None
    )


def test_a_store_of_another_home_is_moved_aside(
    layout: HomeLayout, repo: Path, tmp_path: Path
) -> None:
    place(HomeLayout(tmp_path / "other-home").ensure(), repo)
    placed = place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    assert placed.notice is not None and len(list(repo.glob(".ctx.foreign-*"))) == 1


def test_a_tracked_store_is_left_untouched_and_the_store_lives_in_the_home(
    layout: HomeLayout, repo: Path, tmp_path: Path
) -> None:
    init_project_files(repo)
    git(repo, "add", "-f", ".ctx")
    git(repo, "commit", "-qm", "ship a store")
    assert ctx_is_tracked(repo)
    tracked = (repo / ".ctx" / "data.db").read_bytes()
    placed = place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    assert placed.location is Location.HOME
    assert placed.store_dir.is_relative_to(layout.project_stores)
    assert placed.notice is not None and "tracked by git" in placed.notice
    assert (repo / ".ctx" / "data.db").read_bytes() == tracked
    assert not list(repo.glob(".ctx.foreign-*"))
    assert git(repo, "status", "--porcelain") == ""
    state = inspect_store(layout, str(repo))
    assert state.store_dir == placed.store_dir and "tracked by git" in (state.notice or "")


def test_a_store_made_before_markers_is_adopted_only_when_registered_before(
    layout: HomeLayout, repo: Path, tmp_path: Path
) -> None:
    init_project_files(repo)
    assert inspect_store(layout, str(repo)).trusted
    kept = (repo / ".ctx" / "data.db").read_bytes()
    placed = place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    assert placed.notice is None and (repo / ".ctx" / "data.db").read_bytes() == kept
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    init_project_files(fresh)
    placed = place_store(layout, str(fresh), location=Location.REPO, registered_before=False)
    assert placed.notice is not None and list(fresh.glob(".ctx.foreign-*"))


def test_once_recorded_a_marker_less_store_is_foreign(layout: HomeLayout, repo: Path) -> None:
    store = place(layout, repo)
    (store / MARKER_NAME).unlink()
    assert not inspect_store(layout, str(repo)).trusted
    placed = place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    assert placed.notice is not None and list(repo.glob(".ctx.foreign-*"))


@pytest.mark.parametrize(
    "marker",
    [b"", b"{not json", b"[]", json.dumps({"store_id": 1, "mac": None}).encode(), b"x" * 200_000],
)
def test_a_malformed_marker_is_foreign(layout: HomeLayout, repo: Path, marker: bytes) -> None:
    store = place(layout, repo)
    (store / MARKER_NAME).write_bytes(marker)
    placed = place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    assert placed.notice is not None


def test_a_symlinked_ctx_is_moved_aside_without_touching_its_target(
    layout: HomeLayout, repo: Path, tmp_path: Path
) -> None:
    target = tmp_path / "secrets"
    target.mkdir()
    (target / "id_rsa").write_text("key")
    (repo / ".ctx").symlink_to(target)
    placed = place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    [aside] = repo.glob(".ctx.foreign-*")
    assert aside.is_symlink() and (target / "id_rsa").read_text() == "key"
    assert placed.store_dir.is_dir() and not placed.store_dir.is_symlink()


def test_the_home_location_writes_nothing_in_the_repository(layout: HomeLayout, repo: Path) -> None:
    store = place(layout, repo, where="home")
    assert store.is_relative_to(layout.project_stores)
    assert not (repo / ".ctx").exists()
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    assert inspect_store(layout, str(repo)).trusted
    later = place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    assert later.store_dir == store


def test_a_lost_key_sets_nothing_aside(layout: HomeLayout, repo: Path) -> None:
    store = place(layout, repo)
    layout.store_key.unlink()
    with pytest.raises(FailedPreconditionError):
        place_store(layout, str(repo), location=Location.REPO, registered_before=True)
    assert (store / "data.db").is_file() and not list(repo.glob(".ctx.foreign-*"))


def test_a_project_outside_git_gets_a_store_without_exclude(
    layout: HomeLayout, tmp_path: Path
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert place(layout, plain) == plain / ".ctx"
    assert keep_out_of_git(plain) is None
