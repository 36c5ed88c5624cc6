"""The checks a pull request's test plan ran, from the description a session printed."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.review_checks import review_checks
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import Episode, MemoryType, StoredEvent

T0 = datetime(2026, 5, 4, 10, 0, tzinfo=UTC)
PROJECT = "/home/dev/app"


def _view(command: str, output: str, *, ok: bool = True) -> list[StoredEvent]:
    content = {"command": command, "tool_use_id": "v0", "cwd": PROJECT, "output": output}
    content.update(exit_code=0 if ok else 1, is_error=not ok)
    return [
        StoredEvent(
            id="evt_view",
            project_id=PROJECT,
            user_id="dev",
            source_tool="claude_code",
            session_id="s1",
            timestamp=T0,
            event_type="command_run",
            content=content,
            file_paths=(),
            hash="h0",
            origin="assistant",
        )
    ]


def _json(body: str, **extra: object) -> str:
    return json.dumps({"body": body, "number": 42, "state": "OPEN", **extra})


#: A Node.js pull request: ticked boxes.
NODE_BODY = (
    "## Summary\n- Cache the parsed config.\n\n"
    "## Test plan\n- [x] `npm test` passes\n- [x] `npx eslint .`\n"
    "- [ ] Try it on Windows\n"
)
#: A Go pull request: a script of the project and what it printed.
GO_BODY = (
    "## Why\nThe store leaked rows.\n\n### Verification\n\n"
    "- `scripts/check_migrations.sh` → `OK: 12 migrations verified`.\n"
    "- `go vet ./...` is clean.\n"
    "- `go run ./cmd/bench -n 100` shows the same numbers.\n\n"
    "## Follow-ups\n- `golangci-lint run` with the new linters passes once they land.\n"
)


def test_the_ticked_checks_of_a_node_pull_requests_test_plan_make_a_recipe() -> None:
    found = review_checks(_view("gh pr view 42 --json number,title,body,state", _json(NODE_BODY)))

    assert [f.content for f in found] == [
        "The test plan of pull request #42 checked the change with `npm test` and `npx eslint .`."
    ]
    assert found[0].event_ids == ("evt_view",)


def test_a_go_pull_requests_verification_names_its_script_and_what_it_printed() -> None:
    found = review_checks(_view("gh pr view 7", f"title:\tFix leak\nstate:\tOPEN\n--\n{GO_BODY}"))

    assert [f.content for f in found] == [
        "The test plan of pull request #7 checked the change with "
        "`scripts/check_migrations.sh` (it reported `OK: 12 migrations verified`) and "
        "`go vet ./...`."
    ]


def test_the_rules_keep_it_as_a_recipe() -> None:
    events = _view("gh pr view 42 --json body,number", _json(NODE_BODY))
    episode = Episode(
        id="ep1",
        project_id=PROJECT,
        user_id="dev",
        session_id="s1",
        start_ts=T0,
        end_ts=T0,
        event_count=len(events),
        summary="",
        importance=0.5,
        created_at=T0,
        event_ids=tuple(e.id for e in events),
    )
    found = [c for c in RulesExtractor().extract_sync(episode, events) if "test plan" in c.content]
    assert [c.type for c in found] == [MemoryType.RECIPE]


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # Not run yet: unticked boxes; not a command: prose bullets.
        ("gh pr view 42", "## Test plan\n- [ ] `npm test` passes\n- Ran the app by hand\n"),
        # Other sections: a follow-up's check is not one this change ran.
        ("gh pr view 42", "## Follow-ups\n- `npm test` passes\n\n## Design\n- `make lint` ok\n"),
        # The check failed or found problems.
        (
            "gh pr view 42",
            "## Testing\n- `cargo test` fails on macOS\n- `ruff check .` → `3 errors`\n",
        ),
        # Not a check: a push, a run of the program, another repository's script.
        (
            "gh pr view 42",
            "## Test plan\n- [x] `git push`\n- [x] `/opt/tools/check.sh` passes\n"
            "- `go run ./cmd/app` works\n",
        ),
        # The same text printed by another command than a pull request view.
        ("cat NOTES.md", NODE_BODY),
        # A script the pull request adds is not on the base branch yet.
        (
            "gh pr view 42 --json body,files,number,state",
            _json(
                "## Verification\n- `script/validate.sh` → `Config validated successfully`\n",
                files=[{"path": "script/validate.sh", "additions": 9, "changeType": "ADDED"}],
            ),
        ),
        # A closed pull request that was never merged.
        ("gh pr view 42 --json body,number,state", _json(NODE_BODY, state="CLOSED")),
    ],
    ids=[
        "unticked-prose",
        "other-sections",
        "failed",
        "not-checks",
        "not-a-view",
        "added",
        "closed",
    ],
)
def test_no_recipe_from_what_the_test_plan_did_not_run_or_another_command_printed(
    command: str, output: str
) -> None:
    assert review_checks(_view(command, output)) == []


def test_a_failed_view_says_nothing() -> None:
    assert review_checks(_view("gh pr view 42", NODE_BODY, ok=False)) == []


@pytest.mark.parametrize(
    "command",
    [
        # another repository's pull request: its test plan is how that project checks a change
        "gh pr view 42 --repo someone/other-tool --json number,body,state",
        "gh pr view 42 -R someone/other-tool --json number,body,state",
        "gh pr view --repo=someone/other-tool 42 --json number,body,state",
        "gh pr view https://github.com/someone/other-tool/pull/42 --json number,body,state",
        "glab mr view 42 -R group/other-tool",
        "cd ../other-tool && gh pr view 42 --json number,body,state",
    ],
)
def test_a_pull_request_of_another_repository_says_nothing(command: str) -> None:
    assert review_checks(_view(command, _json(NODE_BODY))) == []


@pytest.mark.parametrize(
    "command",
    [
        "gh pr view 42 --repo someone/app --json number,body,state",
        "gh pr view https://github.com/someone/app/pull/42 --json number,body,state",
        "glab mr view 42 -R https://gitlab.com/group/app.git",
    ],
)
def test_a_repository_named_like_the_project_folder_is_the_projects_own(command: str) -> None:
    (found,) = review_checks(_view(command, _json(NODE_BODY)))

    assert "`npm test`" in found.content
