"""The language version a root manifest read in a session asks for, in the language fact: the
same rule for every ecosystem, and where it must say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.manifest_versions import manifest_versions
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"


def _language(found: list[MemoryCandidate]) -> str:
    return next(c.content for c in found if c.key == "language")


@pytest.mark.parametrize(
    ("manifest", "text", "said"),
    [
        (
            "pyproject.toml",
            '[project]\nname = "ledger"\nrequires-python = ">=3.10"\n'
            'dependencies = ["beautifulsoup4>=4.9"]\n',
            "Python project (pyproject.toml: Python >=3.10).",
        ),
        (
            "package.json",
            '{"name": "ledger", "engines": {"node": ">=20"}, "dependencies": {"zod": "^3"}}\n',
            "JavaScript or TypeScript project (package.json: Node.js >=20; no code file seen says "
            "which).",
        ),
        ("go.mod", "module example.com/ledger\n\ngo 1.22\n", "Go project (go.mod: Go 1.22)."),
        (
            "Cargo.toml",
            '[package]\nname = "ledger"\nrust-version = "1.78"\n',
            "Rust project (Cargo.toml: Rust 1.78).",
        ),
        (
            "composer.json",
            '{"name": "acme/ledger", "require": {"php": "^8.2", "monolog/monolog": "^3"}}\n',
            "PHP project (composer.json: PHP ^8.2).",
        ),
        (
            "pom.xml",
            "<project><artifactId>ledger</artifactId><properties>"
            "<maven.compiler.release>17</maven.compiler.release></properties></project>\n",
            "Java project (pom.xml: Java 17).",
        ),
    ],
)
def test_a_root_manifest_read_gives_its_language_version(
    manifest: str, text: str, said: str
) -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Why does the importer drop the last row?")
    session.read(manifest, text)

    assert _language(session.extracted()) == said


def test_a_manifest_that_asks_for_no_version_is_named_alone() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("pyproject.toml", '[project]\nname = "ledger"\ndependencies = ["httpx"]\n')

    assert _language(session.extracted()) == "Python project (pyproject.toml)."


def test_a_placeholder_version_is_no_version() -> None:
    session = Session(ROOT, "s1", T0)
    pom = (
        "<project><artifactId>ledger</artifactId><properties>"
        "<maven.compiler.source>${java.version}</maven.compiler.source></properties></project>\n"
    )
    session.read("pom.xml", pom)

    assert _language(session.extracted()) == "Java project (pom.xml)."


def test_a_sub_folders_or_a_dependencys_manifest_gives_no_version() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("pyproject.toml", '[project]\nname = "ledger"\n')
    # A docs site's manifest and a vendored package's speak for other packages.
    session.read("docs/package.json", '{"name": "docs", "engines": {"node": ">=18"}}\n')
    session.read("vendor/lib/pyproject.toml", '[project]\nrequires-python = ">=3.8"\n')

    assert manifest_versions(session.events) == {}
    assert _language(session.extracted()) == "Python project (pyproject.toml)."


def test_another_repositorys_manifest_a_subagent_read_gives_no_version() -> None:
    session = Session(ROOT, "s1", T0)
    manifest = '[project]\nrequires-python = ">=3.12"\n'
    session.read_elsewhere("/home/dev/other-service/pyproject.toml", manifest)

    assert manifest_versions(session.events) == {}


def test_a_version_named_only_in_a_message_is_not_read() -> None:
    session = Session(ROOT, "s1", T0)
    session.user('Plan: add requires-python = ">=3.12" to pyproject.toml and drop 3.10.')
    session.read("pyproject.toml", '[project]\nname = "ledger"\n')

    assert _language(session.extracted()) == "Python project (pyproject.toml)."


def test_a_manifest_that_does_not_parse_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("pyproject.toml", '[project]\nrequires-python = ">=3.10\n')

    assert manifest_versions(session.events) == {}


def test_the_last_read_of_a_manifest_is_the_one_kept() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("go.mod", "module example.com/ledger\n\ngo 1.21\n")
    session.edit_lines("go.mod", "go 1.21", "go 1.22")
    session.read("go.mod", "module example.com/ledger\n\ngo 1.22\n")

    assert _language(session.extracted()) == "Go project (go.mod: Go 1.22)."
