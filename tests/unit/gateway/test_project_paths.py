"""Project roots and scoped paths named by tool calls."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError, PermissionDeniedError
from squirrel_gateway.projects import (
    MAX_SCOPE_PATHS,
    normalise_project_root,
    normalise_scope_paths,
)
from tests.gitrepos import git, make_repo


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    return root.resolve()


def test_the_registered_root_is_its_own_project(project: Path) -> None:
    assert normalise_project_root(str(project), [str(project)]) == str(project)


def test_a_directory_inside_a_project_maps_to_its_root(project: Path) -> None:
    assert normalise_project_root(str(project / "src"), [str(project)]) == str(project)


def test_a_path_that_does_not_exist_yet_still_maps_to_its_root(project: Path) -> None:
    assert normalise_project_root(str(project / "new" / "dir"), [str(project)]) == str(project)


def test_the_deepest_registered_root_wins(project: Path) -> None:
    inner = project / "packages" / "api"
    inner.mkdir(parents=True)
    roots = [str(project), str(inner)]
    assert normalise_project_root(str(inner / "x.py"), roots) == str(inner)


def test_symlinks_are_resolved_before_matching(project: Path, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(project)
    assert normalise_project_root(str(link / "src"), [str(project)]) == str(project)


def test_a_registered_root_given_through_a_symlink_still_matches(
    project: Path, tmp_path: Path
) -> None:
    link = tmp_path / "alias"
    link.symlink_to(project)
    assert normalise_project_root(str(project), [str(link)]) == str(project)


def test_dotdot_in_an_absolute_root_is_resolved_not_trusted(project: Path) -> None:
    sneaky = f"{project}/src/../../elsewhere"
    with pytest.raises(PermissionDeniedError):
        normalise_project_root(sneaky, [str(project)])


def test_an_unregistered_path_is_refused_with_a_permission_error(tmp_path: Path) -> None:
    with pytest.raises(PermissionDeniedError):
        normalise_project_root(str(tmp_path / "other"), [str(tmp_path / "repo")])


def test_a_sibling_with_a_common_prefix_is_not_inside(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo2").mkdir()
    with pytest.raises(PermissionDeniedError):
        normalise_project_root(str(tmp_path / "repo2"), [str(tmp_path / "repo")])


def test_a_registered_root_whose_name_ends_in_a_space_is_its_own_project(tmp_path: Path) -> None:
    root = tmp_path / "my repo "
    (root / "src").mkdir(parents=True)

    assert normalise_project_root(str(root), [str(root)]) == str(root.resolve())
    assert normalise_project_root(str(root / "src"), [str(root)]) == str(root.resolve())


def test_a_trailing_space_outside_every_project_is_refused_as_unregistered(
    project: Path,
) -> None:
    with pytest.raises(PermissionDeniedError, match="whitespace"):
        normalise_project_root(f"{project} ", [str(project)])


@pytest.mark.parametrize(
    "path",
    ["", "   ", "relative/repo", ".", "~/repo", "/tmp/a\x00b", "/" + "a" * 5000, " /tmp/x"],
)
def test_malformed_roots_are_invalid_arguments(path: str, project: Path) -> None:
    with pytest.raises(InvalidArgumentError):
        normalise_project_root(path, [str(project)])


def test_non_string_root_is_an_invalid_argument(project: Path) -> None:
    with pytest.raises(InvalidArgumentError):
        normalise_project_root(42, [str(project)])  # type: ignore[arg-type]


# --- scope paths ---


def test_relative_scope_paths_are_normalised_and_deduplicated() -> None:
    got = normalise_scope_paths(["src/auth.py", "./src/auth.py", "src//api/", "tests"], "/r")
    assert got == ("src/auth.py", "src/api", "tests")


def test_absolute_scope_paths_inside_the_project_become_relative() -> None:
    assert normalise_scope_paths(["/r/src/auth.py", "/r"], "/r") == ("src/auth.py", ".")


def test_globs_are_kept() -> None:
    assert normalise_scope_paths(["routes/*.py"], "/r") == ("routes/*.py",)


def test_windows_separators_are_accepted() -> None:
    assert normalise_scope_paths(["src\\auth.py"], "/r") == ("src/auth.py",)


def test_no_scope_paths_means_the_whole_project() -> None:
    assert normalise_scope_paths(None, "/r") == ()
    assert normalise_scope_paths([], "/r") == ()


@pytest.mark.parametrize(
    "path",
    ["../secret", "src/../../etc/passwd", "..", "/etc/passwd", "/r2/x", "/r/../etc", "", "a\x00b"],
)
def test_scope_paths_outside_the_project_are_refused(path: str) -> None:
    with pytest.raises(InvalidArgumentError):
        normalise_scope_paths([path], "/r")


def test_dotdot_that_stays_inside_is_allowed() -> None:
    assert normalise_scope_paths(["src/api/../auth.py"], "/r") == ("src/auth.py",)


def test_too_many_scope_paths_are_refused() -> None:
    with pytest.raises(InvalidArgumentError):
        normalise_scope_paths([f"f{i}.py" for i in range(MAX_SCOPE_PATHS + 1)], "/r")


def test_a_host_in_a_linked_worktree_asks_for_the_registered_repository(tmp_path: Path) -> None:
    """A host whose session runs in `git worktree add ../app-fix` sends that folder as its
    project root: the registered repository answers; a clone of it is refused."""
    repo = make_repo(tmp_path / "app")
    fix = tmp_path / "app-fix"
    git(repo, "worktree", "add", "-q", "-b", "fix", str(fix))
    clone = tmp_path / "app-clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))

    assert normalise_project_root(str(fix / "lib"), [str(repo)]) == str(repo)
    with pytest.raises(PermissionDeniedError):
        normalise_project_root(str(clone), [str(repo)])
