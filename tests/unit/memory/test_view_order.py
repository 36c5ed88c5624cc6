"""Which memories the views show first (squirrel_memory.view_order), on made-up memories."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope
from squirrel_memory.view_order import (
    EVIDENCE_CAP,
    brief_order,
    by_usefulness,
    evidence,
    fact_group,
    usefulness,
)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def item(
    key: str,
    importance: float = 0.5,
    *,
    events: int = 0,
    refs: int = 0,
    version: int = 1,
    age_days: float = 0.0,
    source: MemorySource = MemorySource.RULES,
    tags: tuple[str, ...] = (),
    kind: MemoryType = MemoryType.PROJECT_FACT,
) -> MemoryItem:
    when = T0 - timedelta(days=age_days)
    return MemoryItem(
        id=f"id-{key}",
        project_id="/repo",
        user_id=None,
        scope=Scope.PROJECT,
        type=kind,
        key=key,
        content=f"About {key}.",
        tags=tags,
        importance=importance,
        created_at=when,
        updated_at=when,
        source=source,
        source_event_ids=tuple(f"e{n}" for n in range(events)),
        source_refs=tuple(f"mix.exs:{n}" for n in range(refs)),
        version=version,
    )


def keys(items: list[MemoryItem]) -> list[str]:
    return [i.key for i in items]


def test_evidence_counts_events_references_and_re_observations() -> None:
    assert evidence(item("a")) == 0
    assert evidence(item("a", events=3, refs=2, version=4)) == 8


def test_importance_leads_and_evidence_settles_close_calls() -> None:
    ranked = by_usefulness(
        [
            item("seen_once", 0.6, events=1),
            item("seen_often", 0.6, events=12),
            item("important", 0.9),
            item("minor_but_everywhere", 0.4, events=500, refs=50),
        ]
    )
    assert keys(ranked) == ["important", "seen_often", "seen_once", "minor_but_everywhere"]


def test_evidence_and_recency_never_lift_a_memory_a_quarter_of_the_scale() -> None:
    best_case = item("best", 0.5, events=10 * EVIDENCE_CAP, source=MemorySource.MANUAL)
    plain = item("plain", 0.5, age_days=10_000)
    assert usefulness(best_case, T0) - usefulness(plain, T0) < 0.25


def test_recency_is_measured_against_the_newest_memory_not_the_clock() -> None:
    old_pair = [item("older", 0.5, age_days=400), item("newer", 0.5, age_days=300)]
    assert keys(by_usefulness(old_pair)) == ["newer", "older"]
    # A year-old project ranks as it did when it was fresh.
    assert usefulness(old_pair[1], old_pair[1].updated_at) == usefulness(item("x", 0.5), T0)


def test_a_memory_the_user_wrote_wins_a_tie() -> None:
    ranked = by_usefulness([item("auto", 0.5), item("mine", 0.5, source=MemorySource.MANUAL)])
    assert keys(ranked) == ["mine", "auto"]


def test_ties_are_deterministic() -> None:
    same = [item("b"), item("a"), item("c")]
    assert keys(by_usefulness(same)) == keys(by_usefulness(list(reversed(same)))) == ["a", "b", "c"]
    assert by_usefulness([]) == []


def test_fact_groups_come_from_key_segments_and_tags() -> None:
    assert fact_group(item("overview")) == 0
    assert fact_group(item("repo:purpose")) == 0
    assert fact_group(item("language")) == 1
    assert fact_group(item("repo:languages", tags=("framework",))) == 1
    assert fact_group(item("repo:framework:phoenix")) == 2
    assert fact_group(item("runtime")) == 2
    assert fact_group(item("whatever", tags=("database",))) == 3
    assert fact_group(item("libraries")) == 3
    assert fact_group(item("test_command")) == 4
    assert fact_group(item("dev_server")) == 4
    assert fact_group(item("ci")) == 4
    assert fact_group(item("module:auth")) == 5
    assert fact_group(item("entry_point_notes")) == 5


def test_the_brief_leads_with_what_the_project_is_and_its_stack() -> None:
    facts = [
        item("module:auth", 0.9),
        item("test_command", 0.8),
        item("libraries", 0.5),
        item("framework", 0.95),
        item("language", 0.6),
        item("overview", 0.4),
        item("naming", 0.7),
    ]
    assert keys(brief_order(facts)) == [
        "overview",
        "language",
        "framework",
        "libraries",
        "test_command",
        "module:auth",
        "naming",
    ]
