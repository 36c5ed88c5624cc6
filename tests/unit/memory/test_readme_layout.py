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


NESTED = """# {name}

## Layout

- `journal/` - one note per day, named by date
- `projects/` - one folder per running project

## {section}

{lead}

- `weekly/` - the weekly review questions
- `meeting/` - the notes kept for every meeting
"""


@pytest.mark.parametrize(
    ("section", "lead"),
    [
        ("Templates", "The forms live in `meta/forms/`:"),
        ("Testing", "The sample crates are located in tests/samples/ and are:"),
        ("`fixtures/inputs/`", "Each of these holds one case:"),
    ],
    ids=["code-span", "bare-path", "heading"],
)
def test_a_list_under_a_line_naming_a_folder_is_that_folder_s_not_the_root(
    section: str, lead: str
) -> None:
    text = NESTED.format(name="notes", section=section, lead=lead)
    folders = [folder for folder, _ in explained_folders(text)]
    assert folders == ["journal/", "projects/"]


@pytest.mark.parametrize(
    "lead",
    [
        "The forms are kept at the top of the vault:",
        "See https://example.org/docs/ for more; the folders are:",
        "The folders at the root (`./`):",
    ],
    ids=["plain-sentence", "url", "root"],
)
def test_a_list_under_a_line_naming_no_folder_stays_the_root_s(lead: str) -> None:
    text = NESTED.format(name="notes", section="More", lead=lead)
    folders = [folder for folder, _ in explained_folders(text)]
    assert folders == ["journal/", "projects/", "weekly/", "meeting/"]


def _listed(output: str, command: str = "ls -la") -> list[StoredEvent]:
    s = Session(ROOT, "s1", T0)
    s.run(command, 0, output)
    return [*_read("README.md", BULLETS), *[replace(e, id=f"l{e.id}") for e in s.events]]


@pytest.mark.parametrize(
    "output",
    [
        "Cargo.toml\nCargo.lock\nsrc\ntests\n",
        "-rw-r--r--  1 dev dev  312 May  4 09:00 pyproject.toml\ndrwxr-xr-x  3 dev dev 4096 May  4 09:00 lab\n",
        "go.mod\nmain.go\n",
        "./lib/clock.lua\n./lib/pattern.lua\n",
    ],
    ids=["rust-manifest", "python-long-listing", "go-manifest", "two-code-files"],
)
def test_a_listing_that_shows_a_manifest_or_code_files_marks_a_code_package(output: str) -> None:
    assert readme_layout(_listed(output)) is None


@pytest.mark.parametrize(
    "output",
    [
        "README.md\nruns\nnotebooks\ndata\n",
        "README.md\n.obsidian/plugins/calendar/main.js\n.obsidian/plugins/git/main.js\n",
        "README.md\nscripts/export.py\nruns\n",
    ],
    ids=["notes-only", "hidden-plugins", "one-script"],
)
def test_a_listing_of_notes_or_hidden_tools_leaves_the_layout(output: str) -> None:
    assert readme_layout(_listed(output)) is not None


def test_a_commit_s_diff_or_a_search_s_hits_of_code_files_mark_no_code_package() -> None:
    diff = "diff --git a/src/pass.cpp b/src/pass.cpp\n--- a/src/pass.cpp\n+++ b/src/pass.cpp\n"
    assert readme_layout(_listed(diff, "git show HEAD")) is not None
    hits = "src/a.c:12: x\nsrc/b.c:40: y\n"
    assert readme_layout(_listed(hits, "grep -rn x src")) is not None
    assert readme_layout(_listed("src/a.c\nsrc/b.c\n", "rg --files src")) is None
