"""The foresight replay's reading of fixtures: paths moved into the replay, sessions in order."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath

import pytest

from bench import foresight
from bench.fixture_pipeline import relocate
from bench.foresight_fixtures import Project, sessions_of
from bench.foresight_score import SessionFacts
from bench.foresight_service import materialise, project_folder
from squirrel_core.events import Event, EventType, SourceTool
from tests.unit.test_instruction_files import loaded

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def event(session: str, minute: int, cwd: str, command: str = "ls", *paths: str) -> Event:
    return Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=EventType.COMMAND_RUN,
        timestamp=T0 + timedelta(minutes=minute),
        content={"command": command, "output": {"lines": [f"{cwd}/a.py"]}},
        session_id=session,
        cwd=cwd,
        file_paths=paths,
    )


def test_the_commonest_folder_moves_into_the_replay_and_nothing_else_does() -> None:
    events = [
        event("s", 0, "/home/dev/app", "ruff check /home/dev/app/src", "/home/dev/app/src/x.py"),
        event("s", 1, "/home/dev/app/web", "cat /home/dev/app-worktrees/b/y.py"),
        event("s", 2, "/tmp/elsewhere", "pytest"),
        event("s", 3, "/home/dev/app", "pytest"),
    ]
    moved = relocate(events, "/replay/p")
    assert [e.cwd for e in moved] == ["/replay/p", "/replay/p/web", "/replay/p", "/replay/p"]
    assert moved[0].content["command"] == "ruff check /replay/p/src"
    assert moved[0].content["output"] == {"lines": ["/replay/p/a.py"]}
    assert moved[0].file_paths == ("/replay/p/src/x.py",)
    assert moved[1].content["command"] == "cat /home/dev/app-worktrees/b/y.py"  # a sibling


def test_a_windows_folder_moves_in_every_spelling_a_command_writes_it() -> None:
    root = "C:\\Users\\ann\\modular app"
    events = [
        event("s", 0, root, 'cd "C:/Users/ann/modular app" && npx vite build'),
        event("s", 1, root, "cd /c/Users/ann/modular app/web && ls"),
        event("s", 2, root, "cat C:/Users/ann/modular apps/x"),
    ]
    moved = relocate(events, "/replay/p")
    assert moved[0].content["command"] == 'cd "/replay/p" && npx vite build'
    assert moved[1].content["command"] == "cd /replay/p/web && ls"
    assert moved[2].content["command"] == "cat C:/Users/ann/modular apps/x"  # a sibling


def test_sessions_are_ordered_by_their_start_and_their_events_by_time() -> None:
    events = [
        event("late", 5, "/a"),
        event("early", 3, "/a"),
        event("late", 4, "/a"),
        event("early", 1, "/a"),
        event("", 0, "/a"),  # no session: not replayed
    ]
    sessions = sessions_of(events)
    assert [s.session_id for s in sessions] == ["early", "late"]
    assert [e.timestamp.minute for e in sessions[1].events] == [4, 5]


def test_files_a_session_touched_exist_for_the_next_but_folders_and_outside_paths_do_not(
    tmp_path: Path,
) -> None:
    touched = ("src/app.py", "src", "README.md", "/etc/hosts.txt", "../other/x.py", "docs/a.md")
    facts = SessionFacts("s", (), (), (), (), tuple((T0, p) for p in touched))
    materialise(tmp_path, facts)
    made = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert made == ["README.md", "docs/a.md", "src/app.py"]
    assert not (tmp_path.parent / "other").exists()


def test_a_session_is_a_subagents_alone_only_when_every_event_is_a_subagents() -> None:
    side = dataclasses.replace(event("s", 0, "/a"), sidechain=True)
    assert sessions_of([side])[0].subagent_only
    assert not sessions_of([side, event("s", 1, "/a")])[0].subagent_only
    assert not sessions_of([event("s", 1, "/a")])[0].subagent_only


def test_a_folder_without_fixture_projects_is_an_error_that_says_which_folder_to_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "claude").mkdir()  # given `fixtures/claude` instead of `fixtures`
    assert foresight.main(["--fixtures", str(tmp_path / "claude")]) == 2
    said = capsys.readouterr().err
    assert "no fixture project under" in said and "`claude/`" in said


@pytest.mark.parametrize(
    ("name", "cwd", "folder"),
    [
        ("-Users-dev-work-my-app", "/Users/dev/work/my_app", "my_app"),
        ("codex:tool", "C:\\Users\\dev\\src\\Tool.Lib", "Tool.Lib"),
        ("codex:peq", "", "peq"),
    ],
)
def test_a_replayed_project_lives_in_a_folder_named_as_it_was_on_the_users_disk(
    tmp_path: Path, name: str, cwd: str, folder: str
) -> None:
    events = (event("s", 0, cwd), event("s", 1, cwd))
    root = project_folder(tmp_path, Project(name, events))
    assert root.is_dir()
    assert root.name == folder
    moved = relocate(events, str(root))
    assert PurePosixPath(moved[0].cwd or "").name == folder


@pytest.mark.parametrize(
    ("importer", "imported"), [("CLAUDE.md", "AGENTS.md"), ("GEMINI.md", "AGENTS.md")]
)
def test_an_instruction_file_a_session_showed_is_there_with_its_text_for_the_next(
    tmp_path: Path, importer: str, imported: str
) -> None:
    facts = SessionFacts("s", (), (), (), (), ((T0, importer), (T0, imported), (T0, "src/x.py")))
    events = [
        loaded(tmp_path, importer, f"@{imported}\n"),
        loaded(tmp_path, imported, "# Rules\n\nCommit directly to `main`.\n"),
    ]

    materialise(tmp_path, facts, events)

    assert (tmp_path / importer).read_text() == f"@{imported}\n"
    assert (tmp_path / imported).read_text().startswith("# Rules")
    assert (tmp_path / "src/x.py").read_text() == ""


def test_a_later_session_replaces_the_text_an_earlier_one_showed(tmp_path: Path) -> None:
    facts = SessionFacts("s", (), (), (), (), ((T0, "CLAUDE.md"),))
    materialise(tmp_path, facts)  # touched without its text shown: made empty
    materialise(tmp_path, facts, [loaded(tmp_path, "CLAUDE.md", "old\n")])
    materialise(tmp_path, facts, [loaded(tmp_path, "CLAUDE.md", "@AGENTS.md\n", 5)])

    assert (tmp_path / "CLAUDE.md").read_text() == "@AGENTS.md\n"


def test_an_instruction_file_outside_the_project_is_not_written(tmp_path: Path) -> None:
    """Must not fire: a file above the project or a user-level one is never written."""
    project = tmp_path / "app"
    project.mkdir()
    facts = SessionFacts("s", (), (), (), (), ())
    materialise(
        project,
        facts,
        [
            loaded(project, "../CLAUDE.md", "x\n"),
            loaded(project, "/home/u/.claude/CLAUDE.md", "y\n"),
        ],
    )

    assert list(project.iterdir()) == []
    assert not (tmp_path / "CLAUDE.md").exists()


@pytest.mark.parametrize(
    ("prompt", "command"),
    [
        ("/clear", "/clear"),
        ("/model opus", "/model"),
        ("/new", "/new"),  # Codex CLI's fresh context
        ("/stats", "/stats"),  # Gemini CLI's
        # a custom command or skill reaches the model, and a path is no command
        ("/review the parser", None),
        ("/bmad:bmm:workflows:create-tech-spec", None),
        ("/src/app.py is slow", None),
        ("clear the cache", None),
    ],
)
def test_a_host_s_own_command_is_no_prompt(prompt: str, command: str | None) -> None:
    assert foresight.host_command(prompt) == command
