"""The project's language from a root manifest `git status` showed untracked beside the
project's untracked folders: every ecosystem alike, and where it must not fire."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.untracked_root import untracked_root_language
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import ROOT, _extract, _said, _session

AT = datetime(2026, 6, 1, tzinfo=UTC)


def _status(*entries: str, header: str = "## main") -> str:
    return "\n".join([header, *entries]) + "\n"


def _language(
    output: str, command: str = "git status -sb", ok: bool = True, cwd: str | None = ROOT
) -> str | None:
    fact = untracked_root_language([CommandRun("e1", AT, command, ok, output, cwd=cwd)], ROOT)
    return fact.content if fact else None


@pytest.mark.parametrize(
    ("manifest", "language"),
    [
        ("mix.exs", "Elixir"),
        ("Cargo.toml", "Rust"),
        ("pubspec.yaml", "Dart"),
        ("Gemfile", "Ruby"),
        ("go.mod", "Go"),
        ("Package.swift", "Swift"),
    ],
)
def test_an_untracked_manifest_beside_untracked_folders_says_the_language(
    manifest: str, language: str
) -> None:
    said = _language(_status("?? .specify/", f"?? {manifest}", "?? lib/", "?? test/"))

    assert said is not None and said.startswith(f"{language} project ({manifest}; ")
    assert "2 untracked folders such as `lib/` and `test/`" in said


def test_a_package_json_alone_leaves_the_language_open() -> None:
    said = _language(_status("?? package.json", "?? src/", "?? test/"))

    assert said is not None and said.startswith("JavaScript or TypeScript project (package.json;")


@pytest.mark.parametrize(
    "entries",
    [
        # the manifest is tracked and only edited: the tracked rest is not shown
        (" M Cargo.toml", "?? src/", "?? tests/"),
        # one new folder beside it may be a side tool's
        ("?? pyproject.toml", "?? scripts/"),
        # hidden folders are tooling, not the project's body
        ("?? pyproject.toml", "?? .github/", "?? .specify/"),
        # two languages' manifests: which one is the project's is not known
        ("?? Cargo.toml", "?? package.json", "?? src/", "?? web/"),
        # a JVM build file names the ecosystem, not the language
        ("?? build.gradle.kts", "?? app/", "?? gradle/"),
        ("?? pom.xml", "?? src/", "?? docs/"),
        # a manifest in a sub-folder is a sub-package's
        ("?? docs/package.json", "?? src/", "?? lib/"),
        # no manifest at all
        ("?? notes/", "?? drafts/", "?? README.md"),
    ],
)
def test_what_says_nothing(entries: tuple[str, ...]) -> None:
    assert _language(_status(*entries)) is None


@pytest.mark.parametrize(
    ("command", "ok", "cwd"),
    [
        ("git status -sb", False, ROOT),  # failed
        ("git status -sb", None, ROOT),  # never ran
        ("git status -sb", True, f"{ROOT}/services/api"),  # a sub-folder's view
        ("git status -sb", True, "/home/dev/other"),  # another checkout
        ("git -C ../other status -sb", True, ROOT),
        ("git status -sb services/", True, ROOT),  # a pathspec: part of the tree
        ("git status", True, ROOT),  # the long form collapses nothing the same way
        ("cd web && git status -s", True, ROOT),
        ("git status -s && cat Cargo.toml", True, ROOT),
    ],
)
def test_a_status_that_is_not_of_the_whole_root_says_nothing(
    command: str, ok: bool, cwd: str
) -> None:
    output = _status("?? Cargo.toml", "?? src/", "?? tests/")

    assert _language(output, command, ok, cwd) is None


def _status_session(output: str) -> Session:
    session = _session()
    session.run("git status -sb", 0, output, cwd=ROOT)
    return session


async def test_the_session_states_it_and_names_the_project() -> None:
    found = await _extract(_status_session(_status("?? Cargo.toml", "?? src/", "?? tests/")))

    assert _said(found, "language") == [
        "Rust project (Cargo.toml; `git status` listed it untracked at the root beside 2"
        " untracked folders such as `src/` and `tests/`, no code file seen)."
    ]
    assert _said(found, "about") == [
        "The project `ledger` (its folder's name) is written in Rust (`Cargo.toml` at its root)."
    ]


async def test_code_the_session_read_wins_over_the_untracked_manifest() -> None:
    session = _status_session(_status("?? pyproject.toml", "?? tools/", "?? scripts/"))
    for name in ("main.go", "ledger.go"):
        session.read(f"cmd/{name}", "package main\n")
    found = await _extract(session)

    said = _said(found, "language")
    assert said and all("Python" not in text for text in said)


async def test_one_code_file_of_another_language_read_is_a_conflict() -> None:
    session = _status_session(_status("?? pyproject.toml", "?? tools/", "?? scripts/"))
    session.read("cmd/main.go", "package main\n")

    assert all("Python" not in text for text in _said(await _extract(session), "language"))


@pytest.mark.parametrize(
    "command",
    [
        "dotnet test",  # another ecosystem's tests
        "./gradlew test",  # the JVM's: no one language
        "cargo build",
        "cd tools && go vet ./...",  # anywhere in the project
    ],
)
def test_another_ecosystems_tool_run_is_a_conflict(command: str) -> None:
    output = _status("?? package.json", "?? scripts/", "?? tools/")
    runs = [
        CommandRun("e1", AT, "git status -s", True, output, cwd=ROOT),
        CommandRun("e2", AT, command, False, "", cwd=ROOT),
    ]

    assert untracked_root_language(runs, ROOT) is None


def test_its_own_ecosystems_tool_run_is_no_conflict() -> None:
    output = _status("?? pubspec.yaml", "?? lib/", "?? test/")
    runs = [
        CommandRun("e1", AT, "git status -s", True, output, cwd=ROOT),
        CommandRun("e2", AT, "dart test", True, "All tests passed!", cwd=ROOT),
    ]

    fact = untracked_root_language(runs, ROOT)
    assert fact is not None and fact.content.startswith("Dart project (pubspec.yaml; ")
