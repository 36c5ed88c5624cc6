"""The commands a README or CONTRIBUTING page gives under its set-up, usage and development
headings become one recipe per section; other sections, trees, output, `cd`, placeholders and
the commands of the page's everyday recipe say nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.readme_sections import documented_sections, readme_sections
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType, StoredEvent
from tests.unit.memory.session_builder import read_result

ROOT = "/home/dev/platform"
T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)

PAGE = """# Platform

## Quick Start

### Local Development Setup

1. **Clone the repository**
   ```bash
   git clone <repository-url>
   cd platform
   ```

2. **Install dependencies**
   ```bash
   make install
   ```

3. Start the stack
   ```bash
   # Start core services (Kafka, Postgres)
   make local-up-core
   make local-ps   # shows what runs
   ```

## Usage

```bash
platform-cli --with-timestamps inputs/
```

### Output

```
platform/
├── inputs/
docs/
```

## Development Commands

```bash
# Run all tests
make test

# Lint the code
make lint

# Run the Python tests only
make py-test
```

## Configuration

```bash
export PLATFORM_ENV=dev
```
"""


def _read(path: str, text: str, *, is_error: bool = False) -> list[StoredEvent]:
    return read_result(ROOT, path, text, T0 + timedelta(seconds=1), is_error=is_error)


def test_each_run_section_gives_its_commands_in_the_pages_words() -> None:
    found = {s.key: s.content for s in readme_sections(_read("README.md", PAGE))}

    assert found == {
        "readme:section:README.md#quick-start": (
            "README.md, under Quick Start, gives: `make install` (install "
            "dependencies); `make local-up-core` (start core services (Kafka, Postgres)); "
            "`make local-ps` (shows what runs)."
        ),
        "readme:section:README.md#usage": (
            "README.md, under Usage, gives: `platform-cli --with-timestamps inputs/`."
        ),
        "readme:section:README.md#development-commands": (
            "README.md, under Development Commands, gives: `make py-test` (run the Python "
            "tests only)."
        ),
    }


def test_sub_sections_join_their_section_and_a_page_does_not_repeat_another() -> None:
    contributing = "# Contributing\n\n## Tests\n\n```bash\nmake unit\n```\n\n"
    contributing += "## Scripts\n\n```bash\nmake py-test\nmake bench\n```\n"
    readme = "# Tool\n\n## Install\n\n### Global\n\n```bash\nnpm i -g tool\n```\n\n"
    readme += "### From source\n\n```bash\nnpm ci\n```\n\n## Tests\n\n```bash\nmake py-test\n```\n"
    events = [*_read("CONTRIBUTING.md", contributing), *_read("README.md", readme)]

    found = [s.content for s in readme_sections(events)]

    # the README's tests section speaks for the tests; a command it gave is not repeated
    assert found == [
        "README.md, under Install, gives: `npm i -g tool`; `npm ci`.",
        "README.md, under Tests, gives: `make py-test`.",
        "CONTRIBUTING.md, under Scripts, gives: `make bench`.",
    ]


def test_a_contributing_page_is_read_the_same_way() -> None:
    text = "## Development Setup\n\n```bash\npython3 -m venv .venv\npip install -e .[dev]\n```\n"

    (found,) = readme_sections(_read("CONTRIBUTING.md", text))

    assert found.content == (
        "CONTRIBUTING.md, under Development Setup, gives: `python3 -m venv .venv`; "
        "`pip install -e .[dev]`."
    )


@pytest.mark.parametrize(
    "text",
    [
        # a section whose heading names no set-up, usage or development
        "## Configuration\n\n```bash\nexport APP_ENV=dev\n```\n",
        "## Licence\n\n```bash\nmake license-report\n```\n",
        # a tree or output in an untagged block, `cd` and placeholders
        "## Usage\n\n```\nproject/\n├── src/\ndocs/\n```\n",
        "## Setup\n\n```bash\ngit clone <url>\ncd project\nmake <target>\n```\n",
        # another language's code block, commands outside any block, no heading at all
        "## Usage\n\n```python\nimport project\nproject.run()\n```\n",
        "## Usage\n\nmake run\n",
        "```bash\nmake install\n```\n",
    ],
)
def test_pages_without_run_sections_give_nothing(text: str) -> None:
    assert documented_sections(text) == []
    assert readme_sections(_read("README.md", text)) == []


def test_a_command_run_in_a_folder_is_kept_whole() -> None:
    text = (
        "# Shop\n\n## Build\n\n```\nmkdir build && cd build\ncmake ..\n```\n\n"
        "## Tests\n\n```\ncd build\ncd build && ctest\n```\n"
    )
    assert documented_sections(text) == [
        ("Build", [("mkdir build && cd build", ""), ("cmake ..", "")]),
        ("Tests", [("cd build && ctest", "")]),
    ]


@pytest.mark.parametrize(
    ("path", "is_error"),
    [("docs/README.md", False), ("CLAUDE.md", False), ("NOTES.md", False), ("README.md", True)],
)
def test_only_a_successful_read_of_a_root_page_counts(path: str, is_error: bool) -> None:
    assert readme_sections(_read(path, PAGE, is_error=is_error)) == []


def test_the_rules_extractor_keeps_the_sections_as_recipes() -> None:
    events = _read("README.md", PAGE)
    (episode,) = segment_episodes(events, now=T0 + timedelta(days=1))

    found = RulesExtractor().extract_sync(episode, events)

    sections = [c for c in found if c.key.startswith("readme:section:README.md#")]
    assert len(sections) == 3
    assert all(c.type == MemoryType.RECIPE for c in sections)


@pytest.mark.parametrize(
    ("path", "fires"),
    [
        ("docs/development.md", True),
        ("docs/getting-started.md", True),
        ("doc/DEVELOPING.md", True),
        ("docs/architecture.md", False),  # a docs page about something else
        ("docs/api/development.md", False),  # deeper in the docs
        ("vendor/docs/development.md", False),
    ],
)
def test_a_docs_page_about_developing_the_project_is_read_too(path: str, fires: bool) -> None:
    text = "# Developing\n\n## Running tests\n\n```bash\nmake e2e\n```\n"

    found = readme_sections(_read(path, text))

    assert [s.content for s in found] == (
        [f"{path}, under Running tests, gives: `make e2e`."] if fires else []
    )


# A page that writes its commands as indented blocks (no fence), as many C, make and Lua
# projects' READMEs do.
INDENTED = """# tally

