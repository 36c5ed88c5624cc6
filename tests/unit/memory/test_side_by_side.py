"""A folder of separate programs, each with its own build file, as a listing of the root and
of the folders showed it: every ecosystem alike, with the layouts that must say nothing."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.side_by_side import side_by_side
from tests.unit.memory.test_touched_languages import _extract, _said, _session

PREFIX = "Separate programs side by side, each with its own build file (as listed in a session): "


def _listing(*paths: str) -> str:
    return "".join(f"./{path}\n" for path in paths)


@pytest.mark.parametrize(
    ("build", "other"),
    [
        ("CMakeLists.txt", "src/main.cpp"),
        ("Cargo.toml", "src/main.rs"),
        ("mix.exs", "lib/app.ex"),
        ("go.mod", "cmd/main.go"),
        ("dune-project", "bin/main.ml"),
        ("meson.build", "src/main.c"),
        ("Makefile", "src/main.c"),
    ],
)
async def test_top_folders_each_with_a_build_file_are_programs_side_by_side(
    build: str, other: str
) -> None:
    session = _session()
    listing = _listing(
        "README.md", f"books/{build}", f"books/{other}", f"ledger/{build}", f"ledger/{other}"
    )
    session.run("find . -type f", 0, listing)

    assert _said(await _extract(session), "layout:programs") == [
        f"{PREFIX}`books/` ({build}), `ledger/` ({build})."
    ]


@pytest.mark.parametrize(
    "listing",
    [
        # the root builds: a monorepo or one program with parts
        _listing("Cargo.toml", "books/Cargo.toml", "ledger/Cargo.toml"),
        _listing("CMakeLists.txt", "books/CMakeLists.txt", "ledger/CMakeLists.txt"),
        # one program only
        _listing("README.md", "books/go.mod", "books/main.go"),
        # someone else's code, build output, examples and docs are not programs
        _listing("vendor/go.mod", "build/Makefile", "examples/Cargo.toml", "docs/package.json"),
        # build files deeper down are parts, not programs side by side
        _listing("crates/books/Cargo.toml", "crates/ledger/Cargo.toml"),
    ],
)
def test_layouts_that_are_not_programs_side_by_side_say_nothing(listing: str) -> None:
    session = _session()
    session.run("find . -type f | head -50", 0, listing)

    assert side_by_side(session.events) is None


def test_without_a_listing_of_the_root_nothing_is_said() -> None:
    session = _session()
    session.run("find books ledger -maxdepth 1", 0, "books/Cargo.toml\nledger/Cargo.toml\n")

    assert side_by_side(session.events) is None


def test_a_root_listing_cut_by_a_pipe_may_hide_a_build_file_and_says_nothing() -> None:
    session = _session()
    session.run("find . -type f | head -3", 0, _listing("books/go.mod", "ledger/go.mod", "a.md"))

    assert side_by_side(session.events) is None


def test_a_whole_ls_of_the_root_beside_a_cut_find_is_enough() -> None:
    session = _session()
    listing = _listing("books/go.mod", "ledger/go.mod") + "---\nREADME.md\nbooks\nledger\n"
    session.run('find . -type f | head -50 && echo "---" && ls', 0, listing)

    found = side_by_side(session.events)

    assert found is not None and "`books/` (go.mod), `ledger/` (go.mod)" in found.content


def test_a_root_build_file_shown_by_ls_says_nothing() -> None:
    session = _session()
    session.run("find . -type f | head", 0, _listing("books/Cargo.toml", "ledger/Cargo.toml"))
    session.run("ls -la", 0, "total 8\n-rw-r--r-- 1 dev dev 61 Jun 8 05:13 Cargo.toml\n")

    assert side_by_side(session.events) is None


def test_a_root_build_file_read_says_nothing() -> None:
    session = _session()
    session.run("find . -type f | head", 0, _listing("books/go.mod", "ledger/go.mod"))
    session.read("go.work", "go 1.22\n")
    session.read("Makefile", "all:\n")

    assert side_by_side(session.events) is None
