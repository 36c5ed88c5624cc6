"""The everyday commands a root README's shell blocks document under a comment become one
recipe; uncommented commands, other purposes, placeholders, a lone command, sub-folder READMEs
and failed reads say nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.readme_commands import documented_commands, readme_commands
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import Episode, MemoryType, StoredEvent
from tests.unit.memory.session_builder import read_result

ROOT = "/home/dev/platform"
T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _read(path: str, text: str, *, is_error: bool = False) -> list[StoredEvent]:
    return read_result(ROOT, path, text, T0 + timedelta(seconds=1), is_error=is_error)


DEVELOPMENT = """# Platform

## Quick start

```bash
git clone <repository-url>
cd platform
```

```bash
# Start core services (Kafka, Postgres)
make local-up-core
```

## Development Commands

```bash
# Run all linters
make lint

# Format all code
make format

# Run all tests
make test

# Build all projects
make build
```

### Python

```bash
# Run Python tests
make py-test
```
"""


def test_commented_commands_of_everyday_purposes_make_one_recipe() -> None:
    found = readme_commands(_read("README.md", DEVELOPMENT))

    assert found is not None
    assert found.key == "readme:commands:README.md"
    assert found.content == (
        "Everyday commands README.md documents: to run all tests, `make test`; to run all "
        "linters, `make lint`; to format all code, `make format`; to build all projects, "
        "`make build`."
    )
    assert found.event_ids == ("e1",)


@pytest.mark.parametrize(
    ("language", "prompt", "command"),
    [
        ("sh", "", "cargo test --workspace"),
        ("console", "$ ", "mix test"),
        ("powershell", "> ", "dotnet test"),
        ("", "", "go test ./..."),
    ],
)
def test_any_ecosystems_commands_are_read_from_any_shell_block(
    language: str, prompt: str, command: str
) -> None:
    text = (
        f"```{language}\n# Run the tests\n{prompt}{command}\n\n# Lint the code\n{prompt}lint\n```\n"
    )

    assert documented_commands(text) == [
        ("test", "Run the tests", command),
        ("lint", "Lint the code", "lint"),
    ]


def test_a_comment_names_a_purpose_in_the_words_the_docs_rules_read_too() -> None:
    text = (
        "```sh\n# Static analysis\nmake check\n\n# Compiling the sources\nmake all\n"
        "\n# Type-checking\nmake types\n```\n"
    )

    assert documented_commands(text) == [
        ("lint", "Static analysis", "make check"),
        ("typecheck", "Type-checking", "make types"),
        ("build", "Compiling the sources", "make all"),
    ]


def test_the_first_command_per_purpose_is_kept() -> None:
    found = documented_commands(DEVELOPMENT)

    assert [c for p, _, c in found if p == "test"] == ["make test"]


@pytest.mark.parametrize(
    "block",
    [
        # no comment above the commands
        "```bash\nmake test\nmake lint\n```\n",
        # comments of other purposes: starting, cloning, installing the tool, a plan
        "```bash\n# Start the stack\nmake up\n# Clone the repository\ngit clone x\n```\n",
        "```bash\n# Install test dependencies\npip install -e .[test]\n"
        "# Build the Docker image\ndocker build .\n```\n",
        # placeholders, continued lines and prose after the comment
        "```bash\n# Run the tests\npytest <path>\n# Lint the code\nruff check \\\n  src\n```\n",
        "```bash\n# Run the tests\n# (takes a while)\n```\n",
        # a comment in a code block that is not shell
        "```python\n# Run the tests\nrun()\n# Lint the code\nlint()\n```\n",
        # code or configuration in an untagged block, under comments naming a purpose
        "```\n# Build the model\nmodel = build(layers)\n# Test settings\ntest: true\n```\n",
        "```\n# Run the tests\nrun_tests()\n# Lint settings\nlint := strict\n```\n",
        # commented commands outside any code block
        "# Run the tests\nmake test\n# Lint the code\nmake lint\n",
    ],
)
def test_blocks_without_commented_everyday_commands_document_nothing(block: str) -> None:
    assert documented_commands(block) == []


def test_a_lone_documented_command_makes_no_recipe() -> None:
    text = "```bash\n# Run the tests\nmake test\n```\n"

    assert documented_commands(text) == [("test", "Run the tests", "make test")]
    assert readme_commands(_read("README.md", text)) is None


@pytest.mark.parametrize(
    ("path", "is_error"),
    [("docs/README.md", False), ("CLAUDE.md", False), ("NOTES.md", False), ("README.md", True)],
)
def test_only_a_successful_read_of_the_root_readme_counts(path: str, is_error: bool) -> None:
    assert readme_commands(_read(path, DEVELOPMENT, is_error=is_error)) is None


def test_the_rules_extractor_keeps_the_recipe() -> None:
    events = _read("README.md", DEVELOPMENT)
    episode = Episode(
        id="ep1",
        project_id=ROOT,
        user_id="dev",
        session_id="s1",
        start_ts=T0,
        end_ts=T0 + timedelta(minutes=1),
        event_count=1,
        summary="",
        importance=0.5,
        created_at=T0,
        event_ids=("e1",),
    )

    found = RulesExtractor().extract_sync(episode, events)

    recipes = [c for c in found if c.key == "readme:commands:README.md"]
    assert len(recipes) == 1
    assert recipes[0].type == MemoryType.RECIPE
    assert "`make test`" in recipes[0].content
