"""How long the assistant's replies should be is a way of working: said once beside a standing
rule, it still opens a session; the length of code, names or files is a one-off like any other."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.firmness import TENTATIVE_TAG
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope
from squirrel_memory.views.core_style import SAID_ONCE_PREFIX, core_style

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def _style(
    key: str, content: str, *, tags: tuple[str, ...] = (), importance: float = 0.6
) -> MemoryItem:
    return MemoryItem(
        id=f"mem_{key}",
        project_id="/p",
        user_id=None,
        scope=Scope.PROJECT,
        type=MemoryType.USER_STYLE,
        key=key,
        content=content,
        tags=tags,
        importance=importance,
        created_at=NOW,
        updated_at=NOW,
        source=MemorySource.RULES,
    )


STANDING = _style(
    "standing", "Your standing job is to keep track of the loose threads.", importance=0.8
)


@pytest.mark.parametrize(
    "text",
    [
        "Keep your console outputs terse, to avoid a wall of text failure mode.",
        "Keep your answers short.",
        "Please answer briefly.",
        "No wall of text, please.",
        "Make your replies more concise.",
        "Responses should be brief.",
    ],
)
def test_the_length_of_replies_said_once_follows_a_standing_rule(text: str) -> None:
    shown = core_style([STANDING, _style("once", text, tags=(TENTATIVE_TAG,))])
    assert [m.key for m in shown] == ["standing", "once"]
    assert shown[1].content == SAID_ONCE_PREFIX + text


@pytest.mark.parametrize(
    "text",
    [
        "Keep functions short.",
        "Use short variable names in the parser.",
        "Write a concise docstring for the cache module.",
        "The commit message must be in English.",
        "Keep commit messages short.",
        "Keep the log output of the build short.",
        "The CLI should print terse output.",
        "A short summary line in the commit, then the details.",
        "Performance is crucial.",
    ],
)
def test_other_one_offs_beside_a_standing_rule_wait_to_be_asked_for(text: str) -> None:
    shown = core_style([STANDING, _style("once", text, tags=(TENTATIVE_TAG,))])
    assert [m.key for m in shown] == ["standing"]


def test_a_reply_length_said_once_but_not_stressed_stays_out() -> None:
    quiet = _style("once", "Keep your answers short.", tags=(TENTATIVE_TAG,), importance=0.1)
    assert [m.key for m in core_style([STANDING, quiet])] == ["standing"]
