"""The project's language, test framework and checks, as the assistant listed them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.stack_summary import facet_of, stack_summary
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"

OVERVIEW = """I've read the notes. Here's the picture:

## Technology Stack

- **Runtime**: Node.js ≥22, TypeScript 5.4 (ES2023)
- **CLI**: Commander.js, Clack prompts
- **Testing**: Vitest 3.1 (integration tests first)

## Build System

- **TypeScript**: ES2022 target with NodeNext modules
- **Pre-commit Hooks**: lint-staged + Gitleaks secrets detection
- **CI Pipeline**: `npm run ci` → licence check + lint + build + tests
"""


def _read_then_said(text: str) -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("Read the notes and tell me how this project is set up.")
    session.read("NOTES.md", "# Ledger\n")
    session.say(text)
    return session


@pytest.mark.parametrize(
    ("label", "text", "facet"),
    [
        ("Runtime", "Python 3.12+, managed with uv", "language"),
        ("Language", "Go 1.22", "language"),
        ("Swift", "Swift 5.9 toolchain, Swift Package Manager", "language"),
        ("🧪 Testing", "RSpec with FactoryBot; request specs for the API", "tests"),
        ("Tests", "`mix test` runs ExUnit with the database sandbox", "tests"),
        ("Test framework", "testthat, run through `devtools::test()`", "tests"),
        ("Quality", "Credo and Dialyzer in CI", "checks"),
        ("CI", "`cargo clippy -- -D warnings` and `cargo test` on every push", "checks"),
    ],
)
def test_a_labelled_facet_naming_its_tool_is_kept(label: str, text: str, facet: str) -> None:
    assert facet_of(label, text) == facet


@pytest.mark.parametrize(
    ("label", "text"),
    [
        ("Testing", "Add unit tests for the importer"),  # names no runner: a plan
        ("Testing", "We should add pytest coverage for the importer"),  # a person, a plan
        ("Testing", "pytest will run in CI once the fixtures exist"),  # a plan
        ("CI", "Runs on every push"),  # names no command or tool
        ("Quality", "Maybe ESLint is misconfigured?"),  # a question, a hedge
        ("Python", "used by two helper scripts in tools/"),  # where it appears, not the stack
        ("Runtime", "fast enough for the import job"),  # names no language or version
        ("CLI", "Commander.js, Clack prompts"),  # not a facet
    ],
)
def test_other_labelled_items_are_no_facet(label: str, text: str) -> None:
    assert facet_of(label, text) is None


def test_each_facet_is_one_memory_with_its_items_in_order() -> None:
    session = _read_then_said(OVERVIEW)
    found = {p.key: p.content for p in stack_summary(session.events)}
    assert found == {
        "stack:language": "The project's language and runtime, as the assistant summarised it: "
        "Runtime: Node.js ≥22, TypeScript 5.4 (ES2023); TypeScript: ES2022 target with NodeNext "
        "modules.",
        "stack:tests": "How the project is tested, as the assistant summarised it: Testing: "
        "Vitest 3.1 (integration tests first).",
        "stack:checks": "The checks a change passes, as the assistant summarised them: "
        "Pre-commit Hooks: lint-staged + Gitleaks secrets detection; CI Pipeline: `npm run ci` "
        "→ licence check + lint + build + tests.",
    }


def test_a_summary_before_anything_was_read_is_not_kept() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("What stack would you pick for a ledger?")
    session.say(OVERVIEW)
    assert stack_summary(session.events) == []


@pytest.mark.parametrize(
    "heading", ["## Proposed Stack", "## Implementation Plan", "**Recommended Changes:**"]
)
def test_items_under_a_heading_about_what_may_be_built_are_not_kept(heading: str) -> None:
    session = _read_then_said(f"{heading}\n\n- **Testing**: Vitest 3.1\n- **CI**: `npm run ci`\n")
    assert stack_summary(session.events) == []


def test_items_in_a_code_block_are_not_kept() -> None:
    session = _read_then_said("```md\n- **Testing**: Vitest 3.1\n```\n")
    assert stack_summary(session.events) == []


async def test_the_rules_extractor_keeps_what_the_commands_did_not_say() -> None:
    session = _read_then_said(OVERVIEW)
    session.run("npx vitest run", 0, "Test Files  12 passed (12)\n")
    session.run("npx vitest run", 0, "Test Files  12 passed (12)\n")
    (episode,) = segment_episodes(session.events, now=T0 + timedelta(days=1))
    found = {
        c.key: c
        for c in await RulesExtractor().extract(episode, session.events)
        if c.key.startswith("stack:")
    }
    # The test command ran and passed twice: it says how the project is tested.
    assert sorted(found) == ["stack:checks", "stack:language"]
    assert all("stack" in c.tags for c in found.values())
    # Only a listed test command is a recipe: the checks and the language are facts.
    assert {c.type for c in found.values()} == {MemoryType.PROJECT_FACT}


@pytest.mark.parametrize(
    ("listed", "kind"),
    [
        ("- **Testing**: `bundle exec rspec` with FactoryBot", MemoryType.RECIPE),
        ("- **Testing**: RSpec with FactoryBot", MemoryType.PROJECT_FACT),
        ("- **Testing**: RSpec, see `spec/support/factories.rb`", MemoryType.PROJECT_FACT),
    ],
)
async def test_a_listed_test_command_is_a_recipe_and_a_runner_name_a_fact(
    listed: str, kind: MemoryType
) -> None:
    session = _read_then_said(f"## Stack\n\n{listed}\n")
    (episode,) = segment_episodes(session.events, now=T0 + timedelta(days=1))
    (tests,) = [
        c for c in await RulesExtractor().extract(episode, session.events) if c.key == "stack:tests"
    ]
    assert tests.type is kind
