"""Records go to the deepest registered project holding their cwd; the rest are counted."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.worktrees import WorktreeMemory
from squirrel_ingest.routing import ProjectRouter, project_id_for, relocate
from tests.gitrepos import git, make_repo


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


# -- linked worktrees ---------------------------------------------------------------------------


def _event(cwd: str, paths: tuple[str, ...] = (), content: dict[str, Any] | None = None) -> Event:
    return Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=EventType.CODE_CHANGE,
        timestamp=datetime(2026, 1, 1, tzinfo=UTC),
        content=content or {},
        cwd=cwd,
        file_paths=paths,
    )


def test_a_live_linked_worktree_routes_to_its_repository(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "app-worktrees" / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(worktree))
    router = ProjectRouter([repo])

    route = router.resolve(str(worktree / "src"))

    assert route is not None
    assert (route.project_id, route.checkout) == (str(repo), str(worktree.resolve()))
    assert router.unregistered_records == 0


def test_a_worktree_added_after_start_is_found_on_the_first_miss(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    now = [0.0]
    router = ProjectRouter([repo], clock=lambda: now[0])
    worktree = tmp_path / "later"
    git(repo, "worktree", "add", "-q", "-b", "later", str(worktree))
    now[0] += 60

    assert router.route(str(worktree)) == str(repo)


def test_a_removed_worktree_seen_before_still_routes(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "gone"
    git(repo, "worktree", "add", "-q", "-b", "gone", str(worktree))
    memory_file = tmp_path / "home" / "worktrees.json"
    ProjectRouter([repo], memory=WorktreeMemory(memory_file))
    git(repo, "worktree", "remove", str(worktree))
    git(repo, "branch", "-D", "gone")

    router = ProjectRouter([repo], memory=WorktreeMemory(memory_file))

    assert router.route(str(worktree / "lib")) == str(repo)


def test_a_removed_worktree_never_seen_routes_by_its_branch(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    other = make_repo(tmp_path / "other")
    git(repo, "branch", "only-in-app")
    router = ProjectRouter([repo, other])
    gone = tmp_path / "somewhere" / "wt"

    route = router.resolve(str(gone / "src"), "only-in-app")

    assert route is not None and route.project_id == str(repo)
    assert route.checkout == str(gone / "src")
    assert router.route(str(gone / "src")) == str(repo)  # remembered without the branch too


def test_branch_fallback_refuses_ambiguous_default_and_existing_folders(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    other = make_repo(tmp_path / "other")
    git(repo, "branch", "shared")
    git(other, "branch", "shared")
    router = ProjectRouter([repo, other])
    existing = tmp_path / "a-clone"
    existing.mkdir()

    assert router.resolve(str(tmp_path / "x" / "wt"), "shared") is None  # two repositories
    assert router.resolve(str(tmp_path / "y" / "wt"), "main") is None  # main checkout's branch
    assert router.resolve(str(tmp_path / "z" / "wt"), "HEAD") is None
    assert router.resolve(str(existing), "shared") is None  # a real folder elsewhere
    narrowed = router.resolve(str(tmp_path / "app-worktrees" / "wt"), "shared")
    assert narrowed is not None and narrowed.project_id == str(repo)  # the path names it


def test_claude_code_worktrees_inside_the_repository_have_their_own_root(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    gone = repo / ".claude" / "worktrees" / "brave-fox"
    router = ProjectRouter([repo])

    route = router.resolve(str(gone / "src"))

    assert route is not None
    assert (route.project_id, route.checkout) == (str(repo), str(gone))


def test_relocate_moves_worktree_paths_onto_the_main_checkout(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "wt", str(worktree))
    link = tmp_path / "link"
    link.symlink_to(worktree)
    router = ProjectRouter([repo])
    cwd = str(link / "src")
    route = router.resolve(cwd)
    assert route is not None
    content = {
        "path": f"{link}/src/a.py",
        "input": {"file_path": f"{worktree}/b.py"},
        "command": f"cd {worktree} && ls '{worktree}/x' {worktree}-other",
        "n": 1,
    }

    moved = relocate(_event(cwd, (f"{link}/src/a.py", "/elsewhere/c.py"), content), route)

    assert moved.cwd == f"{repo}/src"
    assert moved.file_paths == (f"{repo}/src/a.py", "/elsewhere/c.py")
    assert moved.content == {
        "path": f"{repo}/src/a.py",
        "input": {"file_path": f"{repo}/b.py"},
        "command": f"cd {repo} && ls '{repo}/x' {worktree}-other",
        "n": 1,
    }
    main = router.resolve(str(repo))
    assert main is not None and relocate(_event(str(repo)), main) == _event(str(repo))


def test_relocate_redacts_again_the_strings_it_changed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "wt", str(worktree))
    route = ProjectRouter([repo]).resolve(str(worktree))
    assert route is not None
    secret = "sk-ant-api03-" + "Hy8" * 30
    content = {
        "command": f"cd {worktree} && ANTHROPIC_API_KEY={secret} make",
        "env": {"api_token": f"{worktree}/token.txt"},
        "untouched": f"{secret} (not moved: redacted before, as it was read)",
    }

    moved = relocate(_event(str(worktree), (), content), route)

    assert moved.content["command"].startswith(f"cd {repo} && ")
    assert secret not in moved.content["command"]
    assert moved.content["env"] == {"api_token": "[REDACTED:secret_assignment]"}
    assert moved.content["untouched"] == content["untouched"]


def test_registering_a_repository_uncounts_its_worktrees_backlog(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "wt", str(worktree))
    router = ProjectRouter()
    router.replace([tmp_path / "unrelated"])
    assert router.route(str(worktree)) is None
    assert router.route("/elsewhere") is None
    assert router.unregistered_records == 2

    router.replace([repo])

    assert router.unregistered_records == 1
    assert router.unregistered == {"/elsewhere": 1}
    assert router.route(str(worktree)) == str(repo)


def test_a_session_naming_another_worktree_of_the_project_works_in_the_project(
    tmp_path: Path,
) -> None:
    """`git worktree add ../app-fix` from the main checkout, then work there: the same
    repository's files and commands, not another folder's. A clone of the repository is
    another repository and keeps its paths."""
    repo = make_repo(tmp_path / "app")
    fix = tmp_path / "app-fix"
    git(repo, "worktree", "add", "-q", "-b", "fix", str(fix))
    clone = tmp_path / "app-clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    router = ProjectRouter([repo])
    main = router.resolve(str(repo))
    assert main is not None and not main.in_worktree
    content = {
        "command": f"cd {fix} && cargo test && git -C {clone} log -1",
        "input": {"file_path": f"{fix}/src/lib.rs"},
    }
    event = _event(str(repo), (f"{fix}/src/lib.rs", f"{clone}/src/lib.rs"), content)

    moved = relocate(event, main, router.checkouts(str(repo)))

    assert router.checkouts(str(repo)) == (str(fix.resolve()),)
    assert moved.file_paths == (f"{repo}/src/lib.rs", f"{clone}/src/lib.rs")
    assert moved.content == {
        "command": f"cd {repo} && cargo test && git -C {clone} log -1",
        "input": {"file_path": f"{repo}/src/lib.rs"},
    }
    # From one worktree, another worktree's paths move too.
    docs = tmp_path / "app-docs"
    git(repo, "worktree", "add", "-q", "-b", "docs", str(docs))
    router.refresh()
    in_docs = router.resolve(str(docs))
    assert in_docs is not None and in_docs.in_worktree
    across = _event(str(docs), (f"{fix}/pyproject.toml", f"{docs}/README.md"))
    moved = relocate(across, in_docs, router.checkouts(str(repo)))
    assert moved.file_paths == (f"{repo}/pyproject.toml", f"{repo}/README.md")
    assert moved.cwd == str(repo)


def test_another_repositorys_worktree_is_not_the_projects(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app")
    other = make_repo(tmp_path / "lib")
    other_wt = tmp_path / "lib-feature"
    git(other, "worktree", "add", "-q", "-b", "feature", str(other_wt))
    router = ProjectRouter([repo])
    main = router.resolve(str(repo))
    assert main is not None
    event = _event(str(repo), (f"{other_wt}/go.mod",), {"command": f"cd {other_wt} && go test"})

    assert relocate(event, main, router.checkouts(str(repo))) == event
    assert router.route(str(other_wt)) is None
