"""A convention of the project's written standards the assistant cited and an edit of the same
session applied: in any kind of file, with where it must not fire."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.cited_conventions import cited_conventions
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/docs-site"
AT = datetime(2026, 6, 1, tzinfo=UTC)
PAGE = "sources/console/billing.md"
LINE = "If your usage reaches _200$_ before the cycle ends, you are invoiced."
FIXED = "If your usage reaches _$200_ before the cycle ends, you are invoiced."


def _session(reply: str, old: str = LINE, new: str = FIXED) -> Session:
    s = Session(ROOT, "s1", AT)
    s.user("Fix typos in https://docs.example.com/console/billing")
    s.read(PAGE, f"# Billing\n\n{LINE}\n")
    s.say(reply)
    s.edit_lines(PAGE, old, new)
    return s


def test_a_cited_standard_an_edit_applied_is_a_convention_of_the_project() -> None:
    s = _session(
        "**Line 3**: `200$` should be `$200` (currency symbol should come before the amount, "
        "according to the content standards)"
    )

    (found,) = cited_conventions(s.events)

    assert found.content == (
        "Per the project's content standards: currency symbol should come before the amount "
        f"(`200$` is written `$200`; applied in `{PAGE}`)."
    )
    assert found.path == PAGE and found.key.startswith("convention:cited:")
    kept = [c for c in s.extracted() if c.key == found.key]
    assert kept and kept[0].type == MemoryType.PROJECT_FACT


@pytest.mark.parametrize(
    ("reply", "source"),
    [
        ("`getUserID` should be `getUserId`, per the style guide.", "style guide"),
        ("`getUserID` should be `getUserId` (per `CONTRIBUTING.md`).", "`CONTRIBUTING.md`"),
        ("`getUserID` should read `getUserId`, according to our naming conventions.", "naming"),
        ("`getUserID` should be `getUserId` (per the project's style guide)", "project's style"),
    ],
)
def test_a_style_guide_or_a_markdown_file_is_a_standard_too(reply: str, source: str) -> None:
    s = Session(ROOT, "s1", AT)
    s.say(reply)
    s.edit_lines("src/user.ts", "export function getUserID() {", "export function getUserId() {")

    (found,) = cited_conventions(s.events)

    assert source in found.content and "`getUserID` is written `getUserId`" in found.content
    assert "project's project's" not in found.content


@pytest.mark.parametrize(
    "reply",
    [
        "`200$` should be `$200` (it reads better)",  # no standard cited
        "`200$` should be `$200`, as you asked.",
        "Should `200$` be `$200`, per the content standards?",  # a question
        "`200$` should be `$200`, per the content standards?",
    ],
)
def test_no_standard_cited_or_a_question_says_nothing(reply: str) -> None:
    assert cited_conventions(_session(reply).events) == []


def test_a_cited_rule_no_edit_applied_exactly_says_nothing() -> None:
    reply = "`200$` should be `$200` (according to the content standards)"
    # the edit also rewrote the sentence: not the fix the citation explains
    reworded = "Once usage reaches _$200_, you are invoiced at once."
    not_applied = Session(ROOT, "s1", AT)
    not_applied.say(reply)

    assert cited_conventions(_session(reply, LINE, reworded).events) == []
    assert cited_conventions(not_applied.events) == []


def test_an_edit_before_the_citation_or_in_another_session_says_nothing() -> None:
    reply = "`200$` should be `$200` (according to the content standards)"
    before = Session(ROOT, "s1", AT)
    before.edit_lines(PAGE, LINE, FIXED)
    before.say(reply)
    other = Session(ROOT, "s2", AT)
    other.edit_lines(PAGE, LINE, FIXED)
    cited = Session(ROOT, "s1", AT)
    cited.say(reply)

    assert cited_conventions(before.events) == []
    assert cited_conventions([*cited.events, *other.events]) == []
