"""A folder's naming convention is noted when a session writes a file the way its siblings are
named, and never from a listing alone or from a few files among many named otherwise."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_memory.extractors.file_naming import file_naming
from squirrel_memory.models import StoredEvent

ROOT = "/home/dev/journal"
T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


class Events:
    def __init__(self) -> None:
        self.events: list[StoredEvent] = []

    def add(self, kind: str, content: dict[str, Any], paths: tuple[str, ...] = ()) -> str:
        n = len(self.events) + 1
        self.events.append(
            StoredEvent(
                id=f"e{n}",
                project_id=ROOT,
                user_id="dev",
                source_tool="claude_code",
                session_id="s1",
                timestamp=T0 + timedelta(seconds=n),
                event_type=kind,
                content=content,
                file_paths=paths,
                hash=f"h{n}",
            )
        )
        return f"e{n}"

    def ls(self, command: str, output: str, cwd: str | None = None) -> None:
        content = {"command": command, "exit_code": 0, "is_error": False, "output": output}
        self.add("command_run", content if cwd is None else {**content, "cwd": cwd})

    def write(self, path: str, tool: str = "Write") -> None:
        full = path if path.startswith("/") else f"{ROOT}/{path}"
        self.add("code_change", {"tool": tool, "path": full}, (full,))

    def read(self, path: str) -> None:
        full = f"{ROOT}/{path}"
        self.add("tool_result", {"tool": "Read", "output": "x", "is_error": False}, (full,))


def test_a_dated_note_written_among_dated_notes_notes_the_convention() -> None:
    s = Events()
    s.ls("ls posts", "2026-04-01-hello.md\n2026-04-20-roadmap.md\n2026-04-28-q2-review.md\n")
    s.write("posts/2026-05-04-release-notes.md")

    (found,) = file_naming(s.events)

    assert found.key == "naming:posts"
    assert found.content == (
        "Files in `posts/` are named by date: `YYYY-MM-DD-<title>.md` "
        "(e.g. `2026-05-04-release-notes.md`)."
    )
    assert found.event_ids == ("e2", "e1")


def test_a_long_listing_and_files_read_count_as_siblings() -> None:
    s = Events()
    s.ls(
        "ls -la steps/",
        "total 24\n-rw-r--r--  1 dev staff  120 May  1 10:00 01_load.py\n"
        "-rw-r--r--  1 dev staff  300 May  1 10:00 02_join.py\n",
    )
    s.read("steps/03_model.py")
    s.write("steps/04_report.py")

    (found,) = file_naming(s.events)

    assert "`NN_<name>.py`" in found.content


def test_a_listing_alone_notes_nothing() -> None:
    s = Events()
    s.ls("ls daily", "2026-04-28.md\n2026-04-29.md\n2026-04-30.md\n")
    s.read("daily/2026-04-30.md")

    assert file_naming(s.events) == []


@pytest.mark.parametrize(
    ("listing", "written"),
    [
        # The new file is named otherwise.
        ("2026-04-28.md\n2026-04-29.md\n2026-04-30.md\n", "daily/today.md"),
        # One sibling only.
        ("2026-04-28.md\n", "daily/2026-05-04.md"),
        # Most of the folder is named otherwise.
        ("2026-04-28.md\n2026-04-29.md\nideas.md\ntodo.md\ninbox.md\n", "daily/2026-05-04.md"),
        # The siblings named so are of another kind.
        ("2026-04-28.png\n2026-04-29.png\n2026-04-30.png\n", "daily/2026-05-04.md"),
        # Same pattern, another shape (dated with a title versus bare dates).
        ("2026-04-28.md\n2026-04-29.md\n2026-04-30.md\n", "daily/2026-05-04-standup.md"),
    ],
)
def test_no_convention_without_siblings_named_the_same_way(listing: str, written: str) -> None:
    s = Events()
    s.ls("ls daily", listing)
    s.write(written)

    assert file_naming(s.events) == []


@pytest.mark.parametrize(
    "written",
    [
        "node_modules/pkg/2026-05-04.md",
        ".obsidian/2026-05-04.md",
        "/home/dev/other/daily/2026-05-04.md",
        "2026-05-04.md",
    ],
)
def test_folders_outside_the_work_say_nothing(written: str) -> None:
    folder = written.rsplit("/", 1)[0] if "/" in written else "."
    s = Events()
    s.ls(f"ls {folder}", "2026-04-28.md\n2026-04-29.md\n2026-04-30.md\n")
    s.write(written)

    assert file_naming(s.events) == []


def test_a_listing_of_several_folders_or_a_failed_one_is_not_read() -> None:
    s = Events()
    s.ls("ls daily weekly", "2026-04-28.md\n2026-04-29.md\n2026-04-30.md\n")
    s.add(
        "command_run",
        {"command": "ls daily", "exit_code": 2, "is_error": True, "output": "2026-04-28.md\n"},
    )
    s.write("daily/2026-05-04.md")

    assert file_naming(s.events) == []


def test_a_listing_in_the_project_root_counts_and_one_made_elsewhere_does_not() -> None:
    at_root = Events()
    at_root.ls("ls daily", "2026-04-28.md\n2026-04-29.md\n", cwd=ROOT)
    at_root.write("daily/2026-05-04.md")
    elsewhere = Events()
    elsewhere.ls("ls daily", "2026-04-28.md\n2026-04-29.md\n", cwd="/home/dev/other")
    elsewhere.write("daily/2026-05-04.md")

    assert [n.key for n in file_naming(at_root.events)] == ["naming:daily"]
    assert file_naming(elsewhere.events) == []


@pytest.mark.parametrize(("tool", "noted"), [("write_file", True), ("Edit", False)])
def test_a_whole_file_written_by_any_host_counts_and_an_edit_does_not(
    tool: str, noted: bool
) -> None:
    s = Events()
    s.ls("ls daily", "2026-04-28.md\n2026-04-29.md\n2026-04-30.md\n")
    s.write("daily/2026-05-04.md", tool=tool)

    assert bool(file_naming(s.events)) is noted
