"""A file read in the session: which events count as one, and which start at the file's top."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from squirrel_memory.extractors.file_reads import (
    from_first_line,
    head_read_text,
    read_output,
    shell_read_paths,
    shown_file_texts,
    whole_read_output,
)
from squirrel_memory.models import StoredEvent


def _event(kind: str, content: dict[str, Any]) -> StoredEvent:
    return StoredEvent(
        id="e1",
        project_id="/home/dev/notes",
        user_id="dev",
        source_tool="claude_code",
        session_id="s1",
        timestamp=datetime(2026, 4, 6, tzinfo=UTC),
        event_type=kind,
        content=content,
        file_paths=("todo.md",),
        hash="h",
    )


def test_a_successful_read_gives_its_output() -> None:
    for tool in ("Read", "read_file", "view"):
        event = _event("tool_result", {"tool": tool, "output": "     1→# Notes\n"})
        assert read_output(event) == "     1→# Notes\n"


def test_failed_reads_other_tools_and_other_events_give_nothing() -> None:
    failed = _event("tool_result", {"tool": "Read", "output": "no such file", "is_error": True})
    other_tool = _event("tool_result", {"tool": "Bash", "output": "     1→x\n"})
    call = _event("tool_call", {"tool": "Read", "output": "     1→x\n"})
    no_text = _event("tool_result", {"tool": "Read", "output": None})

    assert [read_output(e) for e in (failed, other_tool, call, no_text)] == [None] * 4


def test_only_a_read_from_the_first_line_is_whole() -> None:
    assert from_first_line("     1→first\n     2→second\n")
    assert from_first_line("     1\tcat -n output\n")
    assert from_first_line("plain text without numbers\n")
    assert not from_first_line("    40→the middle of a file\n")
    middle = _event("tool_result", {"tool": "Read", "output": "    40→middle\n"})
    top = _event("tool_result", {"tool": "Read", "output": "     1→top\n"})
    assert whole_read_output(middle) is None
    assert whole_read_output(top) == "     1→top\n"


def test_a_read_said_to_be_partial_is_not_whole() -> None:
    top = {"tool": "read_file", "output": "# Notes\n\n- one\n- tw"}
    partial = _event("tool_result", top | {"partial": True, "lines": [1, 4]})
    assert whole_read_output(partial) is None
    assert whole_read_output(_event("tool_result", top)) == top["output"]


def test_a_partial_reads_text_ends_where_its_last_whole_block_does() -> None:
    top = {"tool": "read_file", "output": "# Notes\n\n- one\n- tw"}
    partial = _event("tool_result", top | {"partial": True, "lines": [1, 4]})
    middle = _event("tool_result", {"tool": "Read", "output": "    40→middle\n"})
    assert head_read_text(partial) == "# Notes"
    assert head_read_text(_event("tool_result", top)) == top["output"]
    assert head_read_text(middle) is None


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("sed -n 89,130p src/a.ts", ["src/a.ts"]),
        # a sed script is no file, whatever slashes it holds
        ("sed s/foo/bar/g src/a.ts", ["src/a.ts"]),
        ("sed 's|lib/old|lib/new|' docs/guide.md", ["docs/guide.md"]),
        ("sed -n /start/,/end/p notes/todo.md", ["notes/todo.md"]),
        ("sed -e s/a/b/ -e s/c/d/ src/a.ts", ["src/a.ts"]),
        ("sed --expression=s/a/b/ src/a.ts", ["src/a.ts"]),
        ("sed -f fix/rename.sed src/a.ts", ["src/a.ts"]),
        ("sed -i s/a/b/ src/a.ts", []),  # edited in place: nothing printed
        ("cat src/a.ts lib/b.py", ["src/a.ts", "lib/b.py"]),
    ],
)
def test_a_command_that_prints_files_names_them_and_nothing_else(
    command: str, named: list[str]
) -> None:
    event = _event("command_run", {"command": command, "exit_code": 0, "output": "text"})
    assert shell_read_paths(event) == named


# --- files a command printed ----------------------------------------------------------------


def _ran(command: str, output: str, exit_code: int = 0) -> StoredEvent:
    return _event("command_run", {"command": command, "output": output, "exit_code": exit_code})


def test_each_file_a_marked_line_printed_is_its_text_from_the_top() -> None:
    # a Rust crate's roots, printed between the markers the line echoes
    event = _ran(
        'ls src/*.rs; echo "---"; cat src/lib.rs 2>/dev/null | head -20; echo "---main---"; '
        "cat src/main.rs",
        "src/lib.rs\nsrc/main.rs\n---\n//! Converts newsletters into Atom feeds.\n//!\n"
        "//! One binary.\n\npub mod time;\n---main---\nuse ktn::time;\n\nfn main() {}\n",
    )

    assert shown_file_texts(event) == [
        # cut short by `head`: up to its last blank line
        ("src/lib.rs", "//! Converts newsletters into Atom feeds.\n//!\n//! One binary."),
        # whole
        ("src/main.rs", "use ktn::time;\n\nfn main() {}"),
    ]


def test_a_lone_reader_shows_its_file() -> None:
    # a Python package's README, whole; its package docstring from the top
    readme = "# Queue\n\nSchedules background jobs on SQLite.\n"
    assert shown_file_texts(_ran("cat README.md", readme)) == [("README.md", readme.rstrip())]
    assert shown_file_texts(
        _ran("sed -n '1,3p' queue/__init__.py", '"""Jobs."""\n\nimport x\n')
    ) == [("queue/__init__.py", '"""Jobs."""')]


@pytest.mark.parametrize(
    ("command", "output", "exit_code"),
    [
        ("cd ../other && cat README.md", "# Other\n", 0),  # another folder's file
        ("cat README.md", "# Queue\n", 1),  # a failed command
        ("cat README.md; echo ---; cat NOTES.md", "# Queue\n# Notes\n", 0),  # no marker printed
        ("cat README.md NOTES.md", "# Queue\n# Notes\n", 0),  # two files in one output
        ("cat README.md && cat NOTES.md", "# Queue\n# Notes\n", 0),  # no marker between them
        ("sed -n '40,80p' README.md", "line forty\n", 0),  # not from the top
    ],
)
def test_no_text_where_the_output_is_not_one_files_from_its_top(
    command: str, output: str, exit_code: int
) -> None:
    assert shown_file_texts(_ran(command, output, exit_code)) == []
