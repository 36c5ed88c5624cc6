"""How to build, test or check, as a doc the session read says it where the command's own words
do not: under a heading or in a sentence that names the role."""

from __future__ import annotations

from squirrel_memory.extractors.doc_roles import doc_command, doc_roles, printed_line, role_sections
from tests.unit.memory.test_read_instructions import _loaded
from tests.unit.memory.test_session_about import _numbered, _reads

NOTES = """# Notes for agents

## Layout
- `core/` - the runtime, in C
- `lib/` - the library, loaded at startup

## Building

If you changed the runtime (any file in `core/`), you need to rebuild.
Run `make -j` to rebuild the binary. It takes a few minutes.

After modifying any C file under `core/`, also run the static analysis checks.

Do not run `make clean` unless the build is broken.

## Reloading

To try a change to `lib/` without a rebuild, you can use `Reloader`.

For instance, testing a library change with fail-fast, you can run:
```
FAILFAST=1 ./tool -e 'load("lib"); runtests()'
```

## Commands
- `composer install` - install dependencies
"""


def _sections(events: list) -> dict[str, str]:  # type: ignore[type-arg]
    return {found.key: found.content for found in doc_roles(events)}


def test_a_section_under_a_role_heading_gives_its_sentences_whole() -> None:
    found = _sections(_loaded("AGENTS.md", NOTES))

    assert found["docs:roles:AGENTS.md:build"] == (
        "AGENTS.md, under Building, says how to build and lint: If you changed the runtime "
        "(any file in `core/`), you need to rebuild; Run `make -j` to rebuild the binary; "
        "After modifying any C file under `core/`, also run the static analysis checks."
    )


def test_a_sentence_that_names_the_role_leads_into_its_block() -> None:
    found = _sections(_loaded("AGENTS.md", NOTES))

    assert found["docs:roles:AGENTS.md:reload"] == (
        "AGENTS.md, under Reloading, says how to test: For instance, testing a library change "
        "with fail-fast, you can run: `FAILFAST=1 ./tool -e 'load(\"lib\"); runtests()'`."
    )


def test_a_negated_sentence_a_name_and_another_purposes_command_say_nothing() -> None:
    text = " ".join(_sections(_loaded("AGENTS.md", NOTES)).values())

    assert "make clean" not in text  # "Do not run …"
    assert "Reloader" not in text  # a name, not a command
    assert "composer install" not in text  # installs: not what "Commands" would make it
    assert "Layout" not in text


def test_a_read_gives_what_a_load_gives_and_a_sub_folders_load_says_where() -> None:
    read = _sections(_reads(("AGENTS.md", _numbered(NOTES))))
    assert read == _sections(_loaded("AGENTS.md", NOTES))

    (nested, *_rest) = doc_roles(_loaded("web/CLAUDE.md", NOTES))
    assert nested.content.startswith(
        "web/CLAUDE.md, under Building, says how to build and lint (run in `web/`):"
    )


def test_a_dependencys_or_another_folders_docs_say_nothing() -> None:
    assert doc_roles(_loaded("node_modules/pkg/AGENTS.md", NOTES)) == []
    assert doc_roles(_loaded("../other/AGENTS.md", NOTES)) == []
    assert doc_roles(_reads(("vendor/lib/README.md", _numbered(NOTES)))) == []
    assert doc_roles(_reads(("templates/README.md", _numbered(NOTES)))) == []


def test_a_readme_gives_its_sentences_but_leaves_its_blocks_to_its_own_recipe() -> None:
    readme = """# quux

## Testing

The suite runs with `prove -lr t` from the root.

For a quick pass, run:
```bash
./scripts/check fast
```
"""
    (found,) = doc_roles(_reads(("README.md", _numbered(readme))))

    assert found.content == (
        "README.md, under Testing, says how to test: The suite runs with `prove -lr t` from "
        "the root."
    )


def test_a_command_in_docs_is_a_whole_command_a_reader_types() -> None:
    assert doc_command("make -j") == "make -j"
    assert doc_command("$ cargo xtask codegen") == "cargo xtask codegen"
    assert doc_command("make -C test/passes <name>.ll") == "make -C test/passes <name>.ll"
    assert doc_command("./build") == "./build"
    assert doc_command("Make.user") is None
    assert doc_command("parser.test.ts") is None
    assert doc_command("pytest") == "pytest"
    assert doc_command("core/") is None
    assert doc_command("LEVEL=1") is None
    assert doc_command("cat README.md") is None
    assert doc_command("git pull --rebase") is None
    assert doc_command("x = build()") is None


