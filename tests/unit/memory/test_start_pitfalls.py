"""A session starts with the pitfalls whose trigger recurred; a one-off waits to be asked.

The extractor marks a pitfall whose error was met on more than one run (in one session or in
two) in any ecosystem, never one met once; the session start's pitfalls view leaves out a rules'
one-off (met once, fixed by an edit or not at all) unless a session used it or met its error
since, while a way of running a command met once (a setup step, another form of the command,
another folder, the formatter) opens sessions, and the pitfalls view asked for all pitfalls, a
task or a path still gives every one.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from squirrel_memory.extractors.pitfall_memories import MET_AGAIN_TAG
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import (
    MemoryCandidate,
    MemorySource,
    MemoryType,
    StoredEvent,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import SqliteStore
from squirrel_memory.views import Views
from squirrel_memory.views.start_pitfalls import earns_the_start
from tests.unit.memory.test_evidence import T0, _stream_events, pitfalls
from tests.unit.memory.test_views import USER, add_memory
from tests.unit.memory.test_views_outcomes import judge, resting_views

Runs = list[tuple[str, int | None, str]]

PYTHON: Runs = [
    ("pytest -q", 1, "E   ModuleNotFoundError: No module named 'requests'"),
    ("pip install requests", 0, "Successfully installed requests-2.32.0"),
    ("pytest -q", 0, "5 passed"),
]
TYPESCRIPT: Runs = [
    ("npx vitest run", 1, "Error: Cannot find module '@vitejs/plugin-react'"),
    ("npm install", 0, "added 12 packages"),
    ("npx vitest run", 0, "Tests  5 passed (5)"),
]


def _pitfall(events: list[StoredEvent]) -> MemoryCandidate:
    (found,) = pitfalls(evidence_candidates(events))
    return found


@pytest.mark.parametrize("runs", [PYTHON, TYPESCRIPT], ids=["python", "typescript"])
def test_an_error_met_on_two_runs_of_one_session_is_marked_as_met_again(runs: Runs) -> None:
    assert MET_AGAIN_TAG in _pitfall(_stream_events("/w/app", "s1", runs + runs)).tags


@pytest.mark.parametrize("runs", [PYTHON, TYPESCRIPT], ids=["python", "typescript"])
def test_an_error_met_in_two_sessions_is_marked_as_met_again(runs: Runs) -> None:
    later = _stream_events("/w/app", "s2", runs, start=T0 + timedelta(days=1))
    found = _pitfall(_stream_events("/w/app", "s1", runs) + later)
    assert MET_AGAIN_TAG in found.tags
    assert "(seen in 2 sessions)" in found.content


@pytest.mark.parametrize("runs", [PYTHON, TYPESCRIPT], ids=["python", "typescript"])
def test_an_error_met_once_is_not_marked(runs: Runs) -> None:
    assert MET_AGAIN_TAG not in _pitfall(_stream_events("/w/app", "s1", runs)).tags


async def _start(store: SqliteStore, views: Views) -> list[str]:
    view = await views.pitfalls(store.project_id, live_only=True)
    return [i.content for i in view.items]


async def test_the_session_start_leaves_a_one_off_to_be_asked_for(store: SqliteStore) -> None:
    met = await add_memory(
        store,
        MemoryType.PITFALL,
        "pitfall:a",
        "`make test` failed with `E: no such table`; running `make migrate` first fixed it.",
        importance=0.5,
        tags=["pitfall", MET_AGAIN_TAG],
    )
    once = await add_memory(
        store,
        MemoryType.PITFALL,
        "pitfall:b",
        "`cargo test` failed with `assertion failed: left == right`; it passed after editing "
        "src/lib.rs, named in the error.",
        importance=0.7,
        tags=["pitfall", "fix:edit"],
    )
    views, _ = await resting_views(store)
    assert await _start(store, views) == [met.content]
    # Asked for all pitfalls, for a task or a path, the one-off is there, first by importance.
    everything = await views.pitfalls(store.project_id)
    assert [i.memory_id for i in everything.items] == [once.id, met.id]
    views.close()


@pytest.mark.parametrize(
    "fix", ["fix:setup", "fix:variant", "fix:folder", "fix:formatter", "shell", "stale"]
)
async def test_a_way_of_running_a_command_met_once_opens_sessions(
    store: SqliteStore, fix: str
) -> None:
    # The command is the trigger, and the next session runs it again.
    text = "`pytest` failed with `pytest: command not found`; running `uv sync` first fixed it."
    await add_memory(store, MemoryType.PITFALL, "pitfall:r", text, tags=["pitfall", fix])
    await add_memory(
        store, MemoryType.PITFALL, "pitfall:e", "Edited.", tags=["pitfall", "fix:edit"]
    )
    await add_memory(store, MemoryType.PITFALL, "pitfall:n", "Unknown.", tags=["fix:unknown"])
    views, _ = await resting_views(store)
    assert await _start(store, views) == [text]
    views.close()


async def test_a_one_off_used_or_met_again_since_opens_sessions(store: SqliteStore) -> None:
    used = await add_memory(store, MemoryType.PITFALL, "pitfall:u", "Trap one.", tags=["pitfall"])
    missed = await add_memory(store, MemoryType.PITFALL, "pitfall:m", "Trap two.", tags=["pitfall"])
    views, book = await resting_views(store)
    assert await _start(store, views) == []
    await judge(book, used, "used")
    await judge(book, missed, "missed")
    assert sorted(await _start(store, views)) == ["Trap one.", "Trap two."]
    views.close()


async def test_a_one_off_waits_whether_or_not_ranking_learns(store: SqliteStore) -> None:
    once = await add_memory(store, MemoryType.PITFALL, "pitfall:o", "Trap.", tags=["pitfall"])
    views, book = await resting_views(store, learn=False)
    await judge(book, once, "used")  # not read while learning is off
    assert await _start(store, views) == []
    views.close()


async def test_a_pitfall_seen_in_two_sessions_before_the_mark_still_opens_sessions(
    store: SqliteStore,
) -> None:
    text = "`go test ./...` failed with `undefined: Parse` (seen in 2 sessions); rebuilt it."
    await add_memory(store, MemoryType.PITFALL, "pitfall:s", text, tags=["pitfall"])
    views, _ = await resting_views(store)
    assert await _start(store, views) == [text]
    views.close()


async def test_a_pitfall_the_user_wrote_is_not_judged_as_a_one_off(store: SqliteStore) -> None:
    candidate = MemoryCandidate(
        MemoryType.PITFALL, "pitfall:mine", "Never run the seed script twice.", (), 0.5, ()
    )
    item = await store.apply_decision(
        UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER, source=MemorySource.MANUAL
    )
    assert item is not None and item.source == MemorySource.MANUAL
    assert earns_the_start(item, lambda _: False)
    views, _ = await resting_views(store)
    assert await _start(store, views) == ["Never run the seed script twice."]
    views.close()


async def test_other_memories_are_not_judged_by_the_pitfall_rule(store: SqliteStore) -> None:
    fact = await add_memory(store, MemoryType.PROJECT_FACT, "ci", "CI runs on Buildkite.")
    assert earns_the_start(fact, lambda _: False)


@pytest.mark.parametrize(
    ("key", "tags", "text"),
    [
        (
            "pitfall:denied:protected:trunk",
            ["pitfall", "environment", "denied", "protected"],
            "`trunk` is a protected branch: the remote refused `git push origin trunk`.",
        ),
        (
            "pitfall:version_files",
            ["pitfall", "release", "version"],
            "The version is written in 2 files, which a bump changed together: `a.toml`, `b.c`.",
        ),
        (
            "pitfall:denied:sandbox:git",
            ["pitfall", "environment", "denied", "sandbox"],
            "The agent's sandbox refused `git add -A`: it failed with `fatal: Unable to create "
            "'.git/index.lock': Operation not permitted`.",
        ),
    ],
    ids=["protected-branch", "version-files", "sandbox-refused-write"],
)
async def test_a_standing_condition_met_once_opens_sessions(
    store: SqliteStore, key: str, tags: list[str], text: str
) -> None:
    # Every push to that branch, every bump meets it again: not a one-off.
    await add_memory(store, MemoryType.PITFALL, key, text, tags=tags)
    await add_memory(
        store, MemoryType.PITFALL, "pitfall:e", "Edited.", tags=["pitfall", "fix:edit"]
    )
    views, _ = await resting_views(store)
    assert await _start(store, views) == [text]
    views.close()


async def test_another_denied_access_met_once_still_waits(store: SqliteStore) -> None:
    text = "`sudo make install` failed with `sudo: a terminal is required to read the password`."
    await add_memory(
        store,
        MemoryType.PITFALL,
        "pitfall:denied:sudo",
        text,
        tags=["pitfall", "environment", "denied", "sudo"],
    )
    views, _ = await resting_views(store)
    assert await _start(store, views) == []
    views.close()
