"""A state of the repository the user said is deliberate (not to be undone) is a way of working:
beside a standing rule it still opens a session, marked as said once; another correction, a plain
one-off, or one too faint to be kept, waits to be asked for. The reply language is how to talk,
not a standing rule of the work: beside it alone, an instruction said once is still kept."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.firmness import CORRECTION_TAG, TENTATIVE_TAG
from squirrel_memory.extractors.wanted_ways import DELIBERATE_TAG
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope
from squirrel_memory.views.core_style import SAID_ONCE_PREFIX, core_style

NOW = datetime(2026, 12, 5, 1, 0, tzinfo=UTC)


def _style(
    key: str, content: str, *, tags: tuple[str, ...] = (), importance: float = 0.3
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


STANDING = _style("standing", "The user decided: plans live in the repository.", importance=0.7)
CORRECTED = "The user says `build/` is ignored on purpose: a deliberate choice, not to be undone."


def test_a_deliberate_state_said_once_follows_a_standing_rule() -> None:
    once = _style("once", CORRECTED, tags=(TENTATIVE_TAG, DELIBERATE_TAG, CORRECTION_TAG))
    shown = core_style([STANDING, once])
    assert [m.key for m in shown] == ["standing", "once"]
    assert shown[1].content == SAID_ONCE_PREFIX + CORRECTED


def test_the_same_words_said_as_another_correction_wait_to_be_asked_for() -> None:
    once = _style("once", CORRECTED, tags=(TENTATIVE_TAG, CORRECTION_TAG))
    assert [m.key for m in core_style([STANDING, once])] == ["standing"]


def test_a_deliberate_state_too_faint_to_be_kept_stays_out() -> None:
    faint = _style("once", CORRECTED, tags=(TENTATIVE_TAG, DELIBERATE_TAG), importance=0.1)
    assert [m.key for m in core_style([STANDING, faint])] == ["standing"]


def test_deliberate_states_still_come_after_the_standing_rule_and_at_most_two() -> None:
    said = [
        _style(f"c{n}", f"`{n}/` is kept on purpose.", tags=(TENTATIVE_TAG, DELIBERATE_TAG))
        for n in range(3)
    ]
    shown = core_style([*said, STANDING])
    assert shown[0].key == "standing"
    assert len(shown) == 3
