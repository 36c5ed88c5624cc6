"""How the sessions use git, the same way in every session: an option every run of a
subcommand took, a branch made for each task, an issue closed from the commit message. Kept
only when every run kept to it, in two sessions or more."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import MemoryType, StoredEvent
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/tinyhttpd"
DONE = "[main 4f1c2ab] done\n 1 file changed, 2 insertions(+)"


def _sessions(*runs: list[str]) -> list[StoredEvent]:
    """One session per list of commands, a day apart, each command passing."""
    events: list[StoredEvent] = []
    for n, commands in enumerate(runs):
        s = Session(ROOT, f"s{n}", T0 + timedelta(days=n))
        s.user("fix it and commit")
        for command in commands:
            s.run(command, 0, DONE)
        s.say("Done.")
        events.extend(s.events)
    return events


def _ways(events: list[StoredEvent]) -> list[str]:
    return [
        c.content
        for c in evidence_candidates(events)
        if c.type == MemoryType.USER_STYLE and c.key.startswith("pref:git:")
    ]


def test_an_option_every_commit_took_in_two_sessions_is_the_way() -> None:
    (way,) = _ways(
        _sessions(
            ['git add src/a.c && git commit -s -m "parse: reject long lines"'],
            ['git add src/b.c && git commit -sm "conn: close idle sockets"'],
        )
    )
    assert way.startswith("Every `git commit` here carries a sign-off: `git commit -s`")
    assert "2 sessions" in way


def test_pull_with_rebase_in_every_session_is_the_way() -> None:
    (way,) = _ways(_sessions(["git pull --rebase origin main"], ["git pull -r"]))
    assert "Every `git pull` here rebases" in way


def test_one_run_without_the_option_says_nothing() -> None:
    events = _sessions(
        ['git commit -s -m "a: one"'], ['git commit -s -m "b: two"'], ['git commit -m "c: three"']
    )
    assert _ways(events) == []


def test_one_session_is_no_way_of_working() -> None:
    assert _ways(_sessions(['git commit -s -m "a"', 'git commit -s -m "b"'])) == []


def test_an_option_an_assistant_adds_of_its_own_is_no_way() -> None:
    events = _sessions(["git push -u origin topic"], ["git push -u origin other"])
    assert _ways(events) == []


def test_a_run_that_failed_is_not_counted() -> None:
    events = _sessions(['git commit -s -m "a: one"'], ['git commit -s -m "b: two"'])
    s = Session(ROOT, "s9", T0 + timedelta(days=9))
    s.run('git commit -m "c: three"', 1, "nothing added to commit")
    (way,) = _ways([*events, *s.events])
    assert "(2 runs in 2 sessions)" in way


def test_a_branch_made_before_each_sessions_commit_is_a_branch_per_task() -> None:
    (way,) = _ways(
        _sessions(
            ["git switch -c feature/wishlist", 'git commit -am "Add the wishlist count"'],
            ["git checkout -b fix/cart-merge", "git push -u origin fix/cart-merge"],
        )
    )
    assert way.startswith("Each task gets a branch of its own")
    assert "`feature/wishlist`, `fix/cart-merge`" in way


def test_a_session_that_committed_without_a_new_branch_says_nothing() -> None:
    events = _sessions(
        ["git switch -c feature/a", 'git commit -am "A"'],
        ["git switch -c feature/b", 'git commit -am "B"'],
        ['git commit -am "C"'],
    )
    assert _ways(events) == []


def test_the_same_branch_made_again_is_one_line_of_work() -> None:
    events = _sessions(
        ["git checkout -b release", 'git commit -am "A"'],
        ["git checkout -b release", 'git commit -am "B"'],
    )
    assert _ways(events) == []


def test_commits_that_close_their_issue_in_two_sessions() -> None:
    (way,) = _ways(
        _sessions(
            ['git commit -am "Skip weekends in due dates" -m "Fixes #31"'],
            ['git commit -am "Move the footer below the totals" -m "Closes #34"'],
        )
    )
    assert "close their issue" in way and "“Closes #N”" in way


def test_a_commit_without_the_issue_line_says_nothing() -> None:
    events = _sessions(
        ['git commit -am "Skip weekends" -m "Fixes #31"'],
        ['git commit -am "Move the footer" -m "Fixes #34"'],
        ['git commit -am "Tidy the README"'],
    )
    assert _ways(events) == []
