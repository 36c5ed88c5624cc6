"""The project's files as its root README or instruction file draws them in a layout block."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.drawn_files import drawn_files
from squirrel_memory.extractors.touched_languages import (
    DRAWN_PREFIX,
    PREFIX,
    SEARCHED_PREFIX,
    merged_statement,
)
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

INDENTED = """# pulse

```
pulse.lua              entry point (thin global hooks)
lib/
  app.lua              init, params, grid
  voices/
    midi.lua           MIDI voice
spec/
  app_spec.lua         busted specs
```
"""

TREE = """# ferry

```text
ferry/
├── src/
│   ├── main.rs        entry point
│   └── handlers/
│       └── upload.rs
├── benches/
│   └── upload.rs
└── Cargo.toml
```
"""


@pytest.mark.parametrize(
    ("text", "project", "files"),
    [
        (
            INDENTED,
            "pulse",
            ["pulse.lua", "lib/app.lua", "lib/voices/midi.lua", "spec/app_spec.lua"],
        ),
        (
            TREE,
            "ferry",
            ["src/main.rs", "src/handlers/upload.rs", "benches/upload.rs", "Cargo.toml"],
        ),
    ],
    ids=["lua-indented", "rust-tree"],
)
def test_a_layout_block_gives_its_files_under_their_folders(
    text: str, project: str, files: list[str]
) -> None:
    assert drawn_files(text, project) == files


def test_code_shell_and_table_blocks_and_lone_names_draw_nothing() -> None:
    text = (
        "```bash\n./scripts/build.sh\nmake test\n```\n\n"
        '```lua\nlocal app = require("lib/app")\n-- main.lua (entry)\n```\n\n'
        "```\nRows 1-7: step data\n  1-4    select track\n  6      trigger page\n```\n\n"
        "```\nsetup.py\n```\n\n"
        "Outside a block: `lib/app.lua   init`\n"
    )
    assert drawn_files(text, "pulse") == []


def test_a_tree_drawn_under_another_projects_root_keeps_that_folder() -> None:
    text = "```\nold-name/\n  main.go     entry point\n  store.go    the store\n```\n"
    assert drawn_files(text, "ferry") == ["old-name/main.go", "old-name/store.go"]


def _language(session: Session) -> list[str]:
    return [c.content for c in session.extracted() if c.key == "language"]


def test_code_the_session_touched_outweighs_what_the_readme_draws() -> None:
    session = Session("/home/dev/ferry", "ferry", T0)
    session.user("Fix the upload handler.")
    session.read("README.md", "# ferry\n\n```\nferry.py      entry\nlib/\n  a.py  one\n```\n")
    session.edit_lines("src/main.rs", "old", "new")
    session.edit_lines("src/upload.rs", "old", "new")

    assert _language(session) == [PREFIX + "Rust (2 files: `src/main.rs`, `src/upload.rs`)."]


def test_a_template_or_dependency_readme_draws_nothing_of_the_project() -> None:
    session = Session("/home/dev/pulse", "pulse", T0)
    session.user("Write the constitution from the template.")
    drawn = "```\ntests/\n  unit/test_a.py   unit tests\n  unit/test_b.py   more\n```\n"
    session.read("templates/README.md", drawn)
    session.read("deps/parser/README.md", drawn)

    assert _language(session) == []


def test_a_drawn_statement_never_replaces_one_counted_from_files_seen() -> None:
    drawn = DRAWN_PREFIX + "Python (4 files)."
    searched = SEARCHED_PREFIX + "Lua (3 files)."
    touched = PREFIX + "Lua (2 files: `a.lua`, `b.lua`)."

    assert merged_statement(searched, drawn) == searched
    assert merged_statement(drawn, touched) == touched
    assert merged_statement(drawn, DRAWN_PREFIX + "Python (5 files).") == (
        DRAWN_PREFIX + "Python (5 files)."
    )
