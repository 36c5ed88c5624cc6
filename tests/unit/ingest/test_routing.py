"""Records go to the deepest registered project holding their cwd; the rest are counted."""

from __future__ import annotations

from pathlib import Path

from squirrel_ingest.routing import ProjectRouter, project_id_for


def test_cwd_inside_a_project_routes_to_it(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    router = ProjectRouter([repo])

    assert router.route(str(repo / "src")) == str(repo.resolve())
    assert router.route(str(repo)) == str(repo.resolve())


def test_deepest_registered_root_wins(tmp_path: Path) -> None:
    outer = tmp_path / "mono"
    inner = outer / "packages" / "api"
    (inner / "src").mkdir(parents=True)
    router = ProjectRouter([outer, inner])

    assert router.route(str(inner / "src")) == str(inner.resolve())
    assert router.route(str(outer / "packages")) == str(outer.resolve())


def test_symlinked_cwd_routes_to_the_real_project(tmp_path: Path) -> None:
    repo = tmp_path / "real" / "repo"
    (repo / "lib").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(repo)
    router = ProjectRouter([repo])

    assert router.route(str(link / "lib")) == str(repo.resolve())


def test_symlinked_root_is_registered_by_its_real_path(tmp_path: Path) -> None:
    repo = tmp_path / "real"
    repo.mkdir()
    link = tmp_path / "alias"
    link.symlink_to(repo)
    router = ProjectRouter([link])

    assert router.project_ids == frozenset({str(repo.resolve())})
    assert router.route(str(repo)) == str(repo.resolve())


def test_sibling_with_a_common_name_prefix_is_not_inside(tmp_path: Path) -> None:
    repo = tmp_path / "app"
    repo.mkdir()
    (tmp_path / "app-old").mkdir()
    router = ProjectRouter([repo])

    assert router.route(str(tmp_path / "app-old")) is None


def test_unregistered_records_are_counted(tmp_path: Path) -> None:
    router = ProjectRouter([tmp_path / "repo"])

    assert router.route("/somewhere/else") is None
    assert router.route("/somewhere/else") is None
    assert router.route(None) is None
    assert router.route("relative/dir") is None

    assert router.unregistered_records == 3
    assert router.records_without_cwd == 1
    assert router.unregistered == {"/somewhere/else": 2, "relative/dir": 1}


def test_cwd_that_no_longer_exists_still_routes_by_its_path(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    router = ProjectRouter([repo])

    assert router.route(str(repo / "deleted" / "dir")) == str(repo.resolve())


def test_replacing_roots_changes_routing(tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    router = ProjectRouter([first])
    assert router.route(str(second)) is None

    router.replace([first, second])

    assert router.route(str(second)) == project_id_for(second)


def test_no_registered_projects_routes_nothing() -> None:
    router = ProjectRouter()

    assert router.route("/any/where") is None
    assert router.project_ids == frozenset()
