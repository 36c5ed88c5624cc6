"""What the project is, from a project document's labelled lines (a context note, a brief, a
PRD): kept when its name line names this project and its description line says what it is, in
any ecosystem; never from another project's document, a feature's brief, a template or a past
description."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.about import session_about
from squirrel_memory.extractors.labelled_docs import labelled_about, names_project
from tests.unit.memory.test_session_about import _numbered, _reads

CONTEXT = """# Shop - Project Context

## Overview
**Project Name**: Shop Floor
**Vision**: A point-of-sale app for small bakeries that works offline and syncs at night.
**Current Phase**: beta
"""


@pytest.mark.parametrize(
    ("text", "folder", "name"),
    [
        (CONTEXT, "shop", "Shop Floor"),  # TypeScript or any: the name's first word
        (
            "Project: Fernleaf\nDescription: A command-line tool that renames photos.\n",
            "fernleaf",
            "Fernleaf",
        ),  # Python
        (
            "# PRD\n\n**Name:** Packrat\n**Purpose:** An Android app that keeps packing lists.\n",
            "packrat",
            "Packrat",
        ),  # Kotlin: the colon inside the bold
        (
            "- **Project Name**: Tide Water\n- **Summary**: A status page service for small teams.\n",
            "tide-water",
            "Tide Water",
        ),  # Elixir: a list, a folder with a hyphen
    ],
)
def test_a_document_naming_this_project_says_what_it_is(text: str, folder: str, name: str) -> None:
    found = labelled_about(text, folder)

    assert found is not None and found[0] == name
    assert found[1].startswith("A") and found[1].endswith(".")


@pytest.mark.parametrize(
    ("text", "folder"),
    [
        # another project's document
        (
            "**Project Name**: Ledgerline\n**Vision**: A double-entry ledger service for payments.\n",
            "gateway",
        ),
        # a feature's brief: no project name
        (
            "**Feature Name**: Dark mode\n**Description**: A toggle that switches the app to dark.\n",
            "larder",
        ),
        # a template's placeholders
        (
            "**Project Name**: [Your project name]\n**Vision**: [One sentence on what it is]\n",
            "meshkit",
        ),
        (
            "**Project Name**: meshkit\n**Vision**: <what the project does, in one sentence>\n",
            "meshkit",
        ),
        # a past or former description
        (
            "**Project Name**: Quill\n**Description**: Originally a Markdown blog engine for teams.\n",
            "quill",
        ),
        (
            "**Project Name**: Quill\n**Description**: A blog engine; it is no longer that at all.\n",
            "quill",
        ),
        # a description that asks, not describes, or says too little
        (
            "**Project Name**: Quill\n**Description**: A rule: always run the linter first.\n",
            "quill",
        ),
        ("**Project Name**: Quill\n**Description**: A blog engine.\n", "quill"),
        (
            "**Project Name**: Quill\n**Description**: Rewrites the Markdown parser in Rust.\n",
            "quill",
        ),
    ],
)
def test_a_document_that_does_not_describe_this_project_says_nothing(
    text: str, folder: str
) -> None:
    assert labelled_about(text, folder) is None


def test_the_name_is_the_folders_as_letters_and_digits() -> None:
    assert names_project("Attio MCP Server", "attio-mcp-server")
    assert names_project("Puka Reading Tracker", "puka")
    assert not names_project("Billing Service", "gateway")
    assert not names_project("Shop", "")


def test_a_project_document_read_in_the_session_says_what_the_project_is() -> None:
    found = session_about(_reads(("docs/context.md", _numbered(CONTEXT))))

    assert found is not None
    text, source, _ids = found
    assert source == "docs/context.md"
    assert text == (
        "What this project (Shop Floor) is and does, per its docs/context.md: A point-of-sale "
        "app for small bakeries that works offline and syncs at night."
    )


def test_a_dependency_or_a_code_file_says_nothing() -> None:
    assert session_about(_reads(("node_modules/shop/CONTEXT.md", _numbered(CONTEXT)))) is None
    assert session_about(_reads(("src/context.py", _numbered(CONTEXT)))) is None
    assert session_about(_reads((".claude/agents/shop.md", _numbered(CONTEXT)))) is None
    assert session_about(_reads(("CONTEXT", _numbered(CONTEXT)))) is None
