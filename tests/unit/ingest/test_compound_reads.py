"""A shell line that only prints files (`cat a; echo ---; cat b`, `head -n 50 a b`,
`sed -n 1,40p a && cat b`) is a read of each of them: the tool call records them in `reads`
and its paths, in every host's parser; the line stays a command (its output is the files'
texts together, so no one file's text is taken from it). A line that does anything else reads
nothing."""

from __future__ import annotations

import pytest

from squirrel_core.events import EventType
from squirrel_ingest.parsers import parse_gemini_json_document
from squirrel_ingest.parsers.claude import ClaudeFileParser
from squirrel_ingest.parsers.shell_commands import shell_reads
from tests.unit.ingest import test_parse_claude as claude
from tests.unit.ingest import test_parse_codex as codex
from tests.unit.ingest import test_parse_gemini as gemini


@pytest.mark.parametrize(
    ("command", "files"),
    [
        ("cat src/app.py; echo ---; cat pyproject.toml", ("src/app.py", "pyproject.toml")),
        ("head -n 50 lib/shop.ex mix.exs", ("lib/shop.ex", "mix.exs")),
        ("sed -n 1,40p src/main.rs && cat Cargo.toml", ("src/main.rs", "Cargo.toml")),
        ("cat package.json\necho\ncat src/index.ts", ("package.json", "src/index.ts")),
        ("head -20 go.mod main.go; printf '\\n'; tail -n 5 main.go", ("go.mod", "main.go")),
        ("cat 'docs/a b.md' && nl -ba Gemfile", ("docs/a b.md", "Gemfile")),
    ],
)
def test_a_line_that_only_prints_files_reads_each(command: str, files: tuple[str, ...]) -> None:
    assert shell_reads(command) == files


@pytest.mark.parametrize(
    "command",
    [
        "cat src/app.py > copy.py",  # writes a file
        "cat mix.exs | grep elixir",  # the output goes elsewhere
        "cat Cargo.toml; cargo build",  # runs something else
        "cat go.mod || echo missing",
        "cat $FILE; cat main.go",  # what it read is not on the line
        "cat src/*.ts",
        "head -n 5 ~/.bashrc",
        "for f in a.py b.py; do cat $f; done",
        "sed -i 's/a/b/' src/app.py && cat src/app.py",  # edits in place
        "cat <<'EOF' > notes.md\nhello\nEOF",
        "(cat a.py; cat b.py)",
        "echo --- && echo done",  # prints no file
        "cat 'unbalanced",
    ],
)
def test_a_line_that_does_more_than_print_files_reads_nothing(command: str) -> None:
    assert shell_reads(command) == ()


def test_claude_codes_bash_call_records_the_files_it_printed() -> None:
    command = "cat src/app.py; echo ---; cat pyproject.toml"
    events = claude._feed(
        ClaudeFileParser("s.jsonl"),
        claude._tool_use("a1", "toolu_c", "Bash", {"command": command}),
        claude._tool_result("u1", "toolu_c", "print(1)\n---\n[project]\n"),
    )

    (call,) = claude._of(events, EventType.TOOL_CALL)
    assert call.content["tool"] == "Bash"
    assert call.content["reads"] == ["src/app.py", "pyproject.toml"]
    assert call.file_paths == ("src/app.py", "pyproject.toml")
    (run,) = claude._of(events, EventType.COMMAND_RUN)  # still a command, its output whole
    assert run.content["command"] == command


def test_a_codex_shell_call_records_the_files_it_printed_from_its_folder() -> None:
    events = codex._ran("head -n 50 lib/shop.ex mix.exs", "defmodule Shop\n", "/work/repo/app")

    (call,) = codex._of(events, EventType.TOOL_CALL)
    assert call.content["reads"] == ["app/lib/shop.ex", "app/mix.exs"]
    assert call.file_paths == ("app/lib/shop.ex", "app/mix.exs")
    assert codex._of(events, EventType.COMMAND_RUN)


def test_a_gemini_shell_call_records_the_files_it_printed() -> None:
    command = "sed -n 1,40p src/main.rs && cat Cargo.toml"
    report = f"Command: {command}\nDirectory: (root)\nOutput: fn main() {{}}\nError: (none)\nExit Code: 0"
    data = gemini._doc(
        [gemini._message("m1", "gemini", "", [gemini._call("success", report, command=command)])]
    )

    events, _ = parse_gemini_json_document(data, gemini.PATH, 1, set(), cwd="/w")

    (call,) = [e for e in events if e.event_type is EventType.TOOL_CALL]
    assert call.content["reads"] == ["src/main.rs", "Cargo.toml"]
    assert [e for e in events if e.event_type is EventType.COMMAND_RUN]


def test_a_line_that_runs_something_else_records_no_reads() -> None:
    events = codex._ran("cat Cargo.toml; cargo build", "ok\n")

    (call,) = codex._of(events, EventType.TOOL_CALL)
    assert "reads" not in call.content and call.file_paths == ()
