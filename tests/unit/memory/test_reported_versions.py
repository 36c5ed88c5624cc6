"""The toolchain versions a subagent's report on the project's build gives become one project
fact, in any language of the report; counts, upgrades, comparisons, a report on another place,
one that read no build file and one taken back give none."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.reported_versions import reported_versions, versions_line
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _delegated(root: str, report: str) -> Session:
    session = Session(root, "s1", T0)
    session.add("user_message", {"text": "How is this built today?"}, origin="typed")
    session.add("tool_call", {"tool": "Agent", "input": {"prompt": "Read the build."}})
    session.add("tool_result", {"tool": "Agent", "output": report})
    return session


def test_a_go_services_report_gives_its_toolchain_as_a_fact() -> None:
    report = (
        "## Build\n\n- `go.mod` pins Go 1.22.3; the Dockerfile builds on Alpine 3.19 and the "
        "lint step runs GolangCI `v1.59.1`.\n- `Makefile` wraps it all.\n"
    )
    session = _delegated("/home/dev/relay", report)

    (fact,) = [c for c in session.extracted() if c.key == "toolchain:reported-versions"]

    assert fact.type == MemoryType.PROJECT_FACT
    assert fact.content == (
        "Versions a subagent reported reading in the project's build: Go 1.22.3, Alpine 3.19, "
        "GolangCI 1.59.1."
    )


def test_a_background_agents_report_in_another_language_is_read_by_its_shape() -> None:
    report = (
        "### 1. Build\n- **Versiones.** Wrapper Gradle 8.8 y Kotlin `1.9.24` con Java 17. "
        "Plugin Shadow `8.1.1`.\n- `settings.gradle.kts` incluye `app` y `core`.\n"
    )
    session = Session("/home/dev/ledger", "s1", T0)
    session.add(
        "user_message",
        {"text": f"<task-notification>\n<status>completed</status>\n<result>{report}</result>"},
        origin="harness",
    )

    found = reported_versions(session.events)

    assert found is not None
    # A plugin no table knows and the session never ran is left out: the rest is stated.
    assert found.content == (
        "Versions a subagent reported reading in the project's build: Gradle 8.8, Kotlin 1.9.24, "
        "Java 17."
    )


@pytest.mark.parametrize(
    "line",
    [
        "Found 3 issues, Fixed 2 bugs, Added 4 tests.",  # counts, no dotted version
        "Upgrade Node 18.19 → Node 20.11 and TypeScript 5.2 → 5.4.",  # an upgrade
        "Node 18.19 in CI, Node 20.11 locally, TypeScript 5.4, Vite 5.2.",  # one tool, two
        "| Vitest 1.6.0 | Jest 29.7.0 | Mocha 10.4.0 |",  # a table comparing candidates
        "Python 3.12 and Django 5.0.",  # two tools only
        # an upgrade in words, in any language: the names stand beside the old versions
        "Upgraded Gradle 7.6 to 8.8, Kotlin 1.9.0 to 2.0.0, AGP 8.1.0 to 8.5.2.",
        "Bumped Node 18.19 to 20.11, TypeScript 5.3 to 5.4 and Vite 5.1 to 5.2.",
        "Gradle 7.6 auf 8.8, Kotlin 1.9.0 auf 2.0.0, AGP 8.1.0 auf 8.5.2.",
    ],
)
def test_a_line_that_states_no_one_toolchain_is_no_versions_line(line: str) -> None:
    assert versions_line(line) == []


def test_a_report_that_read_no_build_file_says_nothing() -> None:
    report = "Latest releases on the vendor's page: React 19.1, Vue 3.5.13, Svelte 5.2.\n"

    assert reported_versions(_delegated("/home/dev/site", report).events) is None


def test_a_report_the_assistant_takes_back_says_nothing() -> None:
    report = "`package.json`: Node 20.11, TypeScript 5.4.5, Vite 5.2.0.\n"
    session = _delegated("/home/dev/site", report)
    session.say("The subagent's report was wrong: it read an old lock file.")

    assert reported_versions(session.events) is None


@pytest.mark.parametrize(
    "line",
    [
        "See Section 3.2, Table 4.1 and Figure 5.3 of `docs/build.md`.",
        "Siehe Abschnitt 3.2, Tabelle 4.1 und Abbildung 5.3.",
        # Known tools beside parts of a text: too few tools remain to state.
        "Python 3.12 per Section 3.2, Table 4.1 and Figure 5.3.",
    ],
)
def test_numbered_parts_of_a_text_are_no_tool_versions(line: str) -> None:
    assert versions_line(line) == []


def test_a_report_citing_sections_beside_a_build_file_says_nothing() -> None:
    report = "`pom.xml` is described in Section 3.2, Table 4.1 and Figure 5.3 of the guide.\n"

    assert reported_versions(_delegated("/home/dev/billing", report).events) is None


def test_a_python_projects_report_gives_its_toolchain_as_a_fact() -> None:
    report = "`pyproject.toml`: Python 3.12, Django 5.0.4, Celery 5.3.6, Section 2.1 of the spec.\n"

    found = reported_versions(_delegated("/home/dev/shop", report).events)

    assert found is not None
    assert found.content == (
        "Versions a subagent reported reading in the project's build: Python 3.12, Django 5.0.4, "
        "Celery 5.3.6."
    )


def test_a_tool_the_session_ran_is_a_tool_though_no_table_knows_it() -> None:
    report = "`typst.toml` and the Makefile: Typst 0.11.1, Pandoc 3.1.2, Python 3.12.\n"
    unrun = _delegated("/home/dev/thesis", report)
    run = _delegated("/home/dev/thesis", report)
    run.run("typst compile main.typ", 0, "")
    run.run("pandoc --version", 0, "pandoc 3.1.2\n")

    assert reported_versions(unrun.events) is None
    found = reported_versions(run.events)
    assert found is not None
    assert found.content.endswith(": Typst 0.11.1, Pandoc 3.1.2, Python 3.12.")


REPORT = "Read `package.json` and the lock file.\n\n- Node 18.19, TypeScript 5.3.3, Vite 4.5.2\n"


def test_versions_the_sessions_own_read_of_the_build_file_contradicts_are_not_kept() -> None:
    session = _delegated("/home/dev/tide", REPORT)
    session.read(
        "package.json",
        '{"engines": {"node": ">=20.11"}, "devDependencies": {"vite": "5.2.11", "typescript": "5.4.5"}}',
    )

    assert reported_versions(session.events) is None


def test_versions_the_sessions_own_read_shows_are_kept() -> None:
    session = _delegated("/home/dev/tide", REPORT)
    session.read(
        "package.json",
        '{"engines": {"node": ">=18.19"}, "devDependencies": {"vite": "4.5.2", "typescript": "5.3.3"}}',
    )
    found = reported_versions(session.events)

    assert found is not None and "Vite 4.5.2" in found.content
    # A read of another file is no word on the report's.
    other = _delegated("/home/dev/tide", REPORT)
    other.read("README.md", "# Tide\n\nNeeds Node 20.\n")
    assert reported_versions(other.events) is not None
