"""One table of which tool calls write, edit, run or read on every host (`squirrel_core.
host_tools`), and the extractors that read it: a CI workflow is read from whichever host's call
wrote it (a Codex patch that adds it beside other files too), a change the rules cannot apply
silences it, and a shell tool's call is never a second line beside the command it ran."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bench.stored_events import stored
from squirrel_core.events import SourceTool
from squirrel_core.host_tools import CHANGE_TOOLS, HOSTS, READ_TOOLS, RUN_TOOLS
from squirrel_ingest.parsers import parse_file
from squirrel_ingest.parsers.classify import CODE_CHANGE_TOOLS
from squirrel_memory.extractors.ci_commands import ci_commands
from squirrel_memory.extractors.prompts import render_events
from squirrel_memory.models import StoredEvent
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/src/ledger"
T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)
WORKFLOW = ".github/workflows/ci.yml"
GITHUB_GO = """name: CI
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: go test ./...
      - run: go vet ./...
"""
GO_SAID = (
    "CI (.github/workflows/ci.yml) runs the tests with `go test ./...`; lints with `go vet ./...`."
)
GITLAB_NODE = """stages: [test]
unit:
  stage: test
  script:
    - npm ci
    - npm test
"""


def _at(n: int) -> str:
    return (T0 + timedelta(seconds=10 * n)).isoformat().replace("+00:00", "Z")


def _codex(items: list[dict[str, Any]]) -> list[StoredEvent]:
    """A Codex CLI rollout of `items` (response items), read by the real parser."""
    lines: list[dict[str, Any]] = [
        {
            "timestamp": _at(0),
            "type": "session_meta",
            "payload": {"id": "019e2000-0000", "cwd": ROOT, "cli_version": "0.171.0"},
        },
        {
            "timestamp": _at(1),
            "type": "event_msg",
            "payload": {"type": "user_message", "message": "Add CI for the tests."},
        },
    ]
    lines += [
        {"timestamp": _at(n + 2), "type": "response_item", "payload": item}
        for n, item in enumerate(items)
    ]
    data = ("\n".join(json.dumps(line) for line in lines) + "\n").encode()
    path = "/home/dev/.codex/sessions/2026/04/01/rollout-2026-04-01T09-00-00-x.jsonl"
    return stored(parse_file(SourceTool.CODEX, path, data).events, ROOT, "e")


def _patched(call_id: str, body: str) -> list[dict[str, Any]]:
    call = {"type": "custom_tool_call", "status": "completed", "name": "apply_patch"}
    done = json.dumps({"output": "Success. Updated the following files:\n"})
    return [
        {**call, "call_id": call_id, "input": body},
        {"type": "custom_tool_call_output", "call_id": call_id, "output": done},
    ]


def _added(path: str, text: str) -> str:
    lines = "".join(f"+{line}\n" for line in text.splitlines())
    return f"*** Add File: {path}\n{lines}"


def test_the_table_names_the_same_change_tools_ingest_records_changes_for() -> None:
    assert CODE_CHANGE_TOOLS == CHANGE_TOOLS
    assert {"Write", "write_file"} <= CHANGE_TOOLS
    assert not RUN_TOOLS & (CHANGE_TOOLS | READ_TOOLS)
    # Every assistant whose transcripts are read has its row.
    assistants = {t.value for t in SourceTool} - {SourceTool.GIT.value, SourceTool.MANUAL.value}
    assert set(HOSTS) == assistants


@pytest.mark.parametrize(
    ("first", "text", "said"),
    [
        (_added("Makefile", "test:\n\tgo test ./..."), GITHUB_GO, GO_SAID),
        (
            _added("package.json", '{"scripts": {"test": "vitest"}}'),
            GITLAB_NODE,
            "CI (.gitlab-ci.yml) runs the tests with `npm test`.",
        ),
    ],
    ids=["go", "node"],
)
def test_a_codex_patch_that_adds_the_workflow_beside_another_file_is_read(
    first: str, text: str, said: str
) -> None:
    path = WORKFLOW if "go test" in text else ".gitlab-ci.yml"
    body = f"*** Begin Patch\n{first}{_added(path, text)}*** End Patch\n"
    (found,) = ci_commands(_codex(_patched("call_1", body)))
    assert found.content == said
    assert found.path == path


def test_a_codex_patch_that_deletes_the_workflow_silences_it() -> None:
    added = f"*** Begin Patch\n{_added(WORKFLOW, GITHUB_GO)}*** End Patch\n"
    deleted = f"*** Begin Patch\n*** Delete File: {WORKFLOW}\n*** End Patch\n"
    events = _codex(_patched("call_1", added) + _patched("call_2", deleted))
    assert ci_commands(events) == []
    # Without the deletion, the same workflow is read (the test can fail the other way).
    assert len(ci_commands(_codex(_patched("call_1", added)))) == 1


def _changed(session: Session, tool: str, data: dict[str, Any]) -> None:
    use = f"t{len(session.events)}"
    full = f"{ROOT}/{WORKFLOW}"
    content = {"tool": tool, "tool_use_id": use, "input": {"file_path": full, **data}}
    session.add("tool_call", content, (full,))
    session.add("code_change", {"tool": tool, "tool_use_id": use, "path": full}, (full,))


def test_a_claude_code_multi_edit_of_the_workflow_is_applied() -> None:
    session = Session(ROOT, "s1", T0)
    session.write(WORKFLOW, GITHUB_GO)
    edits = [{"old_string": "go test ./...", "new_string": "go test -race ./..."}]
    _changed(session, "MultiEdit", {"edits": edits})
    (found,) = ci_commands(session.events)
    assert "`go test -race ./...`" in found.content
    assert len(found.event_ids) == 2


def test_a_replace_all_edit_is_applied_everywhere_it_matches() -> None:
    session = Session(ROOT, "s1", T0)
    session.write(WORKFLOW, GITHUB_GO)
    edit = {"old_string": "./...", "new_string": "./cmd/...", "replace_all": True}
    _changed(session, "Edit", edit)
    (found,) = ci_commands(session.events)
    assert "`go test ./cmd/...`" in found.content and "`go vet ./cmd/...`" in found.content


def test_a_change_in_a_form_the_rules_do_not_read_silences_the_workflow() -> None:
    # Cursor's `edit_file` gives the new code with markers of what it kept, not the text it
    # replaced: what the workflow says after it is not known.
    session = Session(ROOT, "s1", T0)
    session.write(WORKFLOW, GITHUB_GO)
    _changed(session, "edit_file", {"code_edit": "# ... existing code ...\n      - run: make"})
    assert ci_commands(session.events) == []


def test_a_call_of_a_tool_that_changes_nothing_leaves_the_workflow_as_it_was() -> None:
    session = Session(ROOT, "s1", T0)
    session.write(WORKFLOW, GITHUB_GO)
    full = f"{ROOT}/{WORKFLOW}"
    session.add(
        "tool_call", {"tool": "Grep", "tool_use_id": "g1", "input": {"path": full}}, (full,)
    )
    (found,) = ci_commands(session.events)
    assert found.content == GO_SAID


@pytest.mark.parametrize("host", ["claude_code", "codex", "gemini_cli", "cursor"])
def test_a_shell_tools_call_is_not_a_line_beside_the_command_it_ran(host: str) -> None:
    session = Session(ROOT, "s1", T0)
    for tool in sorted(HOSTS[host].run):
        session.add("tool_call", {"tool": tool, "tool_use_id": tool, "input": {"command": "ls"}})
        session.add("command_run", {"command": "ls", "tool_use_id": tool, "exit_code": 0})
    path = f"{ROOT}/go.mod"
    session.add("tool_call", {"tool": "Read", "tool_use_id": "r", "input": {}}, (path,))
    text, _ = render_events(session.events, 10_000)
    assert text.count("ran `ls` → ok") == len(HOSTS[host].run)
    assert "tool Read" in text  # a read is still said
    assert not any(f"tool {tool}" in text for tool in HOSTS[host].run), text
