"""Reading a failed CI run's log, opening a pull request and merging one, as a session did it
successfully, become recipes with their identifiers generalised; failed or unknown runs say
nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.forge_workflows import forge_workflows
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/vault"
T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _session(*runs: tuple[str, int | None]) -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("the deploy failed, have a look")
    for command, code in runs:
        session.run(command, code)
    return session


def test_a_failed_runs_log_read_after_its_summary_is_one_recipe() -> None:
    session = _session(
        ("gh run view 22181848464 --repo acme/vault 2>&1 | head -60", 0),
        ("gh run view 22181848464 --repo acme/vault --log-failed 2>&1 | tail -100", 0),
    )

    (found,) = forge_workflows(session.events)

    assert found.key == "recipe:forge:ci-logs"
    assert found.content == (
        "Read a failed CI run's log with `gh run view <run-id> --repo acme/vault --log-failed` "
        "(after `gh run view <run-id> --repo acme/vault` shows which job and step failed)."
    )
    assert len(found.event_ids) == 2


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (
            'gh pr merge 42 --squash --delete-branch --subject "feat: add search (#42)"',
            'Merge pull requests with `gh pr merge <number> --squash --delete-branch --subject "<text>"`.',
        ),
        (
            "gh pr merge https://github.com/acme/vault/pull/7 --rebase",
            "Merge pull requests with `gh pr merge <number> --rebase`.",
        ),
        (
            "glab mr merge 9 --squash",
            "Merge merge requests with `glab mr merge <number> --squash`.",
        ),
        (
            "gh pr create --draft --base main --head fix-logs --title 'Ship logs' "
            "--body-file /tmp/pr.md 2>&1 | tail -1",
            "Open pull requests with `gh pr create --draft --base main --head <value> "
            '--title "<text>" --body-file <value>`.',
        ),
        (
            'glab mr create --source-branch feat-42 --target-branch develop -t "Add search" -y',
            "Open merge requests with `glab mr create --source-branch <value> --target-branch "
            'develop -t "<text>" -y`.',
        ),
        ("glab ci trace 1234", "Read a failed CI run's log with `glab ci trace <run-id>`."),
        ("gh run view 88 --log", "Read a failed CI run's log with `gh run view <run-id> --log`."),
    ],
)
def test_each_forge_and_workflow_is_generalised(command: str, said: str) -> None:
    (found,) = forge_workflows(_session((command, 0)).events)

    assert found.content == said
    assert not any(ch.isdigit() for ch in found.content.replace("CI", ""))


@pytest.mark.parametrize(
    "runs",
    [
        [("gh pr merge 42 --squash", 1)],  # it failed
        [("gh pr create --fill", 1)],  # it failed: no pull request was opened
        [("gh pr create --draft --fill", None)],  # declined: it never ran
        [("gh run view 88 --log-failed", None)],  # declined: it never ran
        [("gh run view 88", 0)],  # the summary alone reads no log
        [("gh pr view 42", 0), ("gh pr diff 42", 0), ("gh run list", 0)],  # look-arounds
        [("git merge main", 0)],
    ],
)
def test_no_recipe_without_a_successful_run_of_the_workflow(
    runs: list[tuple[str, int | None]],
) -> None:
    assert forge_workflows(_session(*runs).events) == []


def test_a_typed_command_whose_outcome_is_unknown_says_nothing() -> None:
    session = _session()
    session.typed("gh pr merge 42 --squash", "Merged")

    assert forge_workflows(session.events) == []


SCRIPT = """#!/usr/bin/env bash
merge_pr() {
  local pr=$1
  # gh pr merge "$pr" --rebase
  if gh pr merge "$pr" --squash --delete-branch --subject "$2" 2>&1; then
    echo merged
  fi
}
"""


def test_a_script_the_session_read_says_how_it_merges() -> None:
    session = _session()
    session.read("scripts/auto-merge.sh", SCRIPT)

    (found,) = forge_workflows(session.events)

    assert found.content == (
        "`scripts/auto-merge.sh` merges pull requests with "
        '`gh pr merge <number> --squash --delete-branch --subject "<text>"`.'
    )


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("scripts/auto-merge.sh", "# gh pr merge 1 --squash\n"),  # commented out
        ("docs/merging.md", "gh pr merge 1 --squash\n"),  # prose, not a script
    ],
)
def test_no_script_recipe_without_a_merge_line_in_a_script(path: str, text: str) -> None:
    session = _session()
    session.read(path, text)

    assert forge_workflows(session.events) == []


def test_a_pull_request_read_as_json_then_diffed_is_a_review_recipe_in_run_order() -> None:
    session = _session(
        ("gh pr view 318 --json title,body,files,headRefName", 0),
        ("gh pr diff 318 | head -300", 0),
        ("gh pr checks 318", 0),
        ("gh pr diff 318 | sed -n 300,600p", 0),
    )

    (found,) = forge_workflows(session.events)

    assert found.key == "recipe:forge:review"
    assert found.content == (
        "Review a pull request: `gh pr view <number> --json title,body,files,headRefName`; "
        "`gh pr diff <number>`; `gh pr checks <number>`."
    )
    assert len(found.event_ids) == 3
    recipes = [c for c in session.extracted() if "forge" in c.tags]
    assert [c.key for c in recipes] == ["recipe:forge:review"]


def test_a_review_keeps_the_steps_of_the_reviewed_pull_request_only() -> None:
    session = _session(
        ("gh pr diff 7", 0),  # another pull request
        ("gh pr diff 12 --name-only", 0),
        ("gh pr view https://github.com/acme/vault/pull/12 --json reviews --repo acme/vault", 0),
    )

    (found,) = forge_workflows(session.events)

    assert found.content == (
        "Review a pull request: `gh pr diff <number> --name-only`; "
        "`gh pr view <number> --json reviews --repo acme/vault`."
    )


@pytest.mark.parametrize(
    "runs",
    [
        [("gh pr view 42 --json title", 1), ("gh pr diff 42", 0)],  # the read failed
        [("gh pr view feat-search --json number,state", 0)],  # a branch's, not a review
        [("gh pr view --json state", 0)],  # the current branch's own
    ],
)
def test_no_review_recipe_without_a_numbered_pull_request_read_as_json(
    runs: list[tuple[str, int | None]],
) -> None:
    assert forge_workflows(_session(*runs).events) == []


def test_a_merge_request_read_in_full_is_a_review_recipe_in_run_order() -> None:
    session = _session(
        ("glab mr view 57 --comments", 0),
        ("glab mr diff 57 | head -200", 0),
        ("glab mr checkout 57", 0),
        ("glab ci status", 0),
        ("glab mr diff 57", 0),
    )

    (found,) = forge_workflows(session.events)

    assert found.key == "recipe:forge:review"
    assert found.content == (
        "Review a merge request: `glab mr view <number> --comments`; `glab mr diff <number>`; "
        "`glab mr checkout <number>`; `glab ci status`."
    )
    assert len(found.event_ids) == 4


def test_a_merge_request_read_as_json_keeps_its_output_option() -> None:
    session = _session(
        ("glab mr diff 9", 0),
        ("glab mr view -F json !9 --repo acme/vault", 0),
    )

    (found,) = forge_workflows(session.events)

    assert found.content == (
        "Review a merge request: `glab mr diff <number>`; "
        "`glab mr view -F json <number> --repo acme/vault`."
    )


def test_the_last_forge_reviewed_on_gives_the_recipe() -> None:
    session = _session(
        ("gh pr view 3 --json title,body", 0),
        ("glab mr view 4 -c", 0),
    )

    (found,) = forge_workflows(session.events)

    assert found.content == "Review a merge request: `glab mr view <number> -c`."


def test_a_pull_request_named_after_its_json_fields_is_still_a_review() -> None:
    session = _session(("gh pr view --json title,body 318", 0), ("gh pr diff 318", 0))

    (found,) = forge_workflows(session.events)

    assert found.content == (
        "Review a pull request: `gh pr view --json title,body <number>`; `gh pr diff <number>`."
    )


@pytest.mark.parametrize(
    "runs",
    [
        [("glab mr view 42 --comments", 1), ("glab mr diff 42", 0)],  # the read failed
        [("glab mr view 42", 0), ("glab mr diff 42", 0)],  # a look, not read in full
        [("glab mr view feat-search -c", 0)],  # a branch's, not a numbered request
    ],
)
def test_no_merge_request_review_without_a_numbered_request_read_in_full(
    runs: list[tuple[str, int | None]],
) -> None:
    assert forge_workflows(_session(*runs).events) == []


def test_the_pipeline_status_is_a_step_only_once_the_request_is_checked_out() -> None:
    session = _session(("glab ci status", 0), ("glab mr view 42 -c", 0), ("glab ci status", 0))

    (found,) = forge_workflows(session.events)

    assert found.content == "Review a merge request: `glab mr view <number> -c`."
