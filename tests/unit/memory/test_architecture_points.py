"""How the project is built, as the assistant summarised it under an architecture heading."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.architecture import architecture_points, point_of
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"

SUMMARY = """I've read through the code. Here's the picture:

## 🎯 **Core Architecture Patterns**

1. **Plugin Pattern**: Exporters and importers are plugins, not hardcoded
2. **Lifecycle Hooks** - Importers customise exporters via hooks at run time
3. **Configuration Hierarchy**: CLI args → env vars → defaults
4. Complete separation between books and reports

## Testing

- Integration tests are preferred over unit tests
"""


@pytest.mark.parametrize(
    ("item", "said"),
    [
        (
            "**Plugin Pattern**: Exporters and importers are plugins, not hardcoded",
            "Exporters and importers are plugins, not hardcoded",
        ),
        (
            "**Routing** - Every request goes through `Ledger.Router` before a controller",
            "Every request goes through `Ledger.Router` before a controller",
        ),
        ("`BooksController` never writes to the database itself", None),
        ("Each job registers itself in `config/schedule.rb`", None),
    ],
)
def test_a_point_of_how_the_code_is_is_kept(item: str, said: str | None) -> None:
    assert point_of(item) == (said or item)


@pytest.mark.parametrize(
    "item",
    [
        "**Configuration Hierarchy**: CLI args → env vars → defaults",  # no verb
        "49,000 lines of TypeScript",  # a fragment
        "We keep the books in one table",  # a person
        "The importer will register hooks for each format",  # a plan
        "The cache probably holds stale entries",  # a hedge
        "All assets load successfully on first try!",  # an outcome
        "Is the router mounted twice?",  # a question
        "uses hooks",  # too short, no capital
    ],
)
def test_other_items_are_no_point(item: str) -> None:
    assert point_of(item) == ""


def test_points_under_an_architecture_heading_are_kept_and_others_not() -> None:
    session = Session(ROOT, "s1", T0)
    session.say(SUMMARY)
    found = architecture_points(session.events)
    assert [p.content for p in found] == [
        "How the project is built, as the assistant summarised it: "
        "Exporters and importers are plugins, not hardcoded.",
        "How the project is built, as the assistant summarised it: "
        "Importers customise exporters via hooks at run time.",
    ]
    assert all(p.event_ids == (session.events[0].id,) for p in found)


@pytest.mark.parametrize(
    "heading",
    [
        "## Architecture Design",
        "### Revised Architecture: Session Lifecycle",
        "**Proposed Architecture:**",
        "## Solution Architecture",
        "## Implementation Plan",
        "## Overview",
    ],
)
def test_a_heading_about_what_may_be_built_keeps_nothing(heading: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.say(f"{heading}\n\n- Exporters and importers are plugins, not hardcoded\n")
    assert architecture_points(session.events) == []


def test_at_most_three_points_each_once() -> None:
    items = "\n".join(f"- Module {n} owns the {n} ledger table" for n in "ABCDE")
    session = Session(ROOT, "s1", T0)
    session.say(f"## Architecture\n\n{items}\n")
    session.say("## Architecture\n\n- Module A owns the A ledger table\n")
    found = architecture_points(session.events)
    assert len(found) == 3
    assert len({p.key for p in found}) == 3


async def test_the_rules_extractor_keeps_a_point_as_a_project_fact() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Explain how the code is organised.")
    session.say(SUMMARY)
    (episode,) = segment_episodes(session.events, now=T0 + timedelta(days=1))
    found = [
        c
        for c in await RulesExtractor().extract(episode, session.events)
        if c.key.startswith("architecture:")
    ]
    assert len(found) == 2
    assert all(c.type is MemoryType.PROJECT_FACT and "architecture" in c.tags for c in found)
