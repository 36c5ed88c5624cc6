"""The everyday commands a root instruction file the session read names."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.instruction_commands import instruction_commands
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_read_instructions import _loaded
from tests.unit.memory.test_session_about import _numbered, _reads

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

# The shape of peq's AGENTS.md (bench/data/transcripts/peq): a package name and another test
# command come before the list of commands.
AGENTS = """# Agents

- **The binary carries one engine** — `phpstan/phpstan` is a dev dependency.
- `composer spec` runs the Behat specification.

## Build & Test Commands

- `composer install` — install dependencies
- `composer test` — run PHPUnit (random order)
- `composer test:equivalence` — both engines over every dependency
- `composer lint` — run PHP CS Fixer + PHPStan (max level)
- `composer format` — apply PHP CS Fixer
- `composer compile` — build PHAR with Box after lint/tests pass
"""


def test_each_purpose_takes_the_first_command_named_for_it() -> None:
    (found,) = instruction_commands(_loaded("AGENTS.md", AGENTS))

    assert found.content == (
        "Everyday commands AGENTS.md names: Run the tests with `composer test` (AGENTS.md:9); "
        "lint with `composer lint` (AGENTS.md:11); format with `composer format` "
        "(AGENTS.md:12); build with `composer compile` (AGENTS.md:13)."
    )
    assert found.refs == ("AGENTS.md:9", "AGENTS.md:11", "AGENTS.md:12", "AGENTS.md:13")


def test_a_read_gives_what_a_load_gives_and_only_at_the_root() -> None:
    (read,) = instruction_commands(_reads(("AGENTS.md", _numbered(AGENTS))))
    (loaded,) = instruction_commands(_loaded("AGENTS.md", AGENTS))
    assert read.content == loaded.content
    assert instruction_commands(_loaded("vendor/x/AGENTS.md", AGENTS)) == []
    assert instruction_commands(_reads(("README.md", _numbered(AGENTS)))) == []


def test_a_sub_folders_file_the_host_loaded_gives_that_folders_commands() -> None:
    (found,) = instruction_commands(_loaded("web/CLAUDE.md", AGENTS))

    assert found.content.startswith(
        "Everyday commands web/CLAUDE.md names (run in `web/`): Run the tests with "
        "`composer test` (web/CLAUDE.md:9);"
    )
    assert instruction_commands(_reads(("web/CLAUDE.md", _numbered(AGENTS)))) == []


# A sub-folder's suite under a heading about tests (julia's AGENTS.md) and a test runner whose
# words hold no "test" (`pytest tests/`).
SCOPED = """# Agents

To run LLVM pass tests:
```bash
make -C test/llvmpasses <testname>.ll
```

## Testing

Run `uv run pytest tests/` before you commit.
"""


def test_a_sub_folders_suite_is_not_the_projects_test_command() -> None:
    (found,) = instruction_commands(_loaded("AGENTS.md", SCOPED))

    assert "make -C test/llvmpasses" not in found.content
    assert found.content == (
        "Everyday commands AGENTS.md names: Run the tests with `uv run pytest tests/` "
        "(AGENTS.md:10)."
    )


def test_a_test_folders_suite_alone_is_given_as_that_folders() -> None:
    (found,) = instruction_commands(_loaded("AGENTS.md", SCOPED.partition("## Testing")[0]))

    assert found.content == (
        "Everyday commands AGENTS.md names: Run the `test/llvmpasses/` tests with "
        "`make -C test/llvmpasses` (AGENTS.md:5)."
    )
    assert "Run the tests with" not in found.content


# An instruction file that writes its commands as an indented block, without a fence.
INDENTED = """# Agents

Test and lint from the top folder:

    make test
    make lint

- A list item's continued text is not a block:

    make format
"""


def test_an_indented_block_names_the_commands_a_fence_would() -> None:
    (found,) = instruction_commands(_loaded("AGENTS.md", INDENTED))

    assert found.content == (
        "Everyday commands AGENTS.md names: Run the tests with `make test` (AGENTS.md:5); "
        "lint with `make lint` (AGENTS.md:6)."
    )
    assert instruction_commands(_loaded("vendor/x/AGENTS.md", INDENTED)) == []


def test_a_gate_task_standing_for_the_tests_is_said_as_the_checks() -> None:
    text = "# App\n\n- Run `mix precommit` when you are done with all changes.\n"
    (found,) = instruction_commands(_loaded("AGENTS.md", text))

    assert (
        found.content
        == "Everyday commands AGENTS.md names: Run the checks with `mix precommit` (AGENTS.md:3)."
    )


def test_a_test_command_beside_a_gate_is_still_the_tests() -> None:
    text = "# App\n\n- `make check` before a PR.\n- `make test` runs the tests.\n"
    (found,) = instruction_commands(_loaded("AGENTS.md", text))

    assert "Run the tests with `make test`" in found.content


def test_a_file_the_session_rewrote_or_edited_names_what_it_says_now() -> None:
    # The session moved the project to pnpm and rewrote GEMINI.md for it: the yarn commands
    # it read first are no longer what the file names.
    root = "/home/dev/lumen"
    before = "# Working here\n\n- Install with `yarn`.\n- Test with `yarn test`.\n"
    after = "# Working here\n\n- Install with `pnpm install`.\n- Test with `pnpm test`.\n"
    rewritten = Session(root, "s1", T0)
    rewritten.user("We moved to pnpm. Rewrite GEMINI.md for it.")
    rewritten.read("GEMINI.md", before)
    rewritten.write("GEMINI.md", after)
    (found,) = instruction_commands(rewritten.events)
    assert "`pnpm test`" in found.content
    assert "yarn" not in found.content

    edited = Session(root, "s1", T0)
    edited.user("We moved to pnpm. Update GEMINI.md.")
    edited.read("GEMINI.md", before)
    edited.edit_lines("GEMINI.md", "- Test with `yarn test`.", "- Test with `pnpm test`.")
    (found,) = instruction_commands(edited.events)
    assert "`pnpm test`" in found.content

    kept = Session(root, "s1", T0)
    kept.read("GEMINI.md", before)
    (found,) = instruction_commands(kept.events)
    assert "`yarn test`" in found.content
