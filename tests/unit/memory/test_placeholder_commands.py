"""A document's command with a placeholder and, in the same shell block, two or more runs of
it with one value in the placeholder's place is a recipe of that shape; a placeholder without
examples, examples of another shape and text only an edit wrote are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.placeholder_commands import placeholder_commands, shapes
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/orbit"  # a workspace of several packages

BLOCK = """## Tests

```bash
# Run with: make check PKG=<package>
make check PKG=core
make check PKG=api
make check PKG=cli
```
"""


def test_a_placeholder_with_examples_read_in_an_instruction_file_is_a_recipe() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("AGENTS.md", BLOCK)

    (found,) = placeholder_commands(session.events)

    assert found.content == (
        "`AGENTS.md` gives `make check PKG=<package>`, run once per `<package>`: "
        "`make check PKG=core`, `make check PKG=api` and `make check PKG=cli`."
    )
    kept = [c for c in session.extracted() if c.key == found.key]
    assert [c.type for c in kept] == [MemoryType.RECIPE]


def test_a_sub_folder_file_an_edit_kept_counts() -> None:
    session = Session(ROOT, "s1", T0)
    before = BLOCK + "\nSee the README.\n"
    session.edit_lines("services/CLAUDE.md", before, BLOCK + "\nSee the README for more.\n")

    (found,) = placeholder_commands(session.events)

    assert found.content.startswith("`services/CLAUDE.md` gives `make check PKG=<package>`")


def test_lines_an_edit_wrote_or_removed_say_nothing() -> None:
    written = Session(ROOT, "s1", T0)
    written.edit_lines("CLAUDE.md", "## Tests\n", BLOCK)  # the assistant's own text
    removed = Session(ROOT, "s2", T0)
    removed.edit_lines("CLAUDE.md", BLOCK, "## Tests\n\nRun `make check`.\n")

    assert placeholder_commands(written.events) == []
    assert placeholder_commands(removed.events) == []


def test_a_file_that_is_no_project_document_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("notes/scratch.md", BLOCK)

    assert placeholder_commands(session.events) == []


@pytest.mark.parametrize(
    "block",
    [
        # a placeholder with one example
        "```sh\ncargo test -p <crate>\ncargo test -p orbit-core\n```",
        # a placeholder alone
        "```sh\ngit clone <repository-url>\ncd orbit\nmake\n```",
        # examples that differ in more than the placeholder's word
        "```sh\n# Run: cargo test -p <crate>\ncargo test -p a --release\ncargo test -p b\n```",
        # options or other placeholders in the placeholder's place
        "```sh\nnpm test -- <file>\nnpm test -- --watch\nnpm test -- <other>\n```",
        # two placeholders
        "```sh\ndeploy <env> <region>\ndeploy prod eu\ndeploy stage us\n```",
        # not a shell block
        "```python\nrun(<name>)\nrun(a)\nrun(b)\n```",
        # a step list of different commands
        "```sh\nmake build\nmake test\nmake lint\n```",
    ],
)
def test_no_shape_without_a_placeholder_and_two_examples_of_it(block: str) -> None:
    assert shapes(block) == []


def test_examples_with_a_prompt_count() -> None:
    block = "```console\n$ just test <crate>\n$ just test core\n$ just test api\n```"

    assert shapes(block) == [("just test <crate>", ["just test core", "just test api"])]
