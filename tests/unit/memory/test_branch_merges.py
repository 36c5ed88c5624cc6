"""How branches are merged at the project, from the session's own `git merge` runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.branch_merges import branch_merges
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
MERGED = "Merge made by the 'ort' strategy.\n src/lib.rs | 4 ++--\n"


def _runs(
    project: str, *runs: tuple[str, str], ok: bool = True, cwd: str | None = None
) -> list[StoredEvent]:
    events: list[StoredEvent] = []
    for n, (command, output) in enumerate(runs):
        content: dict[str, object] = {
            "command": command,
            "output": output,
            "exit_code": 0 if ok else 1,
            "is_error": not ok,
            "cwd": cwd or project,
        }
        events.append(
            StoredEvent(
                id=f"evt_{n:03d}",
                project_id=project,
                user_id="dev",
                source_tool="claude_code",
                session_id="s1",
                timestamp=T0 + timedelta(hours=n),
                event_type="command_run",
                content=content,
                file_paths=(),
                hash=f"h{n}",
                origin="assistant",
            )
        )
    return events


def test_two_no_ff_merges_of_work_branches_in_a_rust_project_make_the_recipe() -> None:
    found = branch_merges(
        _runs(
            "/home/dev/engine",
            ("git merge --no-ff feature/parser -m 'Merge parser'", MERGED),
            ("git checkout main && git merge --no-ff fix/overflow", MERGED),
        )
    )

    assert [f.content for f in found] == [
        "Branches are merged with `git merge --no-ff <branch>` (2 merges in sessions)."
    ]
    assert found[0].event_ids == ("evt_000", "evt_001")


def test_octopus_squash_merges_in_a_python_project_say_so() -> None:
    found = branch_merges(
        _runs(
            "/home/dev/pipeline",
            ("git merge --squash alice/etl bob/report -m 'round 1' 2>&1", MERGED),
            ("git merge --squash alice/etl bob/report -m 'round 2'", MERGED),
        )
    )

    assert [f.content for f in found] == [
        'Branches are merged with `git merge --squash <branch> <branch> -m "<text>"` '
        "(2 merges in sessions, several branches at once)."
    ]


PROJECT = "/home/dev/app"


@pytest.mark.parametrize(
    "runs",
    [
        # One merge is no policy yet.
        [("git merge --no-ff feature/a", MERGED)],
        # Another work tree's merges (`-C`, a `cd` out of the project).
        [
            ("git -C /home/dev/app-wt merge --no-ff feature/a", MERGED),
            ("cd /home/dev/other && git merge --no-ff feature/b", MERGED),
        ],
        # Stopped on a conflict; then aborted.
        [
            ("git merge --no-ff feature/a", "CONFLICT (content): Merge conflict in a.py\n"),
            ("git merge --abort", ""),
            ("git merge --no-ff feature/a", MERGED),
        ],
        # Keeping a work branch current: the mainline or upstream merged in.
        [("git merge --no-ff main", MERGED), ("git merge --no-ff origin/feature/a", MERGED)],
        # Two policies, or none stated: nothing decides.
        [("git merge --no-ff feature/a", MERGED), ("git merge --squash feature/b", MERGED)],
        [("git merge --no-ff feature/a", MERGED), ("git merge feature/b", MERGED)],
    ],
    ids=["one", "elsewhere", "conflict", "mainline", "two-policies", "unstated"],
)
def test_no_merge_recipe_without_two_merges_of_one_policy_at_the_project(
    runs: list[tuple[str, str]],
) -> None:
    assert branch_merges(_runs(PROJECT, *runs)) == []


def test_failed_merges_or_a_shell_outside_the_project_say_nothing() -> None:
    twice = [("git merge --no-ff feature/a", MERGED), ("git merge --no-ff feature/b", MERGED)]
    assert branch_merges(_runs(PROJECT, *twice, ok=False)) == []
    assert branch_merges(_runs(PROJECT, *twice, cwd="/home/dev/elsewhere")) == []
    assert branch_merges(_runs(PROJECT, *twice))


@pytest.mark.parametrize(
    "branch",
    ["dev", "develop", "staging", "trunk", "production", "release/2.4", "releases/v1", "1.x"],
)
def test_merging_a_mainline_or_release_line_in_twice_is_no_merge_policy(branch: str) -> None:
    runs = [(f"git merge --no-ff {branch}", MERGED), (f"git merge --no-ff {branch}", MERGED)]

    assert branch_merges(_runs("/home/dev/engine", *runs)) == []
    assert branch_merges(_runs("/home/dev/pipeline", *runs)) == []


@pytest.mark.parametrize(
    ("project", "first", "second"),
    [
        ("/home/dev/engine", "feature/dev-tools", "fix/release-notes"),
        ("/home/dev/pipeline", "staging-banner", "devices"),
    ],
)
def test_work_branches_named_like_a_mainline_still_make_the_recipe(
    project: str, first: str, second: str
) -> None:
    runs = [(f"git merge --squash {first}", MERGED), (f"git merge --squash {second}", MERGED)]

    assert [f.key for f in branch_merges(_runs(project, *runs))] == ["recipe:merge:squash"]
