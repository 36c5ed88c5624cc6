"""A root `package.json` alone names no language: the code files the session shows say whether
the project is written in JavaScript or TypeScript, and where none is shown both stay open;
another ecosystem's manifest still names its language."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/tally"
PACKAGE = '{\n  "name": "tally",\n  "version": "1.0.0"\n}\n'


def _language(found: list[MemoryCandidate]) -> str | None:
    return next((c.content for c in found if c.key == "language"), None)


def _session(manifest: str, text: str, found: str = "") -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("Why does the importer drop the last row?")
    session.read(manifest, text)
    if found:
        session.run("find src -type f", 0, found)
    return session


@pytest.mark.parametrize(
    ("found", "said"),
    [
        ("src/index.ts\nsrc/cli.ts\nsrc/rows.ts\n", "TypeScript project (package.json)."),
        ("src/index.js\nsrc/cli.js\nsrc/rows.mjs\n", "JavaScript project (package.json)."),
        (
            "",
            "JavaScript or TypeScript project (package.json; no code file seen says which).",
        ),
        # A tool's configuration in JavaScript is no JavaScript code of the project.
        (
            "jest.config.js\nsrc/index.ts\nsrc/cli.ts\nsrc/rows.ts\n",
            "TypeScript project (package.json).",
        ),
        (
            ".eslintrc.cjs\njest.config.js\n",
            "JavaScript or TypeScript project (package.json; no code file seen says which).",
        ),
        # A few scripts beside many TypeScript files; as many of each are both.
        (
            "scripts/a.js\nsrc/a.ts\nsrc/b.ts\nsrc/c.ts\nsrc/d.ts\nsrc/e.ts\n",
            "TypeScript project (package.json).",
        ),
        (
            "src/a.js\nsrc/b.js\nsrc/c.ts\nsrc/d.ts\n",
            "JavaScript and TypeScript project (package.json).",
        ),
        # A dependency's TypeScript is not the project's code.
        (
            "node_modules/zod/index.d.ts\nnode_modules/zod/lib/types.ts\n",
            "JavaScript or TypeScript project (package.json; no code file seen says which).",
        ),
    ],
)
def test_package_json_takes_its_language_from_the_files_shown(found: str, said: str) -> None:
    assert _language(_session("package.json", PACKAGE, found).extracted()) == said


@pytest.mark.parametrize(
    ("manifest", "text", "said"),
    [
        ("Cargo.toml", '[package]\nname = "tally"\n', "Rust project (Cargo.toml)."),
        ("pyproject.toml", '[project]\nname = "tally"\n', "Python project (pyproject.toml)."),
        ("go.mod", "module example.com/tally\n", "Go project (go.mod)."),
    ],
)
def test_a_manifest_that_names_its_language_still_does(manifest: str, text: str, said: str) -> None:
    assert _language(_session(manifest, text).extracted()) == said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            '{\n  "name": "tally",\n  "scripts": {\n    "check": "tsc --noEmit"\n  }\n}\n',
            "TypeScript project (package.json).",
        ),
        (
            '{\n  "name": "tally",\n  "exports": {\n    ".": "./src/index.ts"\n  }\n}\n',
            "TypeScript project (package.json).",
        ),
        (
            '{\n  "name": "tally",\n  "devDependencies": {\n    "typescript": "^5.6.0"\n  }\n}\n',
            "TypeScript project (package.json).",
        ),
        # Typings shipped beside JavaScript say nothing of the code's language.
        (
            '{\n  "name": "tally",\n  "main": "index.js",\n  "types": "index.d.ts"\n}\n',
            "JavaScript or TypeScript project (package.json; no code file seen says which).",
        ),
    ],
)
def test_package_json_s_own_text_may_say_typescript(text: str, said: str) -> None:
    assert _language(_session("package.json", text).extracted()) == said


def test_a_dependency_s_package_json_does_not_say_the_project_s_language() -> None:
    session = _session("package.json", PACKAGE)
    session.read(
        "node_modules/zod/package.json", '{\n  "name": "zod",\n  "scripts": {"b": "tsc"}\n}\n'
    )
    assert _language(session.extracted()) == (
        "JavaScript or TypeScript project (package.json; no code file seen says which)."
    )


def test_javascript_files_shown_outweigh_the_manifest_s_typescript_tooling() -> None:
    text = '{\n  "name": "tally",\n  "scripts": {"types": "tsc --declaration"}\n}\n'
    session = _session("package.json", text, "src/index.js\nsrc/cli.js\n")
    assert _language(session.extracted()) == "JavaScript project (package.json)."
