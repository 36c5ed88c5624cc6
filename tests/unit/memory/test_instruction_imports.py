"""An instruction file that holds nothing but `@path` imports says where the project's
instructions live; a file with its own rules beside an import, a mention in prose, an import
from outside the project and a sub-folder's file say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.instruction_imports import imported, instruction_imports
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def test_a_claude_md_loaded_by_its_host_in_a_go_service_points_to_agents_md() -> None:
    session = Session("/home/dev/relay", "s1", T0)
    session.add(
        "user_message",
        {"text": "@AGENTS.md", "loaded_file": "CLAUDE.md"},
        ("CLAUDE.md",),
        origin="harness",
    )
    session.user("Add a retry to the relay client in internal/relay/client.go.")

    (fact,) = [c for c in session.extracted() if c.key.startswith("instructions:imports:")]

    assert fact.type == MemoryType.PROJECT_FACT
    assert fact.content == (
        "`CLAUDE.md` only imports `AGENTS.md` (`@AGENTS.md`): the project's instructions are "
        "kept in `AGENTS.md`."
    )


def test_a_gemini_md_read_in_an_elixir_app_may_import_two_files() -> None:
    session = Session("/home/dev/shop", "s1", T0)
    session.read("GEMINI.md", "@AGENTS.md\n\n@docs/conventions.md\n")

    (found,) = instruction_imports(session.events)

    assert found.content == (
        "`GEMINI.md` only imports `AGENTS.md` and `docs/conventions.md` (`@AGENTS.md`, "
        "`@docs/conventions.md`): the project's instructions are kept in `AGENTS.md` and "
        "`docs/conventions.md`."
    )


@pytest.mark.parametrize(
    "text",
    [
        "@AGENTS.md\n\n- Run `mix test` before committing.\n",  # its own rules beside it
        "Ask @alice before touching the billing code.\n",  # a mention in prose
        "@~/notes/claude.md\n",  # a file outside the project
        "@../shared/AGENTS.md\n",
        "@alice\n",  # no file
        "",
    ],
)
def test_anything_but_imports_of_project_files_is_no_pointer(text: str) -> None:
    assert imported(text) == []


def test_a_sub_folders_instruction_file_says_nothing() -> None:
    session = Session("/home/dev/shop", "s1", T0)
    session.read("web/CLAUDE.md", "@AGENTS.md\n")

    assert instruction_imports(session.events) == []


def _changed_by_a_script(*, loaded: bool, read: bool, then: tuple[str, str]) -> list[str]:
    session = Session("/home/dev/relay", "s1", T0)
    if loaded:
        session.add(
            "user_message",
            {"text": "@HANDBOOK.md", "loaded_file": "AGENTS.md"},
            ("AGENTS.md",),
            origin="harness",
        )
    session.user("Sync the rules from the handbook, then commit.")
    if read:
        session.read("AGENTS.md", "@HANDBOOK.md\n")
    session.run(*then[:1], 0, then[1])
    session.run("git commit -am 'Sync rules'", 0, "[main 1a2b3c4] Sync rules\n")
    return [f.content for f in instruction_imports(session.events)]


@pytest.mark.parametrize(
    "then",
    [
        ("./scripts/sync_rules.sh", "Updated AGENTS.md\n"),
        ("git status --short", " M AGENTS.md\n"),
        ("echo '- Run `go test ./...`.' >> AGENTS.md", ""),
    ],
    ids=["script-report", "status", "append"],
)
@pytest.mark.parametrize(("loaded", "read"), [(False, True), (True, True), (True, False)])
def test_a_file_a_script_or_command_changed_after_it_was_seen_is_no_pointer(
    then: tuple[str, str], loaded: bool, read: bool
) -> None:
    assert _changed_by_a_script(loaded=loaded, read=read, then=then) == []


def test_a_status_of_other_files_keeps_the_pointer() -> None:
    (fact,) = _changed_by_a_script(loaded=True, read=True, then=("git status -s", " M a.go\n"))
    assert "only imports `HANDBOOK.md`" in fact


def test_a_file_a_command_printed_then_a_script_changed_is_no_pointer() -> None:
    session = Session("/home/dev/relay", "s1", T0)
    session.user("Sync the rules, then commit.")
    session.run("cat AGENTS.md", 0, "@HANDBOOK.md\n")
    before = [f.content for f in instruction_imports(session.events)]
    session.run("./scripts/sync_rules.sh", 0, "Updated AGENTS.md\n")
    assert before and instruction_imports(session.events) == []
