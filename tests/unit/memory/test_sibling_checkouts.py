"""Commands run in another checkout (`cd /src/other-app && npm test`) say nothing of this
project's package manager; the same commands in a folder of the project still do."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from session_builder import Session

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _managers(root: str, commands: list[str]) -> list[str]:
    s = Session(root, "s1", START)
    s.user("Check the other app still works with this change.")
    for command in commands:
        s.run(command, 0, "ok")
    return [c.content for c in s.extracted() if "package manager" in c.content]


@pytest.mark.parametrize(
    ("root", "elsewhere"),
    [
        ("/home/u/parser-rs", "cd /home/u/web-client && npm test"),
        ("/home/u/dashboard", "cd /home/u/ml-service && uv run pytest -q"),
    ],
)
def test_a_command_in_a_sibling_checkout_names_no_package_manager(
    root: str, elsewhere: str
) -> None:
    assert _managers(root, [elsewhere, elsewhere, elsewhere]) == []


@pytest.mark.parametrize(
    ("root", "inside", "manager"),
    [
        ("/home/u/tickets", "cd packages/api && pnpm test", "pnpm"),
        ("/home/u/notes", "cd backend && uv run pytest -q", "uv"),
    ],
)
def test_the_same_command_in_a_folder_of_the_project_still_names_it(
    root: str, inside: str, manager: str
) -> None:
    (said,) = _managers(root, [inside, inside, inside])
    assert manager in said
