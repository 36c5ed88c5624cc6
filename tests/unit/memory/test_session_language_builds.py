"""A one-session language fact names the build system a passing build went through (`vite`,
`gradle`, `cmake`); a language's own toolchain, a package manager's script, a task runner and a
failed build name none."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/planner"


def _language(path: str, command: str, status: int = 0) -> list[str]:
    session = Session(ROOT, "s1", T0)
    session.user("Fix the total and check it still builds.")
    session.read(path, "old\n")
    session.edit_lines(path, "old", "new")
    session.run(command, status, "built in 4.19s\n" if status == 0 else "error: failed\n")
    session.say("Done.")
    return [c.content for c in session.extracted() if c.key == "language"]


@pytest.mark.parametrize(
    ("path", "command", "said"),
    [
        ("src/App.jsx", "npx vite build", "JavaScript project, built with `vite`."),
        ("app/src/main/java/Books.java", "./gradlew build", "Java project, built with `gradle`."),
    ],
)
def test_a_passing_build_through_a_build_system_is_named(
    path: str, command: str, said: str
) -> None:
    assert _language(path, command) == [said]


@pytest.mark.parametrize(
    ("path", "command", "language"),
    [
        ("cmd/books.go", "go build ./...", "Go"),  # the language's own toolchain
        ("src/App.jsx", "npm run build", "JavaScript"),  # a script: no build system named
        ("src/lib.rs", "cargo build", "Rust"),
    ],
)
def test_a_toolchain_or_a_script_names_no_build_system(
    path: str, command: str, language: str
) -> None:
    assert _language(path, command) == [f"{language} project."]


def test_a_failed_build_names_no_build_system() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Fix the total and check it still builds.")
    session.read("src/App.jsx", "old\n")
    session.edit_lines("src/App.jsx", "old", "new")
    session.run("npx vite build", 1, "error: failed\n")
    session.run("npm run lint", 0, "ok\n")
    session.say("The build fails on an unrelated file.")
    languages = [c.content for c in session.extracted() if c.key == "language"]
    assert languages == ["JavaScript project."]
