"""A part of the project in another language, in a folder of its own, is scoped to that folder
in the language statement: the same rule in every ecosystem, with where it must not speak."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"


@dataclass(frozen=True)
class Eco:
    """A root manifest and a file of the main language; a folder of another language."""

    name: str
    manifest: str
    main: str
    language: str
    folder: str
    read: str
    listed: str


ECOS = [
    Eco(
        "react-native", "package.json", "src/index.ts", "Swift", "ios", "Module.swift", "View.swift"
    ),
    Eco(
        "python-rust", "pyproject.toml", "app/main.py", "Rust", "native", "src/lib.rs", "src/io.rs"
    ),
    Eco("go-web", "go.mod", "cmd/server/main.go", "TypeScript", "web", "src/app.ts", "src/api.ts"),
    Eco("elixir-js", "mix.exs", "lib/ledger.ex", "JavaScript", "assets", "js/app.js", "js/live.js"),
    Eco("flutter-kotlin", "pubspec.yaml", "lib/main.dart", "Kotlin", "android", "Main.kt", "Ui.kt"),
]


def _glob(session: Session, *paths: str) -> None:
    """A Glob call whose result lists `paths` (relative to the root)."""
    use = f"t{len(session.events)}"
    session.add("tool_call", {"tool": "Glob", "tool_use_id": use, "input": {"pattern": "**/*"}})
    listed = "\n".join(f"{ROOT}/{p}" for p in paths)
    session.add(
        "tool_result", {"tool": "Glob", "tool_use_id": use, "output": listed, "is_error": False}
    )


def _language(session: Session) -> str:
    said = [c.content for c in session.extracted() if c.key == "language"]
    assert len(said) == 1, said
    return said[0]


def _session(eco: Eco) -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("Look at how postings are booked and fix the rounding.")
    session.read(eco.manifest, "name\n")
    session.read(eco.main, "code\n")
    return session


@pytest.mark.parametrize("eco", ECOS, ids=[e.name for e in ECOS])
async def test_a_folder_of_another_language_is_named_with_its_language(eco: Eco) -> None:
    session = _session(eco)
    session.read(f"{eco.folder}/{eco.read}", "code\n")
    _glob(session, f"{eco.folder}/{eco.read}", f"{eco.folder}/{eco.listed}")

    said = _language(session)

    assert f"the `{eco.folder}/` folder holds {eco.language} code" in said
    assert f"`{eco.folder}/{eco.read}`" in said


@pytest.mark.parametrize("eco", ECOS[:2], ids=[e.name for e in ECOS[:2]])
async def test_a_language_the_statement_counts_already_is_not_said_twice(eco: Eco) -> None:
    session = _session(eco)
    session.read(f"{eco.folder}/{eco.read}", "code\n")
    session.read(f"{eco.folder}/{eco.listed}", "code\n")

    said = _language(session)

    assert said.count(eco.language) == 1
    assert "folder holds" not in said


@pytest.mark.parametrize("eco", ECOS[:2], ids=[e.name for e in ECOS[:2]])
async def test_one_file_of_another_language_says_nothing_of_it(eco: Eco) -> None:
    session = _session(eco)
    session.read(f"{eco.folder}/{eco.read}", "code\n")

    said = _language(session)

    assert "folder holds" not in said
    assert eco.language not in said


@pytest.mark.parametrize(
    "folder",
    ["examples/demo", "docs", "scripts", "vendor/dep", "node_modules/dep", "tests/fixtures/app"],
)
@pytest.mark.parametrize("eco", ECOS[:2], ids=[e.name for e in ECOS[:2]])
async def test_examples_docs_scripts_dependencies_and_test_data_are_no_part(
    eco: Eco, folder: str
) -> None:
    session = _session(eco)
    session.read(f"{folder}/{eco.read}", "code\n")
    session.read(f"{folder}/{eco.listed}", "code\n")

    assert "folder holds" not in _language(session)


async def test_a_folder_that_also_holds_the_main_language_is_no_part_of_its_own() -> None:
    session = _session(ECOS[1])  # Python at the root
    session.read("native/src/lib.rs", "code\n")
    session.read("native/src/io.rs", "code\n")
    session.read("native/bindings.py", "code\n")

    assert "folder holds" not in _language(session)


async def test_a_language_read_in_two_folders_is_not_scoped_to_one() -> None:
    session = _session(ECOS[0])  # TypeScript at the root
    session.read("ios/Module.swift", "code\n")
    session.read("ios/View.swift", "code\n")
    session.read("macos/App.swift", "code\n")

    assert "folder holds" not in _language(session)


async def test_a_listing_alone_names_no_part() -> None:
    session = _session(ECOS[0])
    _glob(session, "ios/Module.swift", "ios/View.swift")

    assert "folder holds" not in _language(session)


async def test_without_a_root_manifest_the_statement_is_left_as_counted() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Fix the rounding.")
    for name in ("a", "b", "c"):
        session.read(f"src/{name}.ts", "code\n")
    session.read("ios/Module.swift", "code\n")
    _glob(session, "ios/Module.swift", "ios/View.swift")

    assert "folder holds" not in _language(session)


async def test_in_a_monorepo_the_part_is_the_package_not_its_container() -> None:
    session = _session(ECOS[0])  # TypeScript at the root
    session.read("packages/native/src/lib.rs", "code\n")
    session.read("packages/web/src/app.ts", "code\n")
    _glob(session, "packages/native/src/lib.rs", "packages/native/src/io.rs")

    assert "the `packages/native/` folder holds Rust code" in _language(session)


async def test_a_hidden_folder_is_no_part() -> None:
    session = _session(ECOS[0])
    session.read(".github/scripts/check.py", "code\n")
    session.read(".github/scripts/report.py", "code\n")

    assert "folder holds" not in _language(session)
