"""A task whose name narrows its purpose to one thing (`scripts/build-bundle.sh`, `make
build-image`, `npm run build:docs`) does that part of the job: beside a command of the same
purpose that is not narrowed, that command is the recipe, whichever ran last; alone, the
narrowed task still is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_core.commands import classify_tokens
from squirrel_memory.extractors.evidence.recipes import narrowed_task
from squirrel_memory.extractors.rules import evidence_candidates
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

# (project root, the project's build, a task that builds one part of it, ran after it)
CASES = [
    ("/home/dev/ledger", "uv build", "bash scripts/build-bundle.sh"),
    ("/home/dev/tiles", "cargo build --release", "make build-image"),
    ("/home/dev/shop", "npm run build", "npm run build:docs"),
]


def _build_recipe(runs: list[str], root: str) -> str:
    session = Session(root, "s1", T0)
    session.user("Cut the release.")
    for command in runs:
        session.run(command, 0, "done")
    found = {c.key: c.content for c in evidence_candidates(session.events)}
    return found.get("recipe:build", "")


@pytest.mark.parametrize(("root", "build", "narrowed"), CASES)
def test_the_projects_build_stays_the_recipe_beside_a_narrowed_task_run_later(
    root: str, build: str, narrowed: str
) -> None:
    recipe = _build_recipe([build, narrowed], root)

    assert f"`{build}`" in recipe
    assert narrowed not in recipe


@pytest.mark.parametrize(("root", "_build", "narrowed"), CASES)
def test_a_narrowed_task_alone_is_still_the_build_recipe(
    root: str, _build: str, narrowed: str
) -> None:
    assert f"`{narrowed}`" in _build_recipe([narrowed], root)


@pytest.mark.parametrize(
    ("command", "narrow"),
    [
        ("bash scripts/build-bundle.sh", True),
        ("npm run test:e2e", True),
        ("make build-image", True),
        ("./scripts/build.sh", False),
        ("npm run build", False),
        ("./run_tests.sh", False),
        ("uv build", False),
        ("make all", False),
    ],
)
def test_which_tasks_are_narrowed(command: str, narrow: bool) -> None:
    use = classify_tokens(command.split())
    assert use is not None
    assert narrowed_task(use) is narrow
