"""What the project is when nothing in a session describes it: the folder's name and the
language a root manifest gives, in every ecosystem, and where it must not be said."""

from __future__ import annotations

from datetime import timedelta

import pytest

from squirrel_memory.extractors.named_stack import project_folder_name
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import T0, _extract, _said

#: (ecosystem, root manifest and its text, two code files, the language stated)
ECOSYSTEMS = [
    ("rust", "Cargo.toml", '[package]\nname = "tally"\n', ("src/main.rs", "src/lib.rs"), "Rust"),
    (
        "elixir",
        "mix.exs",
        "defmodule Tally.MixProject do\nend\n",
        ("lib/a.ex", "lib/b.ex"),
        "Elixir",
    ),
    ("go", "go.mod", "module example.com/tally\n\ngo 1.22\n", ("main.go", "cli.go"), "Go"),
    ("python", "requirements.txt", "click\n", ("tally/a.py", "tally/b.py"), "Python"),
]
IDS = [e[0] for e in ECOSYSTEMS]


def _session(root: str, manifest: str, text: str, files: tuple[str, ...]) -> Session:
    session = Session(root, "s1", T0 + timedelta(days=1))
    session.user("Fix the rounding in the totals.")
    session.read(manifest, text)
    for path in files:
        session.read(path, "x = 1\n")
    return session


def _about(found: list) -> list[str]:
    return _said(found, "about")


@pytest.mark.parametrize(("eco", "manifest", "text", "files", "language"), ECOSYSTEMS, ids=IDS)
async def test_nothing_described_the_project_so_its_name_and_language_say_what_it_is(
    eco: str, manifest: str, text: str, files: tuple[str, ...], language: str
) -> None:
    session = _session("/home/dev/tally", manifest, text, files)

    assert _about(await _extract(session)) == [
        f"The project `tally` (its folder's name) is written in {language} (`{manifest}` at"
        " its root)."
    ]


@pytest.mark.parametrize(("eco", "manifest", "text", "files", "language"), ECOSYSTEMS, ids=IDS)
async def test_the_user_s_own_words_say_more_and_win(
    eco: str, manifest: str, text: str, files: tuple[str, ...], language: str
) -> None:
    session = _session("/home/dev/tally", manifest, text, files)
    session.user("This repo is a CLI tool that reconciles bank exports.")

    said = _about(await _extract(session))
    assert said and not any("folder's name" in line for line in said)


async def test_a_readme_read_says_what_the_project_is_instead() -> None:
    session = _session("/home/dev/tally", "Cargo.toml", '[package]\nname = "tally"\n', ())
    session.read("README.md", "# Tally\n\nTally reconciles bank exports with a ledger.\n")

    said = _about(await _extract(session))
    assert said and not any("folder's name" in line for line in said)


async def test_files_counted_without_a_root_manifest_give_no_overview() -> None:
    session = Session("/home/dev/tally", "s1", T0 + timedelta(days=1))
    session.user("Fix the rounding in the totals.")
    for path in ("src/a.rs", "src/b.rs", "src/c.rs"):
        session.read(path, "fn main() {}\n")

    found = await _extract(session)
    assert _said(found, "language")  # a count of files seen …
    assert _about(found) == []  # … is no statement of what the whole project is


@pytest.mark.parametrize("root", ["/home/dev/src", "/home/dev/app", "/tmp/3f9a2c1b", "/w/ab"])
async def test_a_folder_whose_name_says_nothing_gives_no_overview(root: str) -> None:
    session = _session(root, "Cargo.toml", '[package]\nname = "tally"\n', ("a.rs", "b.rs"))

    assert _about(await _extract(session)) == []


def test_the_folder_name_is_the_last_part_of_the_root_on_every_system() -> None:
    assert project_folder_name("/home/dev/tally") == "tally"
    assert project_folder_name("C:\\Users\\dev\\care_fe") == "care_fe"
    assert project_folder_name("/home/dev/workspace/") is None
    assert project_folder_name("/home/dev/deadbeef") is None


def _listed(session: Session, files: list[str]) -> None:
    session.run("git ls-files", 0, "\n".join(files) + "\n")


@pytest.mark.parametrize(
    ("files", "said"),
    [
        (
            ["api/main.go", "api/store.go", "worker/jobs.py", "worker/queue.py"],
            "has Go code in `api/` and Python code in `worker/`",
        ),
        (
            ["apps/core/lib/a.ex", "apps/core/lib/b.ex", "native/src/a.rs", "native/src/b.rs"],
            "has Elixir code in `apps/core/` and Rust code in `native/`",
        ),
    ],
)
async def test_two_languages_each_in_a_folder_of_its_own_say_where_each_part_is(
    files: list[str], said: str
) -> None:
    session = Session("/home/dev/shop", "s1", T0 + timedelta(days=1))
    session.user("Look at the checkout flow.")
    _listed(session, files)

    assert _about(await _extract(session)) == [
        f"The project `shop` (its folder's name) {said}, going by the files its sessions showed."
    ]


