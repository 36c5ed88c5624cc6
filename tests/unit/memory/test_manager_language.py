"""The language of the code a JavaScript package manager's project worked on, said with the
package manager fact: where the files say one language, and where they must say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"
PLAIN = "Commands in this project run through {}, its package manager."


def _manager(files: list[str], commands: list[str], *, read_only: bool = False) -> str:
    session = Session(ROOT, "s1", T0)
    session.user("fix the provider arguments")
    for path in files:
        session.read(path, "const a = 1;\n")
        if not read_only:
            session.edit_lines(path, "const a = 1;", "const a = 2;")
    for command in commands:
        session.run(command, 0, "ok")
    kept = [m.content for m in session.extracted() if m.key == "package_manager"]
    assert len(kept) == 1
    return kept[0]


@pytest.mark.parametrize(
    ("manager", "commands"),
    [
        ("bun", ["bun run lint", "bun run test"]),
        ("pnpm", ["pnpm lint", "pnpm test"]),
        ("npm", ["npm run lint", "npm test"]),
        ("yarn", ["yarn lint", "yarn test"]),
    ],
)
def test_one_typescript_file_worked_on_names_the_language(
    manager: str, commands: list[str]
) -> None:
    assert _manager(["src/providers/cursor.ts"], commands) == (
        f"Commands in this project run through {manager}, its package manager; the code its "
        "sessions worked on is TypeScript (`src/providers/cursor.ts`)."
    )


def test_a_file_read_counts_as_one_changed() -> None:
    said = _manager(["src/cart.js"], ["npm test", "npm run lint"], read_only=True)
    assert said.endswith("the code its sessions worked on is JavaScript (`src/cart.js`).")


def test_typescript_wins_over_javascript_and_more_than_two_files_are_counted() -> None:
    files = ["src/a.ts", "src/b.tsx", "src/c.ts", "eslint.config.js"]
    assert _manager(files, ["pnpm test", "pnpm lint"]).endswith(
        "the code its sessions worked on is TypeScript (3 files)."
    )


@pytest.mark.parametrize(
    "files",
    [
        ["src/cart.ts", "server/app.py"],  # another language beside: the language is open
        ["README.md", "package.json", "tsconfig.json"],  # no code
        ["node_modules/left-pad/index.js"],  # a dependency's code
        ["docs/site/theme.ts"],  # a docs site's code
        ["dist/bundle.js"],  # build output
        ["scripts/release.js"],  # a script beside the project's code
        ["examples/basic/index.ts"],  # an example of the project in use
    ],
)
def test_nothing_more_is_said_without_one_language_of_the_projects_own_code(
    files: list[str],
) -> None:
    assert _manager(files, ["bun run test", "bun run lint"]) == PLAIN.format("bun")


def test_a_file_outside_the_project_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("compare with the other checkout")
    session.read_elsewhere("/home/dev/other/src/cart.ts", "const a = 1;\n")
    session.run("bun run test", 0, "ok")
    session.run("bun run lint", 0, "ok")
    kept = [m.content for m in session.extracted() if m.key == "package_manager"]
    assert kept == [PLAIN.format("bun")]


def test_a_manager_of_another_ecosystem_or_two_managers_say_nothing_more() -> None:
    assert _manager(["app/cart.py"], ["uv run pytest", "uv run ruff check ."]) == PLAIN.format("uv")
    both = _manager(["web/src/cart.ts"], ["uv run pytest", "uv sync", "pnpm test", "pnpm lint"])
    assert "worked on" not in both
