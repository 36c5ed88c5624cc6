"""The checks an approved plan lists under its verification heading are a recipe when no run of
the session settled them; a plan the host did not hand over, manual steps, paths of one machine
and commands the session ran with a result are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.planned_checks import planned_checks
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/evaluator"
PLAN = """Implement the following plan:

# Fix: pass `--trust` to the agent CLI

## Context

Evaluations on headless servers fail with `Workspace Trust Required`.

## Change

Add `--trust` to the base args in `src/providers/agent.ts`; run `bun run build` only if needed.

## Verification

1. `bun run test` — all tests pass
2. `bun run lint` — no lint issues
3. Open the Remediate tab and check the command shown.
"""


def _session(plan: str = PLAN, *, origin: str = "harness", sidechain: bool = False) -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": plan}, origin=origin, sidechain=sidechain)
    session.say("Let me read the file and make the change.")
    return session


def test_the_plans_checks_are_a_recipe_when_the_session_ran_none() -> None:
    found = planned_checks(_session().events)

    assert found is not None
    assert found.content == (
        "The approved plan verifies a change with: to run the tests, `bun run test`; to lint, "
        "`bun run lint`."
    )


def test_the_rules_extractor_keeps_it_as_a_recipe() -> None:
    (kept,) = [c for c in _session().extracted() if c.key == "recipe:planned_checks"]
    assert kept.type == MemoryType.RECIPE


def test_a_check_the_session_ran_with_a_result_is_left_to_its_runs() -> None:
    passed = _session()
    passed.run("bun run lint", 0, "Checked 290 files in 103ms. No fixes applied.")
    failed = _session()
    failed.run("bun run lint", 1, "error: 3 problems")
    for session in (passed, failed):
        found = planned_checks(session.events)
        assert found is not None
        assert found.content.endswith("to run the tests, `bun run test`.")


def test_a_call_whose_result_the_transcript_lost_settles_nothing() -> None:
    session = _session()
    session.add(
        "tool_call", {"tool": "Bash", "tool_use_id": "t9", "input": {"command": "bun run test"}}
    )

    found = planned_checks(session.events)
    assert found is not None and "`bun run test`" in found.content


def test_every_check_the_plan_lists_ran_gives_nothing() -> None:
    session = _session()
    session.run("bun run test", 0, "1329 pass")
    session.run("bun run lint", 0, "ok")

    assert planned_checks(session.events) is None


@pytest.mark.parametrize(
    "plan",
    [
        # The user's own message, not an approved plan handed over.
        PLAN.replace("Implement the following plan:", "Here is what I want:"),
        # No checks heading: the commands are the change's, not its verification.
        PLAN.replace("## Verification", "## Notes"),
        # Manual steps, a failure and a path of one machine are no check to run.
        PLAN.split("## Verification", maxsplit=1)[0]
        + "## Verification\n\n1. Open the app and click Run.\n"
        + "2. `bun run test` fails on `agent.test.ts` until the fixture lands.\n"
        + "3. `/Users/ann/bin/lint-all` — clean\n",
    ],
)
def test_what_is_no_plans_check(plan: str) -> None:
    assert planned_checks(_session(plan).events) is None


def test_a_plan_handed_to_a_subagent_is_not_the_sessions() -> None:
    assert planned_checks(_session(sidechain=True).events) is None


@pytest.mark.parametrize(
    "later",
    ["No, scrap this whole plan, revert the build file.", "Never mind, leave it as it was."],
)
def test_a_plan_the_user_then_drops_gives_nothing(later: str) -> None:
    session = _session()
    session.user(later)

    assert planned_checks(session.events) is None


def test_a_plan_for_another_checkout_gives_nothing() -> None:
    plan = PLAN.replace(
        "## Change\n", "## Change\n\nIn the sibling checkout `~/code/evaluator-android`:\n"
    )
    assert planned_checks(_session(plan).events) is None


def test_code_comments_and_the_hosts_transcript_note_name_no_other_place() -> None:
    plan = PLAN.replace(
        "## Verification",
        "```ts\n// Before\nconst args = [];\n// After\nconst args = ['--trust'];\n```\n\n"
        "## Verification",
    ) + (
        "\n\nIf you need specific details from before exiting plan mode, read the full "
        "transcript at: /Users/ann/.claude/projects/x/1234.jsonl"
    )
    found = planned_checks(_session(plan).events)
    assert found is not None and "`bun run test`" in found.content


def test_a_heading_that_names_more_than_the_checks_is_not_theirs() -> None:
    plan = PLAN.replace("## Verification", "## Tests to delete")
    assert planned_checks(_session(plan).events) is None


def test_a_run_of_the_check_with_more_options_settles_it() -> None:
    session = _session()
    session.run("bun run test --bail", 1, "1 fail")

    found = planned_checks(session.events)
    assert found is not None and found.content.endswith("to lint, `bun run lint`.")
