"""The commands a subagent was briefed to run, or reported passing, by their own words' role."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.delegated_commands import delegated_commands, named_commands
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/src/lib"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
BRIEF = (
    "Review the branch against `main`. Get the diff with `git diff main...HEAD`.\n\n"
    "You may build (`dotnet build`, `dotnet test`) to check your reasoning, but do NOT modify "
    "any file in the repository."
)


def _delegated(prompt: str, report: str = "", *, is_error: bool = False) -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("review the release branch")
    session.add("tool_call", {"tool": "Agent", "tool_use_id": "a1", "input": {"prompt": prompt}})
    session.add(
        "tool_result",
        {"tool": "Agent", "tool_use_id": "a1", "output": report, "is_error": is_error},
    )
    return session


def test_a_brief_to_a_subagent_says_how_the_project_is_built_and_tested() -> None:
    session = _delegated(BRIEF)

    found = delegated_commands(session.events)

    assert found is not None
    assert found.content == (
        "A subagent's brief says: to build, `dotnet build`; to run the tests, `dotnet test`."
    )
    assert found.event_ids == (session.events[1].id,)


def test_a_subagents_transcript_alone_opens_with_its_brief() -> None:
    session = Session(ROOT, "s1", T0)
    session.add(
        "user_message", {"text": "Run `cargo test` after each change."}, origin="parent_agent"
    )

    found = delegated_commands(session.events)

    assert found is not None and found.content.endswith("to run the tests, `cargo test`.")


def test_a_report_counts_only_a_command_it_says_passed() -> None:
    report = (
        "Done. `npm run lint` is clean and `npm test` passes (42 passing).\n"
        "`npm run build` failed with 3 errors."
    )
    found = delegated_commands(_delegated("Fix the parser.", report).events)

    assert found is not None
    assert found.content == (
        "A subagent reported passing: to lint, `npm run lint`; to run the tests, `npm test`."
    )


def test_what_must_not_become_a_recipe() -> None:
    negated = "Do not run `npm test`, the suite is slow. Never `npm run build` here."
    assert delegated_commands(_delegated(negated).events) is None
    exploratory = "Read `README.md`, then `git log -5`, `ls src` and the test `parser.test.ts`."
    assert delegated_commands(_delegated(exploratory).events) is None
    elsewhere = "Build with `make -C /home/ana/other build`."
    assert delegated_commands(_delegated(elsewhere).events) is None
    failed = delegated_commands(_delegated("Fix it.", "`go test ./...` still fails.").events)
    assert failed is None
    declined = delegated_commands(
        _delegated("Fix it.", "`go test ./...` passes", is_error=True).events
    )
    assert declined is None


EXPLORED = (
    "# Repository overview\n\n## Testing\n\n**Current state**:\n"
    "- Unit tests: `vitest run src`\n"
    "- Integration tests: `vitest run tests/integration`\n"
    "- **Lint**: `eslint --max-warnings=0`\n"
    "- CI pipeline: `npm run ci`\n"
)


def test_an_exploration_report_says_how_the_project_is_checked_by_its_labels() -> None:
    found = delegated_commands(_delegated("Explore the repository.", EXPLORED).events)

    assert found is not None
    assert found.content == (
        "A subagent's report says: to run the tests, `vitest run src`; to lint, "
        "`eslint --max-warnings=0`."
    )


def test_a_label_naming_no_role_or_another_one_says_nothing() -> None:
    report = (
        "- CI pipeline: `npm run ci`\n- Build: `npm test`\n- Tests: `git log -5`\n"
        "The tests are in `src/`: run `npm test` if you like (it was not run).\n"
    )
    assert delegated_commands(_delegated("Explore the repository.", report).events) is None


def test_a_labelled_command_counts_where_its_paragraph_names_no_other_place() -> None:
    report = "Sessions are kept in ~/.tool/sessions/ as JSON.\n\n" + EXPLORED
    found = delegated_commands(_delegated("Explore the repository.", report).events)
    assert found is not None and "`vitest run src`" in found.content

    beside = "## Testing\nCompared with /home/dev/src/otherlib:\n- Unit tests: `vitest run src`\n"
    assert delegated_commands(_delegated("Explore the repository.", beside).events) is None
    dependency = "In node_modules/fast-csv/package.json:\n- Tests: `vitest run __tests__/`\n"
    assert delegated_commands(_delegated("Explore the repository.", dependency).events) is None
    sent = "Explore /home/dev/src/otherlib and say how it is tested."
    assert delegated_commands(_delegated(sent, EXPLORED).events) is None


def test_a_report_or_brief_naming_another_projects_web_address_labels_nothing() -> None:
    labels = EXPLORED.split("**Current state**:\n")[1]
    upstream = "## Upstream\n\nhttps://github.com/acme/widgets is tested so:\n\n" + labels
    assert delegated_commands(_delegated("Explore the repository.", upstream).events) is None
    sent = "Read https://github.com/acme/widgets and say how it is tested."
    assert delegated_commands(_delegated(sent, EXPLORED).events) is None
    config = '## Config\n\n`{"baseUrl": "https://api.acme.dev"}`\n\n## Checks\n\n' + EXPLORED
    found = delegated_commands(_delegated("Explore the repository.", config).events)
    assert found is not None and "`vitest run src`" in found.content
    local = "The dev server answers on http://localhost:5173/ once started.\n\n" + EXPLORED
    found = delegated_commands(_delegated("Explore the repository.", local).events)
    assert found is not None and "`vitest run src`" in found.content


def test_a_passing_report_outranks_what_a_report_labels() -> None:
    report = EXPLORED + "\nI ran `npm test` and it passes.\n"

    found = delegated_commands(_delegated("Explore the repository.", report).events)

    assert found is not None
    assert found.content == "A subagent reported passing: to run the tests, `npm test`."


def test_a_command_the_session_ran_is_left_to_its_own_runs() -> None:
    session = _delegated(BRIEF)
    session.run("dotnet build", 0, "Build succeeded.", cwd=ROOT)

    found = delegated_commands(session.events)

    assert found is not None and "dotnet build" not in found.content


def test_a_negation_in_another_clause_does_not_cancel_the_command() -> None:
    assert named_commands(BRIEF, passed=False) == [
        ("build", "dotnet build"),
        ("test", "dotnet test"),
    ]


def test_a_tool_input_that_is_not_an_object_gives_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("tool_call", {"tool": "Agent", "input": "run `dotnet test`"})
    session.add("tool_call", {"tool": "SubagentHandback", "input": ["`dotnet test` passes"]})
    session.add("tool_call", {"tool": "Agent", "input": {"prompt": None}})
    assert delegated_commands(session.events) is None


@pytest.mark.parametrize(
    ("brief", "report"),
    [
        ("Explore /home/dev/src/otherlib and run `dotnet test` there.", ""),
        ("Compare with ../otherlib: build it with `dotnet build`.", ""),
        ("Review the branch.", "In /home/dev/src/otherlib, `dotnet test` passes."),
    ],
)
def test_a_brief_or_report_about_another_place_gives_nothing(brief: str, report: str) -> None:
    assert delegated_commands(_delegated(brief, report).events) is None


def test_the_project_s_own_path_a_scratch_file_and_a_link_are_no_other_place() -> None:
    brief = (
        f"Repo: {ROOT}. Notes go to /tmp/notes.md, see https://example.org/a/b. "
        f"Run `dotnet test` in {ROOT}/tests."
    )
    found = delegated_commands(_delegated(brief).events)

    assert found is not None
    assert found.content == "A subagent's brief says: to run the tests, `dotnet test`."


@pytest.mark.parametrize(
    "place",
    [
        "~/.npmrc",
        "~/.config/gh/hosts.yml",
        "/home/dev/.gitconfig",
        "/private/tmp/run.log",
        "/var/folders/x1/T/out.txt",
    ],
)
def test_the_users_config_and_a_scratch_folder_are_no_other_place(place: str) -> None:
    found = delegated_commands(_delegated(f"The token is in {place}. Run `dotnet test`.").events)

    assert found is not None
    assert found.content == "A subagent's brief says: to run the tests, `dotnet test`."


@pytest.mark.parametrize("place", ["~/.cargo/registry/src/serde", "~/src/otherlib"])
def test_a_folder_under_home_is_still_another_place(place: str) -> None:
    assert delegated_commands(_delegated(f"Look at {place}. Run `dotnet test`.").events) is None


def test_a_report_of_a_subagent_that_ran_its_checks_next_door_says_nothing() -> None:
    # Trap: the brief names no other place; the subagent's own records show it ran the checks in
    # a sibling checkout, and its report reads as this project's.
    brief = "Run the client's tests and report."
    session = Session(ROOT, "s1", T0)
    session.user("check the client still works")
    session.add("tool_call", {"tool": "Agent", "tool_use_id": "a1", "input": {"prompt": brief}})
    session.add("user_message", {"text": brief}, origin="parent_agent", sidechain=True)
    command = "cd /home/dev/src/client && npm test"
    given = {"tool": "Bash", "tool_use_id": "b1", "input": {"command": command}}
    session.add("tool_call", given, sidechain=True)
    report = "- **Tests:** `npm test` passes (38 tests)."
    session.add("tool_result", {"tool": "Agent", "tool_use_id": "a1", "output": report})

    assert delegated_commands(session.events) is None
    # The same report from a subagent that stayed in the project is kept.
    session.events[3] = replace(
        session.events[3], content={**given, "input": {"command": "npm test"}}
    )
    found = delegated_commands(session.events)
    assert found is not None and "`npm test`" in found.content


def test_a_report_the_sessions_own_run_contradicted_gives_none_of_its_commands() -> None:
    report = "## How to check it\n\n- **Tests:** `make test`\n- **Format:** `make fmt`\n"
    session = _delegated("Find how the project is checked.", report)
    session.run("make test", 2, "make: *** No rule to make target 'test'.  Stop.\n", cwd=ROOT)

    assert delegated_commands(session.events) is None
    # A command of the report that the session ran and saw pass confirms it.
    confirmed = _delegated("Find how the project is checked.", report)
    confirmed.run("make test", 0, "12 passed\n", cwd=ROOT)
    found = delegated_commands(confirmed.events)
    assert found is not None and found.content.endswith("to format, `make fmt`.")
