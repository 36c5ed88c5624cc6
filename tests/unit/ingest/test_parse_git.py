"""Git history parsing: commit events from real `git log` output."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import pytest

from squirrel_core.events import EventType, SourceTool
from squirrel_ingest.parsers import GIT_LOG_ARGS, parse_git_log


def _git(repo: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "Ada Dev",
        "GIT_AUTHOR_EMAIL": "ada@example.com",
        "GIT_COMMITTER_NAME": "Ada Dev",
        "GIT_COMMITTER_EMAIL": "ada@example.com",
        "GIT_AUTHOR_DATE": "2026-03-01T10:00:00+02:00",
        "GIT_COMMITTER_DATE": "2026-03-01T10:00:00+02:00",
        "HOME": str(repo),
        "PATH": "/usr/bin:/bin:/usr/local/bin",
    }
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env
    ).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    _git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "a.py").write_text("a\n")
    (tmp_path / "dir with space").mkdir()
    (tmp_path / "dir with space" / "ü.txt").write_text("b\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "Add files\n\nBody line one.\nBody line two.")
    (tmp_path / "a.py").write_text("changed\n")
    _git(tmp_path, "commit", "-q", "-am", "Change a")
    _git(tmp_path, "commit", "-q", "--allow-empty", "-m", "Empty commit")
    return tmp_path


def test_git_log_output_becomes_commit_events(repo: Path) -> None:
    events = parse_git_log(_git(repo, *GIT_LOG_ARGS), str(repo))
    assert [e.content["message"].splitlines()[0] for e in events] == [
        "Empty commit",
        "Change a",
        "Add files",
    ]
    assert all(e.event_type is EventType.COMMIT and e.source_tool is SourceTool.GIT for e in events)
    first = events[2]
    assert first.content["files_changed"] == ["a.py", "dir with space/ü.txt"]
    assert first.file_paths == ("a.py", "dir with space/ü.txt")
    assert first.content["message"] == "Add files\n\nBody line one.\nBody line two."
    assert first.content["author"] == "Ada Dev <ada@example.com>"
    assert len(first.content["sha"]) == 40
    assert first.timestamp.isoformat() == "2026-03-01T08:00:00+00:00"
    assert events[0].content["files_changed"] == []
    assert first.cwd == str(repo)


def test_malformed_git_output_is_skipped_without_raising() -> None:
    counter: Counter[str] = Counter()
    output = (
        "\x1enot-a-sha\x1f2026\x1fa\x1fb\x1fmsg\x1f\n\x1e"
        + "a" * 40
        + "\x1fnever\x1fa\x1fb\x1fm\x1f\n\x1egarbage"
    )
    assert parse_git_log(output, "/r", skipped=counter) == []
    assert counter == Counter({"malformed_commit": 2, "missing_timestamp": 1})
