"""A replay writes the instruction files its sessions showed, so a hook sees what the host loads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.instruction_files import write_shown_instructions
from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_gateway.hook_hosts import IMPORTING_HOSTS, LOADED_FILES, Host
from squirrel_gateway.host_imports import with_imports

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def loaded(root: Path, name: str, text: str, minute: int = 0) -> Event:
    """The host putting an instruction file into the session, as ingest's parsers give it."""
    return Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=EventType.USER_MESSAGE,
        timestamp=T0 + timedelta(minutes=minute),
        content={"text": text, "loaded_file": name},
        session_id="s",
        cwd=str(root),
        file_paths=(name,),
        origin=Origin.HARNESS,
    )


def host_loads(root: Path, host: Host) -> tuple[str, ...]:
    """What the hook service takes the host to load in the project (`_loaded_files`)."""
    files = LOADED_FILES[host]
    return with_imports(str(root), files) if host in IMPORTING_HOSTS else files


def test_a_claude_md_that_imports_agents_md_makes_claude_load_both(tmp_path: Path) -> None:
    events = [
        loaded(tmp_path, "CLAUDE.md", "@AGENTS.md\n"),
        loaded(tmp_path, "AGENTS.md", "# Rules\n\nCommit directly to `main`.\n"),
    ]
    assert write_shown_instructions(tmp_path, events) == ["AGENTS.md", "CLAUDE.md"]
    assert (tmp_path / "CLAUDE.md").read_text() == "@AGENTS.md\n"
    assert "AGENTS.md" in host_loads(tmp_path, Host.CLAUDE)
    # Codex loads AGENTS.md itself; Gemini loads only GEMINI.md, so it is given AGENTS.md's lines.
    assert "AGENTS.md" in host_loads(tmp_path, Host.CODEX)
    assert "AGENTS.md" not in host_loads(tmp_path, Host.GEMINI)


def test_without_the_files_on_disk_claude_is_taken_to_load_only_its_own(tmp_path: Path) -> None:
    assert "AGENTS.md" not in host_loads(tmp_path, Host.CLAUDE)


def test_the_last_text_shown_is_written_and_a_file_already_there_is_kept(tmp_path: Path) -> None:
    (tmp_path / "GEMINI.md").write_text("mine\n")
    events = [
        loaded(tmp_path, "CLAUDE.md", "old\n", 0),
        loaded(tmp_path, "CLAUDE.md", "@docs/rules.md\n", 1),
        loaded(tmp_path, "GEMINI.md", "@AGENTS.md\n", 2),
    ]
    assert write_shown_instructions(tmp_path, events) == ["CLAUDE.md"]
    assert (tmp_path / "CLAUDE.md").read_text() == "@docs/rules.md\n"
    assert (tmp_path / "GEMINI.md").read_text() == "mine\n"


def test_files_outside_the_project_or_not_instructions_are_not_written(tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    events = [
        loaded(project, "../CLAUDE.md", "@AGENTS.md\n"),
        loaded(project, "/home/dev/.claude/CLAUDE.md", "Be brief.\n"),
        loaded(project, "src/notes.txt", "hello\n"),
    ]
    assert write_shown_instructions(project, events) == []
    assert list(project.iterdir()) == []
    assert not (tmp_path / "CLAUDE.md").exists()
