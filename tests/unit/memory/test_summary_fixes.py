"""A failure and its fix told in a continued conversation's summary ("Errors and fixes") become
a pitfall; a correction of a proposal, a fix still to do, a slip with no failure named, a
summary with no error and a fix the continued session shows failing again do not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.summary_fixes import summary_fixes
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/atlas"

ITEM = (
    "   - **Release build failing**:\n"
    "     - Error: `mix release` failing with `** (Mix) Could not find an app called :telemetry`\n"
    "     - Fix: Added `:telemetry` to `extra_applications` in `mix.exs`\n"
)


def _summary(errors: str, heading: str = "4. Errors and fixes:") -> str:
    return (
        "This session is being continued from a previous conversation that ran out of context. "
        "The conversation is summarized below:\nSummary:\n"
        "1. Primary Request and Intent:\n   Ship the release.\n\n"
        f"{heading}\n{errors}\n"
        "5. Problem Solving:\n   - Error: `mix test` failing with a timeout\n"
        "   - Fix: Raised the timeout\n\n"
        '6. All user messages:\n   - "ship it"\n'
    )


def _continued(errors: str, heading: str = "4. Errors and fixes:") -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("compaction_summary", {"text": _summary(errors, heading)}, origin="compaction")
    session.say("Continuing with the release notes.")
    return session


def test_an_error_and_its_fix_in_the_summary_are_one_lesson() -> None:
    found = summary_fixes(_continued(ITEM).events)

    assert [f.content for f in found] == [
        "`mix release` failing with `** (Mix) Could not find an app called :telemetry`; the fix: "
        "added `:telemetry` to `extra_applications` in `mix.exs`."
    ]
    assert found[0].event_ids == ("s1_0001",)
    assert not found[0].variant


def test_a_markdown_heading_and_a_plain_user_message_summary_count_too() -> None:
    session = Session(ROOT, "s1", T0)
    text = _summary(ITEM, "## Errors and Fixes").replace("5. Problem", "## Problem")
    session.add("user_message", {"text": text}, origin="compaction")

    assert len(summary_fixes(session.events)) == 1


def test_the_rules_extractor_keeps_it_as_a_pitfall() -> None:
    kept = [c for c in _continued(ITEM).extracted() if "summary" in c.tags]

    assert [c.type for c in kept] == [MemoryType.PITFALL]
    assert "fix:variant" not in kept[0].tags


def test_a_fix_that_runs_the_command_another_way_says_how_it_is_run() -> None:
    item = (
        "   - **Publish refused**:\n"
        "     - Error: `npm publish` failed with `E402 Payment Required`\n"
        "     - Fix: Published with `npm publish --access public`\n"
    )
    kept = [c for c in _continued(item).extracted() if "summary" in c.tags]

    assert len(kept) == 1
    assert "fix:variant" in kept[0].tags


@pytest.mark.parametrize(
    "errors",
    [
        # the user's correction of a proposal
        ITEM.replace("     - Fix:", '     - User feedback: "not like that"\n     - Fix:'),
        # a fix still to do
        ITEM.replace("Added `:telemetry`", "Need to add `:telemetry`"),
        ITEM.replace("in `mix.exs`", "in `mix.exs` (not done yet)"),
        # a guess
        ITEM.replace("Added `:telemetry`", "Probably adding `:telemetry` helps, added it"),
        # no failure of anything named: the assistant's own slip
        "   - **Misread**:\n     - Error: Renamed the module instead of the app at first\n"
        "     - Fix: Renamed the app\n",
        # the assistant's own edit tool failing
        "   - **Edit failed**:\n     - Error: `Edit` failed, old_string not found in `mix.exs`\n"
        "     - Fix: Read the file again and retried\n",
        # no error at all
        "   - No errors were encountered; `mix test` passed throughout.\n",
        # an error with no fix
        "   - **Slow tests**:\n     - Error: `mix test` failing with a timeout in CI\n",
    ],
)
def test_no_lesson_without_a_made_fix_of_a_named_failure(errors: str) -> None:
    assert summary_fixes(_continued(errors).events) == []


def test_the_same_failure_again_in_the_continued_session_takes_it_back() -> None:
    session = _continued(ITEM)
    session.run("mix release", 1, "** (Mix) Could not find an app called :telemetry")

    assert summary_fixes(session.events) == []


def test_a_passing_run_of_the_command_keeps_it() -> None:
    session = _continued(ITEM)
    session.run("mix release", 0, "* assembling atlas-0.1.0 on MIX_ENV=prod\nRelease created")

    assert len(summary_fixes(session.events)) == 1


def test_outside_the_errors_part_or_outside_a_summary_nothing_is_read() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "4. Errors and fixes:\n" + ITEM}, origin="typed")
    session.say("4. Errors and fixes:\n" + ITEM)

    assert summary_fixes(session.events) == []
    # "5. Problem Solving" of `_summary` holds an Error/Fix pair too: not read
    assert len(summary_fixes(_continued(ITEM).events)) == 1


def test_a_summary_repeated_in_the_next_continuation_is_one_lesson() -> None:
    session = _continued(ITEM)
    session.add("compaction_summary", {"text": _summary(ITEM)}, origin="compaction")

    assert len(summary_fixes(session.events)) == 1


def test_a_markdown_part_with_sub_headings_reads_each_item_to_the_next_part() -> None:
    errors = (
        "### Error 1: release\n"
        "- Error: `mix release` failing with `Could not find an app called :telemetry`\n"
        "- Fix: Added `:telemetry` to `extra_applications`\n\n"
        "### Error 2: proposal\n"
        "- **What happened**: Proposed a Redis cache\n"
        '- **User feedback**: "no redis"\n'
        "- **Fix**: Kept ETS\n"
    )
    text = _summary(errors, "## 4. Errors and Fixes:").replace("5. Problem", "## 5. Problem")
    session = Session(ROOT, "s1", T0)
    session.add("compaction_summary", {"text": text}, origin="compaction")

    found = summary_fixes(session.events)

    assert [f.content.split(";")[0] for f in found] == [
        "`mix release` failing with `Could not find an app called :telemetry`"
    ]
