"""`sqrl projects --forget N|PATH`, through the real `sqrl`: the project leaves the registry and
keeps its store (registering it again opens the same one), `--delete-store` deletes only a store
this home made for it and asks first, and an unknown project is one line."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from squirrel_core.home import HomeLayout
from squirrel_core.projects import read_projects
from tests.gitrepos import make_repo

Sqrl = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def layout(sqrl_home: Path) -> HomeLayout:
    return HomeLayout(sqrl_home)


def _registered(sqrl: Sqrl, path: Path) -> Path:
    repo = make_repo(path)
    done = sqrl("init", "--no-mcp", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert (repo / ".ctx" / "data.db").is_file()
    return repo


def _stores(layout: HomeLayout) -> dict[str, object]:
    stores = json.loads(layout.stores.read_text())["stores"]
    assert isinstance(stores, dict)
    return stores


def test_forget_keeps_the_store_and_init_opens_it_again(
    tmp_path: Path, sqrl: Sqrl, layout: HomeLayout
) -> None:
    app = _registered(sqrl, tmp_path / "app")
    lib = _registered(sqrl, tmp_path / "lib")
    marker = (app / ".ctx" / "owner.json").read_bytes()

    done = sqrl("projects", "--forget", str(app))

    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1 and f"its memories stay in {app / '.ctx'}" in done.stdout
    assert read_projects(layout.projects) == [str(lib)]
    assert (app / ".ctx" / "owner.json").read_bytes() == marker  # the store is untouched
    assert str(app) in _stores(layout)  # and still this home's, for a later `sqrl init`

    again = sqrl("init", "--no-mcp", cwd=app)
    assert again.returncode == 0, again.stderr
    assert read_projects(layout.projects) == [str(lib), str(app)]
    assert (app / ".ctx" / "owner.json").read_bytes() == marker
    assert not list(app.glob(".ctx.foreign-*"))  # opened as its own, not set aside


def test_an_unknown_project_is_one_line_and_changes_nothing(
    tmp_path: Path, sqrl: Sqrl, layout: HomeLayout
) -> None:
    app = _registered(sqrl, tmp_path / "app")
    other = tmp_path / "other"
    other.mkdir()

    for word in (str(other), str(tmp_path / "never-made")):
        done = sqrl("projects", "--forget", word)
        assert done.returncode == 1
        assert done.stderr.count("\n") == 1
        assert "is not a registered project; `sqrl projects` lists them" in done.stderr
    far = sqrl("projects", "--forget", "99")
    assert far.returncode == 2 and far.stderr.count("\n") == 1
    assert sqrl("projects", "--delete-store").returncode == 2
    assert read_projects(layout.projects) == [str(app)]


def test_delete_store_asks_and_deletes_only_with_a_yes(
    tmp_path: Path, sqrl: Sqrl, layout: HomeLayout
) -> None:
    app = _registered(sqrl, tmp_path / "app")

    unasked = sqrl("projects", "--forget", str(app), "--delete-store")  # stdin is not a terminal
    assert unasked.returncode == 2 and unasked.stderr.count("\n") == 1
    assert "Add --yes to confirm; nothing was changed" in unasked.stderr
    assert f"Delete {app / '.ctx'} (0 memories" in unasked.stderr
    assert read_projects(layout.projects) == [str(app)] and (app / ".ctx").is_dir()

    done = sqrl("projects", "--forget", str(app), "--delete-store", "--yes", "--json")

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "forgotten": str(app),
        "store": str(app / ".ctx"),
        "deleted": True,
    }
    assert not (app / ".ctx").exists() and (app / "README.md").is_file()
    assert read_projects(layout.projects) == []
    assert str(app) not in _stores(layout)


def test_a_store_this_home_did_not_make_is_never_deleted(
    tmp_path: Path, sqrl: Sqrl, layout: HomeLayout
) -> None:
    app = _registered(sqrl, tmp_path / "app")
    lib = _registered(sqrl, tmp_path / "lib")
    shutil.rmtree(app / ".ctx")
    shutil.copytree(lib / ".ctx", app / ".ctx")  # another project's store, copied in

    done = sqrl("projects", "--forget", str(app), "--delete-store", "--yes")

    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "is not a store this home made for" in done.stderr
    assert "nothing was changed" in done.stderr
    assert (app / ".ctx" / "data.db").is_file()
    assert read_projects(layout.projects) == [str(app), str(lib)]


def test_a_number_from_the_list_names_a_registered_project(
    tmp_path: Path, sqrl: Sqrl, sqrl_env: dict[str, str], layout: HomeLayout
) -> None:
    claude = tmp_path / "claude"
    sqrl_env["SQRL_INGEST_CLAUDE_ROOTS"] = str(claude)
    sqrl_env["SQRL_INGEST_CODEX_ROOTS"] = str(tmp_path / "no-codex")
    sqrl_env["SQRL_INGEST_GEMINI_ROOTS"] = str(tmp_path / "no-gemini")
    sqrl_env["SQRL_INGEST_CURSOR_ROOTS"] = str(tmp_path / "no-cursor")
    app = _registered(sqrl, tmp_path / "app")
    lone = make_repo(tmp_path / "lone")
    for n, cwd in enumerate((app, lone)):
        folder = claude / f"-{n}"
        folder.mkdir(parents=True)
        record = {"type": "user", "cwd": str(cwd), "sessionId": f"s{n}", "message": {}}
        (folder / f"s{n}.jsonl").write_text(json.dumps(record) + "\n")
    rows = json.loads(sqrl("projects", "--json").stdout)["repositories"]
    roots = [r["root"] for r in rows]

    unregistered = sqrl("projects", "--forget", str(1 + roots.index(str(lone))))
    assert unregistered.returncode == 1 and "is not registered" in unregistered.stderr

    done = sqrl("projects", "--forget", str(1 + roots.index(str(app))))
    assert done.returncode == 0, done.stderr
    assert read_projects(layout.projects) == []


def test_a_number_when_no_repository_is_listed_says_none_is(
    tmp_path: Path, sqrl: Sqrl, sqrl_env: dict[str, str]
) -> None:
    """With no assistant history on the machine, `--forget 1` said "`sqrl projects` lists 1 to
    0"; it says none is listed and to give the path."""
    for source in ("CLAUDE", "CODEX", "GEMINI", "CURSOR"):
        sqrl_env[f"SQRL_INGEST_{source}_ROOTS"] = str(tmp_path / "no-history")
    for args in (("--forget", "1"), ("--register", "1")):
        done = sqrl("projects", *args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "lists none here" in done.stderr and "1 to 0" not in done.stderr
