"""The stack a root instruction file or README lists under its own technology heading
(`extractors/stack_section.py`), in several ecosystems, and where it must not be stated."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from session_builder import Session

from squirrel_memory.extractors.stack_section import section_items

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/u/roster"
PHOENIX = (
    "# Roster\n\nGuidance for agents.\n\n## Tech Stack\n\n- **Phoenix 1.7** with LiveView\n"
    "- PostgreSQL through Ecto\n- Tailwind for styles (002-styles)\n\n## Commands\n\n- `mix test`\n"
)


def _said(reads: list[tuple[str, str]]) -> list[str]:
    s = Session(ROOT, "s1", START)
    s.user("Plan the team invitations page.")
    for path, text in reads:
        s.read(path, text)
    return [c.content for c in s.extracted() if c.key == "stack_section"]


def test_an_instruction_files_stack_list_is_quoted() -> None:
    assert _said([("AGENTS.md", PHOENIX)]) == [
        'The stack, as the "Tech Stack" section of AGENTS.md lists it: Phoenix 1.7 with '
        "LiveView; PostgreSQL through Ecto; Tailwind for styles."
    ]


def test_a_root_readmes_stack_paragraph_is_quoted() -> None:
    readme = "# ledger\n\nBooks postings.\n\n## Technologies\n\nKotlin on Ktor, with Exposed.\n"
    assert _said([("README.md", readme)]) == [
        'The stack, as the "Technologies" section of README.md lists it: Kotlin on Ktor, '
        "with Exposed."
    ]


def test_a_two_column_tables_rows_are_its_items() -> None:
    table = (
        "| Part | Technology |\n|------|------------|\n| API | Go with chi |\n"
        "| Store | **PostgreSQL** |\n"
    )
    assert section_items(f"# X\n\n## Tech Stack\n\n{table}\n## Next\n") == (
        "Tech Stack",
        ["API: Go with chi", "Store: PostgreSQL"],
    )
    wide = "| Part | Technology | Why |\n|---|---|---|\n| API | Go | speed |\n"
    assert section_items(f"# X\n\n## Tech Stack\n\n{wide}") is None


@pytest.mark.parametrize(
    "title",
    ["Technologies to avoid", "Stack traces", "Technical debt", "Call stack", "Tech notes"],
)
def test_a_heading_that_only_mentions_technologies_is_no_stack_section(title: str) -> None:
    assert section_items(f"# X\n\n## {title}\n\n- Rails 7\n- Redis\n") is None


@pytest.mark.parametrize(
    "items",
    [
        "- Language: [e.g., Python 3.11, Swift 5.9 or NEEDS CLARIFICATION]\n",
        "- [LANGUAGE AND VERSION]\n- Rails\n",
        "",  # an empty section
        "```\nsrc/\n```\n",  # only a fenced block
    ],
)
def test_a_templates_placeholder_or_an_empty_section_says_nothing(items: str) -> None:
    assert section_items(f"# X\n\n## Tech Stack\n\n{items}\n## Next\n\ntext\n") is None


@pytest.mark.parametrize(
    "path",
    [
        "docs/AGENTS.md",  # a sub-folder's file
        "web/README.md",  # a sub-package's README
        "node_modules/ui-kit/README.md",  # a dependency's
    ],
)
def test_a_file_not_at_the_root_says_nothing(path: str) -> None:
    assert _said([(path, PHOENIX)]) == []


def test_two_files_that_list_different_stacks_say_nothing() -> None:
    readme = "# roster\n\n## Stack\n\n- Django\n- MySQL\n"
    assert _said([("AGENTS.md", PHOENIX), ("README.md", readme)]) == []


def test_the_same_list_in_two_files_is_stated_once() -> None:
    assert len(_said([("AGENTS.md", PHOENIX), ("CLAUDE.md", PHOENIX)])) == 1


def test_a_framework_the_code_contradicts_drops_the_statement() -> None:
    agents = "# pricing\n\n## Tech Stack\n\n- Python 3.12\n- Flask for the HTTP API\n"
    fastapi = "from fastapi import FastAPI\n\napp = FastAPI()\n"
    assert _said([("AGENTS.md", agents), ("pricing/main.py", fastapi)]) == []


def test_a_confirmed_item_does_not_vouch_for_a_contradicted_one() -> None:
    agents = "# pricing\n\n## Tech Stack\n\n- FastAPI for the HTTP API\n- MySQL for quotes\n"
    fastapi = "from fastapi import FastAPI\n\napp = FastAPI()\n"
    psycopg = "import psycopg2\n\n\ndef connect(url):\n    return psycopg2.connect(url)\n"
    reads = [("AGENTS.md", agents), ("pricing/main.py", fastapi), ("pricing/db.py", psycopg)]
    assert _said(reads) == []
