"""A name is a tool a project could use when the stack or command tables name it (a dashed
program by its first part, a compound by a known part) or the session ran it; a word of a
text's numbering is none, nor a program named by a plain word the session never ran."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.tool_names import known_tool, ran_programs
from tests.unit.memory.session_builder import one_run

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "name",
    ["Go", "Node", "Node.js", "Kotlin", "Django", "Alpine", "GolangCI", "ForgeGradle", "AGP"],
)
def test_names_the_tables_know_are_tools(name: str) -> None:
    assert known_tool(name)


@pytest.mark.parametrize(
    "name", ["Section", "Table", "Figure", "Step", "Phase", "Chapter", "Task", "Build", "Just"]
)
def test_parts_of_a_text_and_plain_word_programs_are_no_tools(name: str) -> None:
    assert not known_tool(name)


def test_a_program_the_session_ran_is_a_tool() -> None:
    ran = ran_programs(
        one_run("/home/dev/notes", T0, "./just build && typst compile a.typ", 0, "").events
    )

    assert known_tool("Typst", ran)
    assert known_tool("Just", ran)
    assert not known_tool("Pandoc", ran)
