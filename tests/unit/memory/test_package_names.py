"""A package whose name its folder does not tell, from its manifest as a session read it: every
ecosystem alike, and where it must not be said."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.package_names import not_after_folder, package_names
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import ROOT, T0

#: (ecosystem, manifest path, its text, the package's name)
MANIFESTS = [
    (
        "rust",
        "libs/token-sdk/Cargo.toml",
        '[package]\nname = "acme-token"\nversion = "0.22.0"\ndescription = "SDK for tokens"\n',
        "acme-token",
    ),
    (
        "node",
        "packages/ui-kit/package.json",
        '{\n  "name": "@acme/design-system",\n  "version": "1.0.0"\n}\n',
        "@acme/design-system",
    ),
    (
        "python",
        "services/worker/pyproject.toml",
        '[project]\nname = "ledger_jobs"\nversion = "0.1.0"\n',
        "ledger_jobs",
    ),
    (
        "poetry",
        "libs/common/pyproject.toml",
        '[tool.poetry]\nname = "ledger-shared"\nversion = "0.1.0"\n',
        "ledger-shared",
    ),
    ("php", "modules/billing/composer.json", '{"name": "acme/invoicing"}\n', "acme/invoicing"),
    ("dart", "apps/mobile/pubspec.yaml", "name: ledger_app\nversion: 1.0.0\n", "ledger_app"),
]


def _read(*files: tuple[str, str]) -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("bump the package by a patch release")
    for path, text in files:
        session.read(path, text)
    session.say("Done.")
    return session


def _said(session: Session) -> list[MemoryCandidate]:
    return [c for c in session.extracted() if c.key.startswith("package_name:")]


@pytest.mark.parametrize(("eco", "path", "text", "name"), MANIFESTS, ids=[m[0] for m in MANIFESTS])
def test_a_package_named_unlike_its_folder_is_said_with_its_manifest(
    eco: str, path: str, text: str, name: str
) -> None:
    folder = path.rsplit("/", 1)[0]

    [found] = _said(_read((path, text)))

    assert found.content.startswith(
        f"The package in `{folder}` is named `{name}`, not after its folder (`{path}`"
    )
    assert found.file_paths == (path,)


def test_the_description_is_quoted_beside_the_source() -> None:
    [found] = _said(_read(MANIFESTS[0][1:3]))

    assert found.content.endswith('(`libs/token-sdk/Cargo.toml`; "SDK for tokens").')


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # Named after its folder, with a scope, a vendor, a prefix or `_` for `-`.
        ("packages/web/package.json", '{"name": "@acme/web"}'),
        ("crates/core/Cargo.toml", '[package]\nname = "acme-core"\n'),
        ("libs/date_utils/pyproject.toml", '[project]\nname = "date-utils"\n'),
        ("modules/billing/composer.json", '{"name": "acme/billing"}'),
        # A root manifest names the project, not one of its packages.
        ("Cargo.toml", '[package]\nname = "acme-token"\n'),
        # Examples, docs, test data and dependencies are not the project's packages.
        ("examples/hello/Cargo.toml", '[package]\nname = "demo-app"\n'),
        ("tests/fixtures/app/package.json", '{"name": "fake-pkg"}'),
        ("node_modules/left-pad/package.json", '{"name": "leftpad-fork"}'),
        # No name, or a manifest that does not parse.
        ("crates/parser/Cargo.toml", '[workspace]\nmembers = ["a"]\n'),
        ("apps/site/package.json", '{"name": "oops",'),
    ],
)
def test_what_its_folder_tells_or_is_not_a_project_package_is_not_said(
    path: str, text: str
) -> None:
    assert _said(_read((path, text))) == []


def test_a_survey_of_many_packages_names_none() -> None:
    files = [(f"crates/c{n}/Cargo.toml", f'[package]\nname = "other{n}"\n') for n in range(4)]

    assert _said(_read(*files)) == []


def test_a_part_read_from_the_middle_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.add(
        "tool_call",
        {"tool": "Read", "input": {"file_path": f"{ROOT}/libs/token-sdk/Cargo.toml"}},
        (f"{ROOT}/libs/token-sdk/Cargo.toml",),
    )
    session.add(
        "tool_result",
        {"tool": "Read", "output": '    12\tname = "acme-token"\n', "is_error": False},
        (f"{ROOT}/libs/token-sdk/Cargo.toml",),
    )

    assert package_names(session.events) == []


def test_a_name_and_a_folder_that_hold_each_other_are_after_the_folder() -> None:
    assert not not_after_folder("@acme/ledger-web", "apps/web")
    assert not not_after_folder("web", "apps/web-app")
    assert not_after_folder("acme-token", "libs/token-sdk")
