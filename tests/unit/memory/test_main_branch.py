"""That the repository's branch is `master` and not `main`, from a `git branch` listing run in
the project; nothing from a listing with `main`, a branch being made, a failed run, another
folder or what a message says."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.main_branch import main_branch
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/notes"
SAID = "The repository has a `master` branch and no `main` (as `git branch` listed them)."
LISTING = "+ alice/research\n* master\n  worktree-agent-1\n"


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("git branch", "* master\n  feature/import\n"),
        ("git branch -a", LISTING + "  remotes/origin/master\n"),
        # a compound line: other commands' output around the listing
        (
            "git status && git log --oneline -3 && git branch -a && ls",
            "On branch master\nnothing to commit\n04752c6 Add intent\n* master\nNOTES.md\n",
        ),
    ],
)
def test_a_listing_with_master_and_no_main_is_a_fact(command: str, output: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Merge the three branches.")
    session.run(command, output=output)

    (fact,) = [c for c in session.extracted() if c.key == "main_branch"]

    assert fact.type == MemoryType.PROJECT_FACT
    assert fact.content == SAID


@pytest.mark.parametrize(
    ("command", "output", "exit_code"),
    [
        ("git branch -a", LISTING + "  remotes/origin/HEAD -> origin/main\n", 0),
        ("git branch -a", LISTING + "  remotes/origin/main\n", 0),
        ("git branch", "* main\n  master\n", 0),
        ("git branch", "* trunk\n  feature/x\n", 0),
        ("git branch old-master master", "", 0),  # makes a branch: lists nothing
        ("git branch --merged", "* master\n", 0),  # a filter: not every branch
        ("git branch", "fatal: not a git repository\n* master\n", 1),
        ("git -C /home/dev/other branch", "* master\n", 0),
        ("cd ../other && git branch", "* master\n", 0),
        ("git status", "On branch master\nnothing to commit\n", 0),
    ],
)
def test_other_listings_and_runs_say_nothing(command: str, output: str, exit_code: int) -> None:
    session = Session(ROOT, "s1", T0)
    session.run(command, exit_code=exit_code, output=output)

    assert main_branch(session.events) is None


def test_a_branch_named_in_a_message_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("The main branch here is master, not main. Run `git branch` to see.")
    session.say("* master")

    assert main_branch(session.events) is None
