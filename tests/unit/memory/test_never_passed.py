"""A documented command the session saw fail on every run is not stated as how to do its job
(`extractors/never_passed.py`, used by `doc_roles`); one that passed once still is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from session_builder import Session

from squirrel_memory.extractors.doc_roles import doc_roles
from squirrel_memory.extractors.never_passed import never_passed

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
GO_README = "# billing\n\n## Tests\n\nRun `make test`.\n"
PY_README = "# notes\n\n## Testing\n\nRun `tox -e py312` before you push.\n"


def _said(root: str, readme: str, runs: list[tuple[str, int]]) -> list[str]:
    s = Session(root, "s1", START)
    s.read("README.md", readme)
    for command, code in runs:
        s.run(command, code, "" if code == 0 else "error")
    return [r.content for r in doc_roles(s.events)]


@pytest.mark.parametrize(
    ("root", "readme", "command", "other"),
    [
        ("/home/u/billing", GO_README, "make test", "go test ./..."),
        ("/home/u/notes", PY_README, "tox -e py312", "python -m pytest"),
    ],
)
def test_a_command_that_failed_every_run_is_not_stated(
    root: str, readme: str, command: str, other: str
) -> None:
    assert _said(root, readme, [(command, 2), (command, 2), (other, 0)]) == []


@pytest.mark.parametrize(
    ("root", "readme", "command"),
    [("/home/u/billing", GO_README, "make test"), ("/home/u/notes", PY_README, "tox -e py312")],
)
def test_a_command_that_passed_once_or_never_ran_is_still_stated(
    root: str, readme: str, command: str
) -> None:
    assert any(command in said for said in _said(root, readme, [(command, 1), (command, 0)]))
    assert any(command in said for said in _said(root, readme, []))


def test_only_failed_runs_count() -> None:
    s = Session("/home/u/kit", "s1", START)
    s.run("npm test", 1, "Error: no test specified")
    s.run("node --test", 0, "# pass 3")
    assert never_passed(s.events) == {"npm test"}
