"""The folders a root README explains become one layout fact; bare lists, links, a single
folder, sub-folder READMEs and the host's own instruction files say nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.readme_layout import explained_folders, readme_layout
from squirrel_memory.models import StoredEvent
from tests.unit.memory.session_builder import read_result

ROOT = "/home/dev/lab"
T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _read(path: str, text: str, *, is_error: bool = False) -> list[StoredEvent]:
    return read_result(ROOT, path, text, T0 + timedelta(seconds=1), is_error=is_error)


BULLETS = """# Lab

Experiments on caching.

## Layout

- **`runs/`** — one folder per run, named by date
- `notebooks/`: exploratory notebooks, never imported
* data/ raw inputs, read-only
- `scratch/`
- See [the wiki](https://example.org/wiki/) for more
"""


def test_bulleted_folders_with_what_they_hold_make_the_fact() -> None:
    found = readme_layout(_read("README.md", BULLETS))

    assert found is not None
    assert found.content == (
        "How the folders are organised, per README.md: `runs/` one folder per run, named by "
        "date; `notebooks/` exploratory notebooks, never imported; `data/` raw inputs, "
        "read-only."
    )
    assert (found.key, found.path, found.event_ids) == ("layout", "README.md", ("e1",))


@pytest.mark.parametrize("fence", ["```", "~~~"])
def test_a_commented_tree_in_a_code_block_is_read_at_its_top_level(fence: str) -> None:
    text = (
        f"# Notes\n\n{fence}\n├── inbox/      # unsorted captures\n│   └── old/   # archive\n"
        f"├── projects/   # one note per project\n└── README.md  # this file\n{fence}\n"
    )

    assert explained_folders(text) == [
        ("inbox/", "unsorted captures"),
        ("projects/", "one note per project"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "- `src/`\n- `docs/`\n- `tests/`\n",  # names only
        "- `src/` the code\n",  # one folder
        "```\n- `src/` the code\n- `docs/` the docs\n```\n",  # bullets inside a code block
        "├── src/  # the code\n├── docs/  # the docs\n",  # a tree outside a code block
        "- `.github/` CI workflows here\n- `.vscode/` editor settings here\n",  # hidden
    ],
)
def test_no_fact_without_two_explained_folders(text: str) -> None:
    assert readme_layout(_read("README.md", text)) is None


@pytest.mark.parametrize("path", ["CLAUDE.md", "AGENTS.md", "docs/README.md", "NOTES.md"])
def test_only_the_root_readme_is_read(path: str) -> None:
    assert readme_layout(_read(path, BULLETS)) is None


def test_a_failed_read_says_nothing() -> None:
    assert readme_layout(_read("README.md", BULLETS, is_error=True)) is None


def test_a_code_package_session_has_module_facts_instead() -> None:
    events = _read("README.md", BULLETS)
    manifest = _read("pyproject.toml", '[project]\nname = "lab"\n')
    manifest = [replace(e, id="e2", hash="h2") for e in manifest]

    assert readme_layout([*events, *manifest]) is None
