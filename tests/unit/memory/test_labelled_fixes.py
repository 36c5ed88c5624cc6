"""A problem and its fix the assistant set out under labels become a pitfall; a proposal, a
question, a guess, a note written and a fix the session never saw or made do not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.labelled_fixes import labelled_fixes
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/feeds"

REVIEW = (
    "Yes, this pull request fixes a real bug.\n\n"
    "**The Bug:** Channels are flushed in batches of 100 (`CHANNEL_BATCH_SIZE`). When fewer "
    "remain, they stay in the buffer while the first full batch of programmes is sent.\n\n"
    "**The Fix:** Adding `this.flushChannels()` before `this.flushPrograms()` delivers the "
    "remaining channels first. It costs nothing once the buffer is empty.\n"
)
DIFF = "+            this.flushChannels();\n             this.flushPrograms();\n"


def _reviewed(reply: str, shown: str = DIFF) -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Does this PR make sense?"}, origin="typed")
    session.add("tool_call", {"tool": "Bash", "input": {"command": "gh pr diff 803"}})
    session.add("tool_result", {"tool": "Bash", "output": shown})
    session.say(reply)
    return session


def test_a_labelled_bug_and_the_fix_the_diff_shows_are_one_lesson() -> None:
    found = labelled_fixes(_reviewed(REVIEW).events)

    assert [f.content for f in found] == [
        "Channels are flushed in batches of 100 (`CHANNEL_BATCH_SIZE`). When fewer remain, they "
        "stay in the buffer while the first full batch of programmes is sent; the fix: adding "
        "`this.flushChannels()` before `this.flushPrograms()` delivers the remaining channels "
        "first."
    ]
    assert found[0].event_ids == ("s1_0004",)


def test_the_rules_extractor_keeps_it_as_a_pitfall() -> None:
    kept = [c for c in _reviewed(REVIEW).extracted() if "labelled" in c.tags]

    assert [c.type for c in kept] == [MemoryType.PITFALL]


def test_a_fix_made_in_the_turn_counts_without_a_diff() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "What happens if the base commit moves?"}, origin="typed")
    session.edit_lines("hooks/session.go", "base = head", "moveShadow(base, head)")
    session.say(
        "## Summary\n"
        "**Problem:** After a pull the shadow branch is left at the old commit, orphaning "
        "its checkpoints.\n"
        "**Solution:** When the base commit changes and the old shadow branch exists, move the "
        "shadow branch to the new commit.\n"
    )

    found = labelled_fixes(session.events)

    assert len(found) == 1
    assert found[0].content.endswith(
        "; the fix: when the base commit changes and the old shadow branch exists, move the "
        "shadow branch to the new commit."
    )


@pytest.mark.parametrize(
    "reply",
    [
        # a choice of changes: a proposal
        REVIEW.replace("Adding `this.flushChannels()`", "Add `this.flushChannels()` or skip"),
        # advice
        REVIEW.replace("Adding", "You should consider adding"),
        # a guess
        REVIEW.replace("Channels are flushed", "Channels are probably flushed"),
        # a question
        "**The Problem:** How do we know which channel a programme belongs to?\n"
        "**The Fix:** Adding `this.flushChannels()` before `this.flushPrograms()` helps.\n",
        # no fix label after the problem
        REVIEW.split("**The Fix:**", maxsplit=1)[0],
        # the fix before the problem: no pair
        "**The Fix:** Adding `this.flushChannels()` before `this.flushPrograms()`.\n"
        "**The Bug:** Channels are flushed in batches of 100 and some stay behind.\n",
    ],
)
def test_proposals_guesses_questions_and_lone_labels_are_not_lessons(reply: str) -> None:
    assert labelled_fixes(_reviewed(reply).events) == []


def test_a_fix_neither_made_nor_seen_is_not_kept() -> None:
    assert labelled_fixes(_reviewed(REVIEW, shown="3 files changed").events) == []


def test_a_design_note_written_is_no_fix() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Review the tracking design."}, origin="typed")
    session.write("docs/tracking.md", "# Tracking\n")
    session.say(
        "**Problem**: Session-level tracking breaks incremental updates for active sessions.\n"
        "**Solution**: Unified message-level tracking in the same metrics file.\n"
    )

    assert labelled_fixes(session.events) == []


def test_a_fix_that_opens_with_a_name_keeps_its_capitals() -> None:
    reply = REVIEW.replace(
        "**The Fix:** Adding `this.flushChannels()`",
        "**The Fix:** CI now calls `this.flushChannels()`",
    )
    [found] = labelled_fixes(_reviewed(reply).events)

    assert "; the fix: CI now calls `this.flushChannels()`" in found.content


DRIFT = (
    "This is a generated-docs drift failure, not a Rust test failure.\n\n"
    "`usage` 6.8.0 fixes rendering of optional subcommands.\n\n"
    "Fix: run `mise run render` on the PR branch and commit the resulting documentation files.\n"
)


def _asked(reply: str, question: str = "why is this failing? (the PR's checks)") -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": question}, origin="typed")
    session.run("gh run view 342 --log-failed | rg -n 'assert render|mise run render'")
    session.say(reply)
    return session


def test_an_answer_naming_the_kind_of_failure_and_its_fix_is_one_lesson() -> None:
    found = labelled_fixes(_asked(DRIFT).events)

    assert [f.content for f in found] == [
        "A failure diagnosed in a session: a generated-docs drift failure, not a Rust test "
        "failure; the fix: run `mise run render` on the PR branch and commit the resulting "
        "documentation files."
    ]


@pytest.mark.parametrize(
    ("reply", "question"),
    [
        # not asked about a failure
        (DRIFT, "what does the render task do?"),
        # the fix names nothing the session saw
        (DRIFT.replace("mise run render", "just docs"), "why is this failing?"),
        # a guess at the kind, and a fix advised rather than made
        (DRIFT.replace("This is a", "This is probably a"), "why is this failing?"),
        (DRIFT.replace("Fix: run", "Fix: you should run"), "why is this failing?"),
        # the kind is not the answer's opening line
        ("Looking at the logs.\n\n" + DRIFT, "why is this failing?"),
    ],
)
def test_no_lesson_without_trouble_evidence_or_a_plain_diagnosis(reply: str, question: str) -> None:
    assert labelled_fixes(_asked(reply, question).events) == []
