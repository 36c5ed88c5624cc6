"""What the project needs first, as the root README read in a session lists it: quoted from the
page under its requirements heading or label, and nothing from another page, another
repository, a heading about installing them or a message."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_core.host_files import LOADED_TAG
from squirrel_memory.extractors.readme_requirements import (
    listed_requirements,
    readme_requirements,
)
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/tally"

README = """# tally

A counter for the shell.

## Installation

### Requirements
- **GitHub CLI** (`gh`) installed and authenticated
- **Python 3.10+**
- [the docs](https://example.org/docs)

### Install
```bash
pip install tally
```
"""


def test_the_requirements_of_the_root_readme_read_become_a_fact() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Why does the counter skip the last line?")
    session.read("README.md", README)

    (fact,) = [c for c in session.extracted() if c.key == "readme:requirements:README.md"]

    assert fact.type == MemoryType.PROJECT_FACT
    assert fact.content == (
        "What the project needs, as README.md lists it (requirements): GitHub CLI (`gh`) "
        "installed and authenticated; Python 3.10+."
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "# tally\n\n## Prerequisites\n\nYou will need:\n\n* CMake 3.16 or newer\n"
            "* a C11 compiler\n",
            ("Prerequisites", ["CMake 3.16 or newer", "a C11 compiler"]),
        ),
        (
            "# tally\n\nRequirements:\n\n-   Node.js with npm\n\n1. Clone this repository:\n"
            "2. Install the dependencies\n",
            ("Requirements", ["Node.js with npm"]),
        ),
        (
            "# tally\n\n**Build dependencies**\n\n1. JDK 17\n2. Gradle 8\n\n- not this\n",
            ("Build dependencies", ["JDK 17", "Gradle 8"]),
        ),
    ],
)
def test_a_heading_or_a_label_opens_the_list(text: str, said: tuple[str, list[str]]) -> None:
    assert listed_requirements(text) == said


@pytest.mark.parametrize(
    "text",
    [
        # a heading about installing them, a list in a code block, a list elsewhere on the page
        "# tally\n\n## Installing dependencies\n\n- run `make deps`\n",
        "# tally\n\n```markdown\n## Requirements\n- Lua 5.4\n```\n",
        "# tally\n\n## Requirements\n\nSee the wiki.\n\n## Usage\n\n- run it\n",
        # items too long to be things one needs: sentences that explain
        "# tally\n\n## Requirements\n\n- " + "a very long sentence that explains " * 4 + "\n",
        "# tally\n\n## Requirements\n\n- you need a working copy of the tool and a lot of "
        "patience to use it well in the end\n",
    ],
)
def test_no_requirements_list_says_nothing(text: str) -> None:
    assert listed_requirements(text) is None


def test_a_dependencys_or_another_repositorys_readme_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("vendor/lib/README.md", README)
    session.read("node_modules/x/README.md", README)
    # a subagent reading another checkout's page
    session.read_elsewhere("/home/dev/other/README.md", README)

    assert readme_requirements(session.events) is None


def test_requirements_named_only_in_a_message_say_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Plan:\n\n## Requirements\n- Python 3.12\n- Redis\n\nAdd these to the README.")
    session.say("## Requirements\n- Python 3.12\n- Redis")

    assert readme_requirements(session.events) is None


AGENTS = "# Agents\n\n## Prerequisites\n\n- JDK 17\n- Gradle 8 (the wrapper)\n\n## Rules\n\n- x\n"


def test_an_instruction_file_the_host_loaded_lists_them_and_is_tagged_as_loaded() -> None:
    session = Session(ROOT, "s1", T0)
    session.add(
        "user_message",
        {"text": AGENTS, "loaded_file": "AGENTS.md"},
        ("AGENTS.md",),
        origin="harness",
    )
    session.user("Fix the failing build.")

    (fact,) = [c for c in session.extracted() if c.key == "readme:requirements:AGENTS.md"]

    assert fact.content == (
        "What the project needs, as AGENTS.md lists it (prerequisites): JDK 17; Gradle 8 "
        "(the wrapper)."
    )
    assert LOADED_TAG in fact.tags


def test_the_readmes_list_comes_before_an_instruction_files() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("AGENTS.md", AGENTS)
    session.read("README.md", README)

    found = readme_requirements(session.events)

    assert found is not None and found.path == "README.md"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a Rust crate's README and a Ruby gem's instruction file: what the project supports
        (
            "# tally\n\n## Supported Versions\n\n- **Rust**: 1.74 or later\n- **tokio**: ^1.30\n",
            ("Supported Versions", ["Rust: 1.74 or later", "tokio: ^1.30"]),
        ),
        (
            "# Agents\n\n## Minimum versions\n\n* Ruby 3.1\n* Rails 7.0 or newer\n",
            ("Minimum versions", ["Ruby 3.1", "Rails 7.0 or newer"]),
        ),
    ],
)
def test_a_supported_versions_section_is_listed_too(text: str, said: tuple[str, list[str]]) -> None:
    assert listed_requirements(text) == said


def test_supported_versions_are_said_as_what_the_project_supports() -> None:
    session = Session(ROOT, "s1", T0)
    session.add(
        "user_message",
        {
            "text": "# Agents\n\n## Supported Versions\n\n- **Go**: 1.22 or later\n",
            "loaded_file": "AGENTS.md",
        },
        ("AGENTS.md",),
        origin="harness",
    )
    session.user("Fix the failing build.")

    (fact,) = [c for c in session.extracted() if c.key == "readme:requirements:AGENTS.md"]

    assert fact.content == (
        "What the project supports, as AGENTS.md lists it (supported versions): Go: 1.22 or later."
    )


@pytest.mark.parametrize(
    "text",
    [
        # a section about supporting the project (funding, help) or about upgrading versions
        "# tally\n\n## Support\n\n- open an issue\n- join the chat\n",
        "# tally\n\n## Upgrading versions\n\n- run `make bump`\n",
        "# tally\n\n## Supported versions\n\nSee SECURITY.md.\n",
    ],
)
def test_a_support_or_upgrade_section_says_nothing(text: str) -> None:
    assert listed_requirements(text) is None
