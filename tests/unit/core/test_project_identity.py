"""Project identity: every spelling of one remote is one id; credentials never survive."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from squirrel_core.project_identity import normalise_remote, project_identity


@pytest.mark.parametrize(
    "url",
    [
        "git@github.com:o/r.git",
        "git@github.com:o/r",
        "https://github.com/o/r",
        "https://github.com/o/r.git",
        "https://github.com/o/r/",
        "http://GitHub.com/O/R",
        "ssh://git@github.com/o/r.git",
        "ssh://git@github.com:22/o/r.git",
        "https://alice:ghp_secret123@github.com/o/r.git",
        "https://x-access-token:tok@github.com:443/o/r",
        "git://github.com/o/r.git",
        "github.com:o/r.git",
    ],
)
def test_every_spelling_of_a_remote_is_one_id(url: str) -> None:
    assert normalise_remote(url) == "github.com/o/r"


def test_nested_groups_keep_their_path() -> None:
    assert normalise_remote("git@gitlab.com:grp/sub/proj.git") == "gitlab.com/grp/sub/proj"
    assert normalise_remote("https://gitlab.com/grp/sub/proj") == "gitlab.com/grp/sub/proj"


@pytest.mark.parametrize(
    "url",
    ["", "   ", "/srv/git/r.git", "../r", "file:///srv/git/r.git", "https://github.com/", "a b"],
)
def test_local_or_empty_remotes_have_no_network_id(url: str) -> None:
    assert normalise_remote(url) is None


def test_credentials_never_appear_in_the_id() -> None:
    found = normalise_remote("https://bob:hunter2@example.org/team/app.git")
    assert found == "example.org/team/app"
    assert "hunter2" not in (found or "") and "bob" not in (found or "")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_clones_and_worktrees_of_a_repository_are_one_project(tmp_path: Path) -> None:
    main = tmp_path / "main"
    main.mkdir()
    _git(main, "init", "-q", "-b", "main")
    _git(
        main,
        "-c",
        "user.email=a@b",
        "-c",
        "user.name=a",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "x",
    )
    _git(main, "remote", "add", "origin", "git@github.com:acme/shop.git")
    _git(main, "worktree", "add", "-q", str(tmp_path / "wt"), "-b", "feature")
    other = tmp_path / "clone"
    other.mkdir()
    _git(other, "init", "-q")
    _git(other, "remote", "add", "origin", "https://ci:tok@github.com/acme/shop")
    ids = {project_identity(p, "m1") for p in (main, tmp_path / "wt", other)}
    assert ids == {"github.com/acme/shop"}


def test_a_repository_without_a_remote_is_its_path_on_this_machine(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    assert project_identity(tmp_path, "laptop-1") == f"local:laptop-1:{tmp_path}"
    plain = tmp_path / "not-git"
    plain.mkdir()
    assert project_identity(plain, "laptop-1") == f"local:laptop-1:{plain}"


def test_origin_wins_over_other_remotes(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "remote", "add", "aaa", "git@github.com:fork/shop.git")
    _git(tmp_path, "remote", "add", "origin", "git@github.com:acme/shop.git")
    assert project_identity(tmp_path, "m") == "github.com/acme/shop"