def test_a_heading_that_names_several_roles_gives_no_command_a_role() -> None:
    notes = """# Agents

## Build & Test Commands

- `composer spec` - run the specification
- `bin/console inspect src/` - inspect dependencies
- `make -j` - the binary
"""
    assert doc_roles(_loaded("AGENTS.md", notes)) == []


def test_a_printed_line_in_a_code_span_is_no_command() -> None:
    for line in (
        "Starting step for ...",
        "Finished stage in …",
        "INFO Pipeline complete",
        "[ERROR] worker stopped",
        "2024-05-01 12:00:01 ready",
        "12:00:01 listening on 8080",
        "Pipeline complete",
    ):
        assert printed_line(line), line
        assert doc_command(line) is None, line
    for command in ("make -j", "./bin/ingestctl replay --since 1h", "R CMD check .", "pytest"):
        assert not printed_line(command), command
        assert doc_command(command) == command


CHECKS = """# Agent notes

## Checking the ingest workflow

- Run `./bin/ingestctl replay --since 1h` to replay the last hour.
- Confirm the worker logs contain `Starting step for ...` entries for the fetch, transform, and publish steps.
- Run `./bin/ingestctl tail` and look at the fetch and deploy jobs.
"""


def test_log_lines_and_a_steps_name_give_no_role() -> None:
    # the log line is no command; "publish" and "deploy" only name steps and jobs
    assert doc_roles(_loaded("AGENTS.md", CHECKS)) == []


def test_a_role_the_sentence_asks_for_still_gives_the_recipe() -> None:
    notes = """# Notes

## Shipping

- To publish, run `./scripts/cut-release.sh --sign` after the build steps pass.
- Check that the log shows `INFO release done`.
"""
    (found,) = doc_roles(_loaded("AGENTS.md", notes))
    assert found.content == (
        "AGENTS.md, under Shipping, says how to release: To publish, run "
        "`./scripts/cut-release.sh --sign` after the build steps pass."
    )


def test_a_package_pattern_after_a_slash_is_a_command_not_a_line_cut_short() -> None:
    for command in ("go test ./...", "go vet ./internal/...", "go build -o bin/ ./cmd/..."):
        assert not printed_line(command), command
        assert doc_command(command) == command
    # an ellipsis after a word still cuts a printed line short
    for line in ("Building ./cmd ...", "Compiling assets...", "go test ./pkg/foo…bar…"):
        assert printed_line(line), line


def test_a_readme_sentence_that_runs_checks_named_by_their_own_words_is_kept() -> None:
    text = (
        "# plover\n\n## Contributing\n\nBefore sending a pull request, run `go vet ./...` and"
        " `go test -race ./...`; both must pass.\n\n## Testing\n\nRun `cargo clippy` and"
        " `cargo test` before pushing.\n"
    )

    found = role_sections(text, "readme")

    assert found == [
        (
            "Contributing",
            ["lint", "test"],
            [
                "Before sending a pull request, run `go vet ./...` and `go test -race ./...`;"
                " both must pass"
            ],
        ),
        ("Testing", ["lint", "test"], ["Run `cargo clippy` and `cargo test` before pushing"]),
    ]


def test_no_check_a_command_is_not_and_an_instruction_files_own_commands_say_nothing() -> None:
    text = "# x\n\n## Setup\n\nRun `composer install` and `vendor/bin/phpunit`.\n"
    assert role_sections(text, "readme") == []
    # no run verb: a sentence that only names the checks
    text = "# x\n\n## Contributing\n\nWe care about `go vet ./...` and `go test ./...`.\n"
    assert role_sections(text, "readme") == []
    # an instruction file's own-words commands are its everyday commands recipe's
    text = "# x\n\n## Contributing\n\nBefore a PR, run `go vet ./...` and `go test ./...`.\n"
    assert role_sections(text, "instructions") == []


def test_a_sentence_about_how_the_project_was_worked_on_before_says_nothing() -> None:
    text = (
        "# almanac\n\n## History\n\nUntil 2023 you had to run `grunt test` before each"
        " release.\n\nWe used to run the tests with `karma start`.\n\n## Checks\n\nThe suite"
        " now runs with `npm test` (Vitest).\n"
    )

    found = role_sections(text, "readme")

    assert found == [("Checks", ["test"], ["The suite now runs with `npm test` (Vitest)"])]