@pytest.mark.parametrize(
    "files",
    [
        ["src/a.rs", "src/b.rs", "src/c.rs"],  # one language: no parts
        ["api/a.go", "api/b.go", "jobs/a.py", "jobs/b.py", "cli/c.go", "cli/d.go"],  # Go in two
        ["src/a.go", "src/b.go", "src/c.py", "src/d.py"],  # both in one folder
        ["a.go", "b.go", "jobs/a.py", "jobs/b.py"],  # Go at the root: no folder of its own
    ],
)
async def test_code_spread_over_folders_or_sharing_one_gives_no_parts(files: list[str]) -> None:
    session = Session("/home/dev/shop", "s1", T0 + timedelta(days=1))
    session.user("Look at the checkout flow.")
    _listed(session, files)

    assert _about(await _extract(session)) == []


@pytest.mark.parametrize(
    ("manifest", "text", "files", "folder"),
    [
        ("Cargo.toml", '[package]\nname = "tally"\n', ["src/cli/mod.rs", "src/git.rs"], "src/cli"),
        (
            "go.mod",
            "module example.com/tally\n",
            ["cmd/tally/cli/root.go", "main.go"],
            "cmd/tally/cli",
        ),
        ("package.json", '{"name": "tally"}\n', ["packages/cli/src/index.ts"], "packages/cli"),
        ("pyproject.toml", '[project]\nname = "tally"\n', ["cli/main.py", "cli/run.py"], "cli"),
    ],
    ids=["rust", "go", "typescript", "python"],
)
async def test_a_cli_folder_whose_code_the_session_read_says_where_the_interface_is(
    manifest: str, text: str, files: list[str], folder: str
) -> None:
    session = _session("/home/dev/tally", manifest, text, ())
    _listed(session, files)

    [said] = _about(await _extract(session))
    assert said.endswith(
        f"(`{manifest}` at its root), with its command-line interface in `{folder}/`."
    )


@pytest.mark.parametrize(
    "files",
    [
        ["docs/cli/commands.js", "src/main.rs"],  # the documentation of the interface
        ["e2e/cli/test_login.rs", "tests/cli/run.rs"],  # its tests
        ["src/cli/README.md", "src/cli/usage.txt"],  # no code file in it
        ["node_modules/cli/index.js"],  # a dependency's folder
        ["server/cli/a.rs", "worker/cli/b.rs"],  # two unrelated ones: which is not known
    ],
)
async def test_no_cli_folder_is_said_without_the_projects_own_code_in_one(files: list[str]) -> None:
    session = _session("/home/dev/tally", "Cargo.toml", '[package]\nname = "tally"\n', ())
    _listed(session, files)

    [said] = _about(await _extract(session))
    assert "command-line" not in said


@pytest.mark.parametrize(
    ("files", "folder", "language"),
    [
        (["src/cli/mod.rs", "src/cli/run.rs", "src/git.rs"], "src/cli", "Rust"),
        (["cmd/tally/cli/root.go", "cmd/tally/main.go", "store.go"], "cmd/tally/cli", "Go"),
        (["cli/main.py", "cli/run.py", "tally/core.py"], "cli", "Python"),
    ],
    ids=["rust", "go", "python"],
)
async def test_counted_code_of_one_language_with_a_cli_folder_says_where_the_interface_is(
    files: list[str], folder: str, language: str
) -> None:
    session = Session("/home/dev/tally", "s1", T0 + timedelta(days=1))
    session.user("Fix the rounding in the totals.")
    _listed(session, files)

    assert _about(await _extract(session)) == [
        f"The project `tally` (its folder's name) has its command-line interface in `{folder}/`,"
        f" written in {language}, going by the files its sessions showed."
    ]


@pytest.mark.parametrize(
    "files",
    [
        ["src/a.rs", "src/b.rs", "src/c.rs"],  # no cli folder
        ["src/cli/a.rs", "src/cli/b.rs", "tools/x.py", "tools/y.py"],  # two languages counted
        ["docs/cli/a.rs", "src/b.rs", "src/c.rs"],  # the interface's documentation
    ],
)
async def test_counted_code_gives_no_cli_overview_without_one_language_in_its_own_cli_folder(
    files: list[str],
) -> None:
    session = Session("/home/dev/tally", "s1", T0 + timedelta(days=1))
    session.user("Fix the rounding in the totals.")
    _listed(session, files)

    assert _about(await _extract(session)) == []