A counter for the shell.

## Building

Run from the top folder:

    make
    $ make check

## Example

    local tally = require("tally")

## Usage

    tally = Tally()
    print "counted"

- Install it system-wide:

    sudo make install
"""


def test_an_indented_block_gives_the_commands_a_fence_would() -> None:
    found = [s.content for s in readme_sections(_read("README.md", INDENTED))]

    # code of another language in a block without a fence, and a list item's continued text,
    # give nothing
    assert found == ["README.md, under Building, gives: `make`; `make check`."]


def test_an_indented_block_of_a_dependencys_readme_gives_nothing() -> None:
    assert readme_sections(_read("deps/tally/README.md", INDENTED)) == []
    assert readme_sections(_read("../other/README.md", INDENTED)) == []


def _cut_read(path: str, text: str, *, ingest_cut: bool = False) -> list[StoredEvent]:
    """A Read of `path` that stopped at its last line of `text` (a limit), as the host marks it."""
    events = read_result(ROOT, path, text, T0)
    output = events[0].content["output"].rstrip("\n")
    output += "\n…[truncated 812 chars]" if ingest_cut else ""
    content = {**events[0].content, "output": output, "partial": True}
    return [replace(events[0], content=content)]


PYTHON_CUT = """# Ledger

## Developer Setup

Install uv if it is missing:
```bash
curl -LsSf https://astral.sh/uv/install.sh | sh
```

Create the environment and install:
```bash
uv venv --python 3.13
source .venv/bin/activate
uv pip install -e ".[dev]\""""

RUST_CUT = """# Relay

## Building

```sh
cargo build --release
cargo test --workspace -- \\"""


def test_a_read_that_stopped_inside_a_shell_block_keeps_the_lines_it_showed() -> None:
    found = readme_sections(_cut_read("README.md", PYTHON_CUT))
    assert [f.content for f in found] == [
        "README.md, under Developer Setup, gives: `curl -LsSf https://astral.sh/uv/install.sh"
        " | sh`; `uv venv --python 3.13`; `source .venv/bin/activate`; `uv pip install -e"
        ' ".[dev]"` (the read stopped inside this block).'
    ]


def test_a_continued_line_or_one_ingest_cut_is_not_kept() -> None:
    found = readme_sections(_cut_read("README.md", RUST_CUT))
    assert [f.content for f in found] == [
        "README.md, under Building, gives: `cargo build --release` (the read stopped inside"
        " this block)."
    ]
    cut = readme_sections(_cut_read("README.md", PYTHON_CUT, ingest_cut=True))
    assert 'uv pip install -e ".[dev]"' not in cut[0].content
    assert "`uv venv --python 3.13`; `source .venv/bin/activate` (the read stopped" in (
        cut[0].content
    )


def test_a_read_that_stopped_outside_a_shell_block_ends_at_its_last_blank_line() -> None:
    in_config = PYTHON_CUT.replace("```bash\nuv venv", "```toml\nuv venv")
    found = readme_sections(_cut_read("README.md", in_config))
    assert [f.content for f in found] == [
        "README.md, under Developer Setup, gives: `curl -LsSf https://astral.sh/uv/install.sh"
        " | sh`."
    ]
    whole = readme_sections(read_result(ROOT, "README.md", PYTHON_CUT, T0))
    assert "(the read stopped" not in whole[0].content  # a whole read says the page as it is
