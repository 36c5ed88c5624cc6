"""Sessions do not contradict the repository: a session that touched `assets/package.json` of
an Elixir app does not make it a "JavaScript project"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from squirrel_memory.extractors.facts import project_facts
from squirrel_memory.models import StoredEvent
from tests.unit.memory.repository.conftest import ELIXIR, MakeRepo

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _touching(project: Path, paths: list[str]) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{n}",
            project_id=str(project),
            user_id="dev",
            source_tool="claude_code",
            session_id="s",
            timestamp=T0 + timedelta(seconds=n),
            event_type="code_change",
            content={"tool": "Edit", "path": path, "summary": "edit"},
            file_paths=(str(project / path),),
            hash=f"h{n}",
        )
        for n, path in enumerate(paths)
    ]


def test_a_repository_with_commits_gets_no_session_language_fact(make_repo: MakeRepo) -> None:
    root = make_repo(ELIXIR)
    touched = ["assets/package.json", "assets/js/app.js", "assets/js/app.js"]
    facts = project_facts(_touching(root, touched), [])
    assert not [f for f in facts if f.key == "language"]


def test_a_folder_without_git_still_gets_the_session_language_fact(tmp_path: Path) -> None:
    touched = ["js/app.js", "js/menu.js", "js/app.js"]
    facts = project_facts(_touching(tmp_path, touched), [])
    languages = [f.content for f in facts if f.key == "language"]
    assert languages == [
        "Code worked on in this project's sessions: JavaScript (2 files: `js/app.js`, `js/menu.js`)."
    ]
    # A sub-package (a folder with its own manifest) alone says nothing of the project.
    nested = ["assets/package.json", "assets/js/app.js", "assets/js/menu.js"]
    assert [f for f in project_facts(_touching(tmp_path, nested), []) if f.key == "language"] == []
