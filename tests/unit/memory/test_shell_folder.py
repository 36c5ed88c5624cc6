"""A path written from the repository root fails while the shell is still in a sub-folder."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from squirrel_memory.extractors.evidence.recipe_wording import recipe_finding
from squirrel_memory.extractors.evidence.recipes import RecipeGroup
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import StoredEvent
from tests.unit.memory.test_evidence import T0, _stream_events, pitfalls

ROOT = "/home/dev/src/app"
Run = tuple[str, int | None, str]


def _in(folder: str, runs: list[Run], session: str = "s1", day: int = 0) -> list[StoredEvent]:
    """`runs` of one session whose shell was in `folder` (an earlier `cd`)."""
    return [
        dataclasses.replace(e, content={**e.content, "cwd": folder})
        for e in _stream_events(ROOT, session, runs, start=T0 + timedelta(days=day))
    ]


RUFF: list[Run] = [
    ("ruff check app/convert.py", 1, "app/convert.py:1:1: E902 No such file or directory"),
    (f"ruff check {ROOT}/app/convert.py", 0, "All checks passed!"),
]
PYTEST: list[Run] = [
    (
        "uv run pytest tests/test_cache.py -v",
        4,
        "ERROR: file or directory not found: tests/test_cache.py",
    ),
    ("uv run pytest test_cache.py -v", 0, "3 passed"),
]


@pytest.mark.parametrize("runs", [RUFF, PYTEST], ids=["full-path", "folder-relative"])
def test_the_lesson_is_to_run_from_the_root(runs: list[Run]) -> None:
    folder = f"{ROOT}/tests" if runs is PYTEST else f"{ROOT}/docs"
    (pitfall,) = pitfalls(evidence_candidates(_in(folder, runs)))
    shown = "tests" if runs is PYTEST else "docs"
    assert pitfall.key == f"pitfall:shell-folder:{shown}"
    assert pitfall.content.startswith(
        f"Paths written from the repository root do not resolve while the shell is still in "
        f"`{shown}/` after a `cd`: run commands from the root ("
    )
    assert "fix:folder" in pitfall.tags
    assert ROOT not in pitfall.content


def test_several_such_failures_are_one_memory() -> None:
    runs = [
        ("ruff check app/convert.py", 1, "app/convert.py:1:1: E902 No such file or directory"),
        (f"ruff check {ROOT}/app/convert.py", 0, "All checks passed!"),
        ("cat app/models.py", 1, "cat: app/models.py: No such file or directory"),
        (f"cat {ROOT}/app/models.py", 0, "class Model: ..."),
    ]
    events = _in(f"{ROOT}/tests", runs, "s1") + _in(f"{ROOT}/tests", runs[:2], "s2", day=1)
    (pitfall,) = pitfalls(evidence_candidates(events))
    assert "(seen in 2 sessions)" in pitfall.content
    assert "`ruff check app/convert.py` → " in pitfall.content


@pytest.mark.parametrize(
    ("folder", "runs"),
    [
        # At the root already: the full path is not what fixed it.
        (ROOT, RUFF),
        # Another file, not the same one by another route.
        (
            f"{ROOT}/tests",
            [
                ("ruff check app/convert.py", 1, "E902 No such file or directory"),
                (f"ruff check {ROOT}/app/models.py", 0, "All checks passed!"),
            ],
        ),
        # The error is not about a missing path.
        (
            f"{ROOT}/tests",
            [
                (
                    "uv run pytest tests/test_cache.py",
                    1,
                    "FAILED tests/test_cache.py::t - assert 1",
                ),
                ("uv run pytest test_cache.py", 0, "1 passed"),
            ],
        ),
        # The shell's folder is not the one the shorter path is relative to.
        (f"{ROOT}/docs", PYTEST),
    ],
    ids=["at-root", "other-file", "real-failure", "other-folder"],
)
def test_no_folder_lesson_when_that_is_not_what_happened(folder: str, runs: list[Run]) -> None:
    for pitfall in pitfalls(evidence_candidates(_in(folder, runs))):
        assert not pitfall.key.startswith("pitfall:shell-folder:"), pitfall.content
        assert "after a `cd`" not in pitfall.content


def test_recipe_examples_leave_out_paths_outside_the_project() -> None:
    group = RecipeGroup("lint", "", "ruff check", "python")
    group.successes = 3
    group.examples.update(
        {
            "ruff check --fix": 1,
            "ruff check app/convert.py": 1,
            "ruff check /Users/someone/work/app/app/convert.py": 1,
            "ruff check ~/other/x.py": 1,
        }
    )
    finding = recipe_finding("recipe:lint", group)
    assert "/Users/" not in finding.content and "~/" not in finding.content
    assert "`ruff check app/convert.py`" in finding.content


def test_an_edit_in_between_does_not_hide_the_folder_lesson() -> None:
    events = _in(f"{ROOT}/tests", PYTEST)
    edit = dataclasses.replace(
        events[0],
        id="evt_edit",
        event_type="code_change",
        content={"tool": "Edit", "path": f"{ROOT}/tests/test_cache.py"},
        file_paths=(f"{ROOT}/tests/test_cache.py",),
        timestamp=events[0].timestamp + timedelta(seconds=5),
    )
    (pitfall,) = pitfalls(evidence_candidates(sorted([*events, edit], key=lambda e: e.timestamp)))
    assert pitfall.key == "pitfall:shell-folder:tests", pitfall.content
