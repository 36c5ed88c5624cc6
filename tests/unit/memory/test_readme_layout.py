"""The folders a root README or instruction file explains become one layout fact; bare lists,
links, a single folder and sub-folder or dependency files say nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_core.events import LOADED_FILE, Origin
from squirrel_core.host_files import LOADED_TAG
from squirrel_memory.extractors.readme_layout import explained_folders, readme_layout
from squirrel_memory.models import StoredEvent
from tests.unit.memory.session_builder import Session, read_result

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


TREE = "├── Command/   # CLI commands (IO only)\n├── Action/    # Use-case orchestration\n"


@pytest.mark.parametrize("root", ["lab/", "./", "/"])
def test_a_tree_drawn_under_the_project_folder_names_its_top_level_folders(root: str) -> None:
    assert explained_folders(f"```\n{root}\n{TREE}```\n", "lab") == [
        ("Command/", "CLI commands (IO only)"),
        ("Action/", "Use-case orchestration"),
    ]


@pytest.mark.parametrize(("root", "touched"), [("src/", frozenset()), ("site/", {"site"})])
def test_a_tree_drawn_under_a_source_or_touched_folder_names_that_folder(
    root: str, touched: frozenset[str]
) -> None:
    assert explained_folders(f"```\n{root}\n{TREE}```\n", "lab", frozenset(touched)) == [
        (f"{root}Command/", "CLI commands (IO only)"),
        (f"{root}Action/", "Use-case orchestration"),
    ]


@pytest.mark.parametrize("root", ["oldname/", "other-lab/", "site/"])
def test_a_tree_drawn_under_another_root_states_no_folder(root: str) -> None:
    """The project's old name, another project's or a folder the session never touched: where
    the folders lie is not known; a tree after it in another code block is read again."""
    text = f"```\n{root}\n{TREE}```\n\n```\n├── docs/  # the user guide\n```\n"

    assert explained_folders(text, "lab", frozenset({"docs"})) == [("docs/", "the user guide")]


def test_the_session_s_paths_say_which_tree_root_is_the_project_s() -> None:
    text = f"# Lab\n\n```\nnotes/\n{TREE}```\n"
    events = _read("README.md", text)
    assert readme_layout(events) is None

    touched = [replace(e, file_paths=(f"{ROOT}/notes/a.md",)) for e in events[:1]]
    found = readme_layout(touched + events)
    assert found is not None
    assert "`notes/Command/` CLI commands" in found.content


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


@pytest.mark.parametrize(
    "path", ["docs/README.md", "NOTES.md", "vendor/lib/AGENTS.md", "../other/CLAUDE.md"]
)
def test_only_the_root_readme_and_instruction_files_are_read(path: str) -> None:
    assert readme_layout(_read(path, BULLETS)) is None


MODULES = """# Information for AI agents

## Module Organization
- [`core/`](core/) - Core library (loaded at startup)
- [`plugins/`](plugins/) - Optional packages, loaded on demand
- [`runtime/`](runtime/) - C runtime and code generation

## Running
Use the binary in `usr/bin`.
"""


@pytest.mark.parametrize("path", ["AGENTS.md", "CLAUDE.md"])
def test_a_root_instruction_file_s_module_list_makes_the_fact(path: str) -> None:
    found = readme_layout(_read(path, MODULES))

    assert found is not None
    assert found.content == (
        f"How the folders are organised, per {path}: `core/` Core library (loaded at startup); "
        "`plugins/` Optional packages, loaded on demand; `runtime/` C runtime and code "
        "generation."
    )


def test_a_host_loaded_instruction_file_s_layout_cites_it_for_that_host_to_leave_out() -> None:
    session = Session(ROOT, "s1", T0)
    loaded = {"text": MODULES, LOADED_FILE: f"{ROOT}/AGENTS.md"}
    session.add("user_message", loaded, ("AGENTS.md",), origin=str(Origin.HARNESS))

    found = [c for c in session.extracted() if c.key == "layout"]

    assert [(c.source_refs, LOADED_TAG in c.tags) for c in found] == [(("AGENTS.md",), True)]


def test_a_failed_read_says_nothing() -> None:
    assert readme_layout(_read("README.md", BULLETS, is_error=True)) is None


def test_a_code_package_session_has_module_facts_instead() -> None:
    events = _read("README.md", BULLETS)
    manifest = _read("pyproject.toml", '[project]\nname = "lab"\n')
    manifest = [replace(e, id="e2", hash="h2") for e in manifest]

    assert readme_layout([*events, *manifest]) is None


LUA_FILES = """# pulse

## Architecture

```
pulse.lua                entry point (thin global hooks)
lib/
  clock.lua              clock-driven step advancement
  pattern.lua            data model: steps, loops, defaults
  voices/
    midi.lua             MIDI voice backend
```
"""

RUST_FILES = """# ferry

```text
lab/
├── src/
│   ├── main.rs          starts the upload server
│   ├── upload.rs        # streams a file to the bucket
│   └── retry.rs         // backoff between attempts
└── Cargo.lock
```
"""


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            LUA_FILES,
            "`pulse.lua` entry point (thin global hooks); `lib/clock.lua` clock-driven step "
            "advancement; `lib/pattern.lua` data model: steps, loops, defaults; "
            "`lib/voices/midi.lua` MIDI voice backend",
        ),
        (
            RUST_FILES,
            "`src/main.rs` starts the upload server; `src/upload.rs` streams a file to the "
            "bucket; `src/retry.rs` backoff between attempts",
        ),
    ],
    ids=["lua-indented", "rust-tree"],
)
def test_files_a_layout_block_explains_make_the_fact_without_explained_folders(
    text: str, shown: str
) -> None:
    found = readme_layout(_read("README.md", text))

    assert found is not None
    assert found.content == f"What the files do, per README.md: {shown}."


@pytest.mark.parametrize(
    "text",
    [
        # Two explained files only; the rest are bare names.
        "```\nmain.go      entry point\nstore.go     the store\nlib/\n  a.go\n  b.go\n```\n",
        # A shell block and a code block: commands and code, not a layout.
        "```bash\nmain.go      entry point\nstore.go     the store\nweb.go   the routes\n```\n",
        '```lua\nlocal a = require("a")  -- the app\nlocal b = 1  -- a value\n```\n',
    ],
    ids=["two-files", "shell-block", "code-block"],
)
def test_no_file_layout_without_three_explained_files_in_a_plain_block(text: str) -> None:
    assert readme_layout(_read("README.md", text)) is None


def test_a_code_package_session_gets_no_file_layout_either() -> None:
    events = _read("README.md", LUA_FILES)
    manifest = _read("pulse-1.0-1.rockspec", 'package = "pulse"\nversion = "1.0-1"\n')
    manifest = [replace(e, id="e2", hash="h2") for e in manifest]

    assert readme_layout([*events, *manifest]) is None
