"""An approved fix plan the session carried out is a lesson: what broke, why, the change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.approved_fixes import approved_fixes
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/app"

PLAN = """Implement the following plan:

# Fix: Pass `--no-sandbox` to the headless browser in CI

## Context

The browser refuses to start as root inside the CI container. Every screenshot job fails with:

```
[0601/090000.123:FATAL:zygote_host_impl_linux.cc(127)] Running as root without --no-sandbox is not supported.
```

## Change

**File:** `src/render/browser.ts` (line 12)

Add `--no-sandbox` to the launch args.

## Verification

1. `npm test`
"""


def _session(plan: str, *, edited: str = "src/render/browser.ts") -> Session:
    s = Session(ROOT, "s1", T0)
    s.user(plan)
    s.say("Let me read the file and make the change.")
    s.edit_lines(edited, "args: []", "args: ['--no-sandbox']")
    s.run("npm test", 0, "12 passing")
    s.say("Done: the browser now starts with --no-sandbox.")
    return s


def test_a_fix_plan_carried_out_is_a_pitfall_with_its_cause_error_and_change() -> None:
    (fix,) = approved_fixes(_session(PLAN).events)
    assert fix.content == (
        "The browser refuses to start as root inside the CI container "
        "(`[0601/090000.123:FATAL:zygote_host_impl_linux.cc(127)] Running as root without "
        "--no-sandbox is not supported.`); the fix (an approved plan, carried out in the "
        "session): pass `--no-sandbox` to the headless browser in CI in `src/render/browser.ts`."
    )
    assert fix.files == ("src/render/browser.ts",)
    [memory] = [c for c in _session(PLAN).extracted() if c.key == fix.key]
    assert memory.type is MemoryType.PITFALL


def test_a_fix_plan_in_another_ecosystem_without_an_error_block() -> None:
    plan = (
        "Implement the following plan:\n\n# Bugfix - Keep the session cookie on redirects\n\n"
        "## Problem\n\nThe login controller drops the `Set-Cookie` header when it redirects, "
        "so users are logged out after signing in.\n\n## Change\n\n- `lib/app_web/auth.ex`: "
        "keep the header.\n"
    )
    (fix,) = approved_fixes(_session(plan, edited="lib/app_web/auth.ex").events)
    assert fix.content.startswith("The login controller drops the `Set-Cookie` header when")
    assert fix.content.endswith("keep the session cookie on redirects in `lib/app_web/auth.ex`.")


@pytest.mark.parametrize(
    ("plan", "edited"),
    [
        # not a fix: a feature or a refactor plan says no lesson
        (PLAN.replace("# Fix: Pass", "# Add: Pass"), "src/render/browser.ts"),
        # the file the plan names was never changed: not carried out here
        (PLAN, "src/other.ts"),
        # no context to say why
        (
            PLAN.replace("## Context", "## Notes"),
            "src/render/browser.ts",
        ),
        # a plan for another checkout
        (
            PLAN.replace("## Change", "## Change\n\nThe same in `../web/` too.\n"),
            "src/render/browser.ts",
        ),
        # the user typed the words, no plan hand-off
        (
            PLAN.replace("Implement the following plan:", "Here is what I think:"),
            "src/render/browser.ts",
        ),
    ],
)
def test_what_is_no_carried_out_fix_plan_says_nothing(plan: str, edited: str) -> None:
    assert approved_fixes(_session(plan, edited=edited).events) == []


def test_a_plan_the_user_dropped_says_nothing() -> None:
    s = _session(PLAN)
    s.user("scrap this whole plan, we'll run the jobs as a user instead")
    assert approved_fixes(s.events) == []


def test_a_context_that_opens_on_a_list_is_no_sentence() -> None:
    plan = PLAN.replace("The browser refuses", "- The browser refuses")
    assert approved_fixes(_session(plan).events) == []
