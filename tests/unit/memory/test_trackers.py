"""The issue tracker the sessions drive from the command line is a project fact naming it and
its verbs in the order used; one verb in one session, a failed run and a tracker's words inside
another command say nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.evidence import attempts
from squirrel_memory.extractors.evidence.trackers import task_tracker
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.storage import SqliteStore
from tests.unit.memory.session_builder import Session, clocked_stores, rules_processor

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shelf"


def _fact(events: list[StoredEvent]) -> str | None:
    found = task_tracker(attempts(commands(events), ROOT))
    return None if found is None else found.content


def test_two_verbs_of_a_tracker_in_one_session_name_it_and_its_verbs_in_order() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("bd ready --json", 0, '[{"id": "sh-12"}]')
    session.run("bd update sh-12 --status in_progress", 0, "Updated sh-12")
    session.run("bd ready --json", 0, "[]")
    session.run("bd close sh-12 --reason done", 0, "Closed sh-12")

    assert _fact(session.events) == (
        "Work is tracked in beads (`bd`): the sessions ran `bd ready --json`, "
        "`bd update sh-12 --status in_progress` and `bd close sh-12 --reason done`."
    )
    (kept,) = [c for c in evidence_candidates(session.events) if c.key.startswith("fact:task")]
    assert kept.type == MemoryType.PROJECT_FACT
    assert kept.key == "fact:task_tracker:bd"


def test_one_verb_in_two_sessions_is_enough() -> None:
    first = Session(ROOT, "s1", T0)
    first.run("gh issue list --label bug", 0, "12  crash on save")
    second = Session(ROOT, "s2", T0 + timedelta(days=1))
    second.run("gh issue list --label bug", 0, "14  slow start")

    assert _fact(first.events + second.events) == (
        "Work is tracked in GitHub issues (`gh issue`): the sessions ran `gh issue list --label bug`."
    )


def test_a_long_command_shows_its_tracker_words_and_verb() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("gh issue view 532", 0, "title: crash")
    body = "Fixed in #540: the parser now keeps the last field when a line ends in a comma."
    session.run(f'gh issue comment 532 --body "{body}"', 0, "https://github.com/o/r/issues/532")

    assert _fact(session.events) == (
        "Work is tracked in GitHub issues (`gh issue`): the sessions ran `gh issue view 532` and "
        "`gh issue comment …`."
    )


@pytest.mark.parametrize(
    "runs",
    [
        # One verb in one session: reading the issue the user named.
        [("gh issue view 532", 0), ("gh issue view 532 --comments", 0)],
        # A failed run is no use of the tracker.
        [("bd list", 0), ("bd sync", 1)],
        # The tracker's words inside another command, or another subcommand of the same CLI.
        [("echo bd list", 0), ("gh pr view 12", 0), ("gh pr merge 12", 0)],
        # A flag alone is no verb.
        [("bd --version", 0), ("bd --help", 0)],
    ],
)
def test_what_is_no_use_of_a_tracker(runs: list[tuple[str, int]]) -> None:
    session = Session(ROOT, "s1", T0)
    for command, code in runs:
        session.run(command, code, "" if code == 0 else "error: no remote configured")

    assert _fact(session.events) is None


def test_the_tracker_used_most_is_named() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("gh issue view 7", 0, "")
    session.run("gh issue close 7", 0, "")
    for verb in ("ready", "show sh-1", "close sh-1"):
        session.run(f"bd {verb}", 0, "")

    assert (_fact(session.events) or "").startswith("Work is tracked in beads (`bd`)")


@pytest.mark.parametrize(
    "runs",
    [
        # A fallback hides whether the tracker ran at all.
        ['bd ready 2>/dev/null || echo "beads is not set up here"', "bd list 2>/dev/null || true"],
        # Another repository's issues (a dependency's), by name or run in its checkout.
        [
            "gh issue list -R apple/swift-nio --label bug",
            "gh issue view 2890 --repo apple/swift-nio",
        ],
        ["cd ../upstream-lib && gh issue list", "cd ../upstream-lib && gh issue create -t x"],
    ],
)
def test_a_hidden_outcome_or_another_repositorys_tracker_is_no_use(runs: list[str]) -> None:
    session = Session(ROOT, "s1", T0)
    for command in runs:
        session.run(command, 0, "beads is not set up here")

    assert _fact(session.events) is None


def test_a_tracker_the_user_stopped_using_is_not_named() -> None:
    first = Session(ROOT, "s1", T0)
    first.run("bd ready", 0, "sh-7")
    first.run("bd close sh-7", 0, "Closed sh-7")
    second = Session(ROOT, "s2", T0 + timedelta(days=1))
    second.user("We stopped using beads last week, the issues all live on GitHub now.")
    second.run("gh issue list", 0, "41  Totals off by a cent")

    events = first.events + second.events
    found = [c for c in evidence_candidates(events) if c.key.startswith("fact:task_tracker")]
    assert found == []
    assert task_tracker(attempts(commands(events), ROOT), {"beads"}) is None


async def test_a_stored_tracker_fact_is_retired_once_the_user_says_it_is_no_longer_used(
    tmp_path: Path,
) -> None:
    # Two passes, a day apart: the first stores the fact, the second hears it is over.
    now = T0 + timedelta(days=3)
    async with clocked_stores(tmp_path, now) as (store, users):
        root = store.project_id
        first = Session(root, "s1", T0)
        first.user("Pick the next ready task and do it.")
        first.run("bd ready", 0, "sh-7  Totals off by a cent")
        first.run("bd close sh-7 --reason done", 0, "Closed sh-7")
        await store.append_events(root, "u", first.ingested(), [])
        await rules_processor(store, users, now).drain(store)
        assert await _tracked(store) == ["fact:task_tracker:bd"]

        second = Session(root, "s2", T0 + timedelta(days=1))
        second.user("We stopped using beads last week, the issues all live on GitHub now.")
        second.run("gh issue list", 0, "41  Refund rounding")
        await store.append_events(root, "u", second.ingested(), [])
        await rules_processor(store, users, now).drain(store)
        assert await _tracked(store) == []


async def _tracked(store: SqliteStore) -> list[str]:
    items, _ = await store.list_memories(store.project_id, types=[MemoryType.PROJECT_FACT])
    return [m.key for m in items if m.key.startswith("fact:task_tracker")]


def test_a_tracker_run_whose_shell_was_in_another_checkout_is_not_this_projects() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("gh issue list --label bug", 0, "12  crash", cwd="/home/dev/lib")
    session.run("gh issue close 12", 0, "Closed", cwd="/home/dev/lib")

    assert [c for c in evidence_candidates(session.events) if "tracker" in c.key] == []
