from __future__ import annotations

import os
from pathlib import Path

import pytest

from squirrel_core.errors import (
    FailedPreconditionError,
    InvalidArgumentError,
    PermissionDeniedError,
)
from squirrel_core.projects import (
    add_project,
    canonical_root,
    checked_path,
    owning_project,
    read_projects,
    require_project,
    shown_path,
)
from tests.gitrepos import git, make_repo


def test_registration_is_idempotent(tmp_path: Path) -> None:
    registry = tmp_path / "projects.json"
    assert add_project(registry, tmp_path / "a") is True
    assert add_project(registry, tmp_path / "a") is False
    assert read_projects(registry) == [str(tmp_path / "a")]
    assert registry.stat().st_mode & 0o777 == 0o600


def test_deepest_registered_root_owns_a_path(tmp_path: Path) -> None:
    outer = tmp_path / "mono"
    inner = outer / "packages" / "api"
    inner.mkdir(parents=True)
    roots = [str(outer.resolve()), str(inner.resolve())]
    assert owning_project(inner / "src" / "x.py", roots) == str(inner.resolve())
    assert owning_project(outer / "README.md", roots) == str(outer.resolve())
    assert owning_project(tmp_path / "elsewhere", roots) is None


def test_symlinks_resolve_to_the_registered_root(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert owning_project(link / "f.py", [str(real.resolve())]) == str(real.resolve())


def test_traversal_out_of_a_project_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    with pytest.raises(PermissionDeniedError):
        require_project(str(root / ".." / ".." / "etc"), [str(root.resolve())])


@pytest.mark.parametrize("bad", ["", "   ", "a\x00b"])
def test_empty_and_nul_paths_are_invalid(bad: str) -> None:
    with pytest.raises((InvalidArgumentError, PermissionDeniedError)):
        require_project(bad, ["/x"])


def test_corrupt_registry_is_a_clear_error_of_the_homes_state(tmp_path: Path) -> None:
    registry = tmp_path / "projects.json"
    registry.write_text("{not json")
    with pytest.raises(FailedPreconditionError, match=r"projects\.json"):
        read_projects(registry)


@pytest.mark.parametrize("name", ["a\nb", "a\tb", "bell\x07", "del\x7f", "c1\x85", "cr\r"])
def test_a_path_with_a_control_character_names_no_project(tmp_path: Path, name: str) -> None:
    folder = tmp_path / name
    folder.mkdir()
    with pytest.raises(InvalidArgumentError):
        canonical_root(folder)
    assert owning_project(folder, [str(folder.resolve())]) is None
    with pytest.raises(InvalidArgumentError, match="control characters") as refused:
        require_project(folder, [])
    assert "\n" not in str(refused.value) and "\r" not in str(refused.value)


def test_a_folder_named_in_another_encoding_inside_a_project_says_so(tmp_path: Path) -> None:
    """A command run in `caf\\xe9/` inside a registered project was told no project is
    registered there and to run `sqrl init`, which refuses the folder: it is told why."""
    root = tmp_path / "p"
    root.mkdir()
    folder = Path(os.fsdecode(os.fsencode(root) + b"/caf\xe9"))
    folder.mkdir()
    with pytest.raises(InvalidArgumentError, match=r"caf\\xe9 is not UTF-8"):
        require_project(folder, [str(root.resolve())])


def test_a_loop_of_links_or_an_unknown_users_home_is_refused_saying_so(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to("loop")
    for given in (loop, loop / "sub"):
        with pytest.raises(InvalidArgumentError, match="loop of symbolic links"):
            canonical_root(given)
        with pytest.raises(InvalidArgumentError, match="loop of symbolic links"):
            require_project(given, [str(tmp_path.resolve())])
        assert owning_project(given, [str(tmp_path.resolve())]) is None
    with pytest.raises(InvalidArgumentError, match="home folder this machine does not know"):
        canonical_root("~no-such-user-here/app")


@pytest.mark.parametrize("text", ["", " ", "\t"])
def test_an_empty_path_names_no_project(text: str) -> None:
    with pytest.raises(InvalidArgumentError):
        checked_path(text)


def test_a_printable_name_in_any_script_is_a_project_path(tmp_path: Path) -> None:
    folder = tmp_path / "café 项目 – v2"
    folder.mkdir()
    assert canonical_root(folder) == folder.resolve()
    assert shown_path("a\nb\x07") == "a\\nb\\x07"


def test_a_path_in_a_linked_worktree_belongs_to_the_registered_repository(
    tmp_path: Path,
) -> None:
    """A real `git worktree add` outside the repository: the repository's project (and, for a
    registered package of a monorepo, that package's); a clone or another repository's
    worktree is not."""
    repo = make_repo(tmp_path / "shop")
    (repo / "packages" / "api").mkdir(parents=True)
    feature = tmp_path / "shop-feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(feature))
    clone = tmp_path / "shop-clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    other = make_repo(tmp_path / "billing")
    other_wt = tmp_path / "billing-wt"
    git(other, "worktree", "add", "-q", "-b", "wt", str(other_wt))
    root, package = str(repo), str(repo / "packages" / "api")

    assert owning_project(feature / "src" / "cart.py", [root]) == root
    assert owning_project(feature, [root, package]) == root
    assert owning_project(feature / "packages" / "api" / "main.go", [root, package]) == package
    assert owning_project(clone / "src" / "cart.py", [root]) is None  # another repository
    assert owning_project(other_wt / "Cargo.toml", [root]) is None
    assert owning_project(other_wt / "Cargo.toml", [root, str(other)]) == str(other)
