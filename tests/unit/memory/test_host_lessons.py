"""Every host alike: the same session written by Claude Code, Codex CLI or Gemini CLI, read by
the real parser of each host, gives the same pitfall (its error, cause and the difference that
fixed it) and the same CI recipe, in more than one ecosystem. A Codex CLI patch (`apply_patch`)
is read as the text each hunk replaced and wrote, as the other hosts' edits are; where the edit
is not the fix, or a patch does not match the file, no host's memory says it."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bench.stored_events import stored
from squirrel_core.events import Event, SourceTool
from squirrel_ingest.parsers import parse_file
from squirrel_memory.extractors.ci_commands import ci_commands
from squirrel_memory.extractors.differences import edits
from squirrel_memory.extractors.patch_edits import patch_body, patch_edits
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

ROOT = "/home/dev/src/app"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Run:
    command: str
    exit_code: int
    output: str


@dataclass(frozen=True, slots=True)
class Change:
    path: str  # relative to ROOT
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class Write:
    path: str  # relative to ROOT
    text: str


@dataclass(frozen=True, slots=True)
class Say:
    text: str


Step = Run | Change | Write | Say


def _at(n: int) -> str:
    return (T0 + timedelta(seconds=10 * n)).isoformat().replace("+00:00", "Z")


# --- Claude Code: `Bash` and `Edit` tool uses, their results in user records -----------------


def _claude(steps: Sequence[Step]) -> tuple[str, bytes]:
    lines: list[dict[str, Any]] = []

    def record(kind: str, message: dict[str, Any]) -> None:
        lines.append(
            {
                "type": kind,
                "uuid": f"u{len(lines)}",
                "parentUuid": f"u{len(lines) - 1}" if lines else None,
                "sessionId": "11111111-2222-3333-4444-555555555555",
                "cwd": ROOT,
                "version": "2.1.70",
                "isSidechain": False,
                "timestamp": _at(len(lines)),
                "message": message,
            }
        )

    def call(name: str, tool_input: dict[str, Any], output: str, failed: bool) -> None:
        tool_id = f"toolu_{len(lines)}"
        use = {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}
        record("assistant", {"id": f"msg_{len(lines)}", "role": "assistant", "content": [use]})
        result = {
            "type": "tool_result",
            "tool_use_id": tool_id,
            "content": output,
            "is_error": failed,
        }
        record("user", {"role": "user", "content": [result]})

    record("user", {"role": "user", "content": "The tests fail, fix them."})
    for step in steps:
        if isinstance(step, Run):
            failed = step.exit_code != 0
            shown = f"Exit code {step.exit_code}\n{step.output}" if failed else step.output
            call("Bash", {"command": step.command}, shown, failed)
        elif isinstance(step, Change):
            edit = {
                "file_path": f"{ROOT}/{step.path}",
                "old_string": step.before,
                "new_string": step.after,
            }
            call("Edit", edit, f"The file {ROOT}/{step.path} has been updated.", False)
        elif isinstance(step, Write):
            written = {"file_path": f"{ROOT}/{step.path}", "content": step.text}
            call("Write", written, f"File created successfully at: {ROOT}/{step.path}", False)
        else:
            text = {"type": "text", "text": step.text}
            record("assistant", {"id": f"msg_{len(lines)}", "role": "assistant", "content": [text]})
    data = "\n".join(json.dumps(line) for line in lines) + "\n"
    return "/home/dev/.claude/projects/-home-dev-src-app/s.jsonl", data.encode()


# --- Codex CLI: `exec_command` calls answered with a header, `apply_patch` custom calls -----


def _patch(change: Change | Write) -> str:
    if isinstance(change, Write):
        added = "".join(f"+{line}\n" for line in change.text.splitlines())
        return f"*** Begin Patch\n*** Add File: {change.path}\n{added}*** End Patch\n"
    removed = "".join(f"-{line}\n" for line in change.before.splitlines())
    added = "".join(f"+{line}\n" for line in change.after.splitlines())
    return f"*** Begin Patch\n*** Update File: {change.path}\n@@\n{removed}{added}*** End Patch\n"


def _codex(steps: Sequence[Step]) -> tuple[str, bytes]:
    lines: list[dict[str, Any]] = []

    def wrapped(kind: str, payload: dict[str, Any]) -> None:
        lines.append({"timestamp": _at(len(lines)), "type": kind, "payload": payload})

    meta = {"id": "019e1625-0000", "cwd": ROOT, "cli_version": "0.125.0", "source": "cli"}
    wrapped("session_meta", meta)
    wrapped("event_msg", {"type": "user_message", "message": "The tests fail, fix them."})
    for n, step in enumerate(steps):
        call_id = f"call_{n}"
        if isinstance(step, Run):
            arguments = json.dumps({"cmd": step.command, "workdir": ROOT})
            call = {"type": "function_call", "name": "exec_command", "arguments": arguments}
            wrapped("response_item", {**call, "call_id": call_id})
            answer = (
                f"Chunk ID: 1a2b\nWall time: 0.4 seconds\n"
                f"Process exited with code {step.exit_code}\nOutput:\n{step.output}"
            )
            output = {"type": "function_call_output", "call_id": call_id, "output": answer}
            wrapped("response_item", output)
        elif isinstance(step, Change | Write):
            call = {"type": "custom_tool_call", "status": "completed", "name": "apply_patch"}
            wrapped("response_item", {**call, "call_id": call_id, "input": _patch(step)})
            answer = json.dumps(
                {"output": f"Success. Updated the following files:\nM {step.path}\n"}
            )
            output = {"type": "custom_tool_call_output", "call_id": call_id, "output": answer}
            wrapped("response_item", output)
        else:
            text = [{"type": "output_text", "text": step.text}]
            wrapped("response_item", {"type": "message", "role": "assistant", "content": text})
    data = "\n".join(json.dumps(line) for line in lines) + "\n"
    return "/home/dev/.codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-x.jsonl", data.encode()


# --- Gemini CLI: a chat of messages whose `toolCalls` carry their results -------------------


def _gemini(steps: Sequence[Step]) -> tuple[str, bytes]:
    header = {"sessionId": "g-1", "projectHash": "0b7d", "startTime": _at(0), "kind": "main"}
    lines: list[dict[str, Any]] = [header]
    user = {"id": "m0", "timestamp": _at(1), "type": "user"}
    lines.append({**user, "content": [{"text": "The tests fail, fix them."}]})

    def message(content: str, calls: list[dict[str, Any]]) -> None:
        n = len(lines)
        found = {"id": f"m{n}", "timestamp": _at(n), "type": "gemini", "content": content}
        lines.append({**found, "toolCalls": calls} if calls else found)

    for n, step in enumerate(steps):
        call_id = f"call-{n}"
        if isinstance(step, Run):
            report = (
                f"Command: {step.command}\nDirectory: (root)\nOutput: {step.output}\n"
                f"Error: (none)\nExit Code: {step.exit_code}\nSignal: (none)\n"
                "Background PIDs: (none)\nProcess Group PGID: 4242"
            )
            response = {"id": call_id, "name": "run_shell_command", "response": {"output": report}}
            call = {
                "id": call_id,
                "name": "run_shell_command",
                "args": {"command": step.command},
                "result": [{"functionResponse": response}],
                "status": "success",
                "timestamp": _at(len(lines)),
            }
            message("", [call])
        elif isinstance(step, Change | Write):
            tool = "replace" if isinstance(step, Change) else "write_file"
            args = (
                {
                    "file_path": f"{ROOT}/{step.path}",
                    "old_string": step.before,
                    "new_string": step.after,
                }
                if isinstance(step, Change)
                else {"file_path": f"{ROOT}/{step.path}", "content": step.text}
            )
            answer = {"output": f"Successfully modified file: {ROOT}/{step.path}."}
            response = {"id": call_id, "name": tool, "response": answer}
            call = {
                "id": call_id,
                "name": tool,
                "args": args,
                "result": [{"functionResponse": response}],
                "status": "success",
                "timestamp": _at(len(lines)),
            }
            message("", [call])
        else:
            message(step.text, [])
    data = "\n".join(json.dumps(line) for line in lines) + "\n"
    return "/home/dev/.gemini/tmp/app/chats/session-2026-03-02T09-00-g1.jsonl", data.encode()


HOSTS: dict[SourceTool, Callable[[Sequence[Step]], tuple[str, bytes]]] = {
    SourceTool.CLAUDE_CODE: _claude,
    SourceTool.CODEX: _codex,
    SourceTool.GEMINI_CLI: _gemini,
}


def _stored(events: Sequence[Event]) -> list[StoredEvent]:
    return stored(events, ROOT, "e")


def _read(host: SourceTool, steps: Sequence[Step]) -> list[StoredEvent]:
    path, data = HOSTS[host](steps)
    result = parse_file(host, path, data)
    return _stored(result.events)


def _pitfalls(host: SourceTool, steps: Sequence[Step]) -> list[MemoryCandidate]:
    return [c for c in evidence_candidates(_read(host, steps)) if c.type == MemoryType.PITFALL]


# --- the same lesson from every host, in two ecosystems ---------------------------------------

_PYTHON = (
    Run(
        "pytest -q",
        2,
        "ERROR tests/test_db.py - ModuleNotFoundError: No module named 'ledger'\n1 error in 0.12s",
    ),
    Change("pyproject.toml", 'pythonpath = ["."]', 'pythonpath = ["src"]'),
    Run("pytest -q", 0, "12 passed in 0.40s"),
    Say("The tests pass now."),
)
_PYTHON_FIX = 'changing `pythonpath = ["."]` to `pythonpath = ["src"]` in pyproject.toml fixed it.'

_RUST = (
    Run(
        "cargo test",
        101,
        "error[E0432]: unresolved import `serde_json`\n --> src/store.rs:3:5\n"
        "error: could not compile `ledger` (lib) due to 1 previous error",
    ),
    Change("Cargo.toml", 'serde = "1"', 'serde = "1"\nserde_json = "1"'),
    Run("cargo test", 0, "test result: ok. 8 passed; 0 failed"),
    Say("Added the missing dependency; the tests pass."),
)
_RUST_FIX = 'adding `serde_json = "1"` in Cargo.toml fixed it.'


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize(
    ("steps", "fix"), [(_PYTHON, _PYTHON_FIX), (_RUST, _RUST_FIX)], ids=["python", "rust"]
)
def test_every_host_gives_the_same_lesson(
    host: SourceTool, steps: tuple[Step, ...], fix: str
) -> None:
    (pitfall,) = _pitfalls(host, steps)
    assert pitfall.content.endswith(fix), pitfall.content
    assert pitfall.file_paths == (
        fix.rsplit(" in ", maxsplit=1)[-1].split(" fixed", maxsplit=1)[0],
    )


@pytest.mark.parametrize(("steps", "_fix"), [(_PYTHON, ""), (_RUST, "")], ids=["python", "rust"])
def test_the_lesson_reads_the_same_whichever_host_wrote_the_session(
    steps: tuple[Step, ...], _fix: str
) -> None:
    texts = {host: [p.content for p in _pitfalls(host, steps)] for host in HOSTS}
    assert texts[SourceTool.CODEX] == texts[SourceTool.CLAUDE_CODE]
    assert texts[SourceTool.GEMINI_CLI] == texts[SourceTool.CLAUDE_CODE]


# --- where no host's lesson may name the edit ----------------------------------------------


@pytest.mark.parametrize("host", list(HOSTS))
def test_an_edit_the_next_run_shows_did_not_work_is_not_the_fix(host: SourceTool) -> None:
    steps = (
        _PYTHON[0],
        Change("pyproject.toml", "testpaths = []", 'testpaths = ["tests"]'),
        _PYTHON[0],  # the same error: that edit did not fix it
        Say("Still failing; the import path is wrong."),
        _PYTHON[1],
        _PYTHON[2],
    )
    (pitfall,) = _pitfalls(host, steps)
    assert "testpaths" not in pitfall.content
    assert pitfall.content.endswith(_PYTHON_FIX)


@pytest.mark.parametrize("host", list(HOSTS))
def test_an_unrelated_large_edit_is_not_said_to_have_fixed_it(host: SourceTool) -> None:
    notes = "\n".join(f"- release note {n}: tidy the changelog wording" for n in range(6))
    steps = (_RUST[0], Change("CHANGELOG.md", "# Changes", f"# Changes\n{notes}"), _RUST[2])
    (pitfall,) = _pitfalls(host, steps)
    # It passed after that edit, and no more is said: not its lines, not that it fixed it.
    assert pitfall.content.endswith("it passed after editing CHANGELOG.md.")
    assert "release note" not in pitfall.content and "fixed it" not in pitfall.content


@pytest.mark.parametrize("host", list(HOSTS))
def test_a_plan_or_a_progress_line_is_not_the_cause(host: SourceTool) -> None:
    steps = (
        Run("cargo test", 101, "   Compiling ledger v0.1.0\n" + _RUST[0].output),
        Say("Let me look at the manifest and add what is missing."),
        _RUST[1],
        _RUST[2],
    )
    (pitfall,) = _pitfalls(host, steps)
    assert "Let me" not in pitfall.content and "Compiling ledger" not in pitfall.content


# --- the patch reader itself ----------------------------------------------------------------


def test_each_hunk_of_a_patch_is_one_edit_and_an_added_file_replaced_nothing() -> None:
    patch = (
        "*** Begin Patch\n*** Update File: config/test.toml\n@@ [pool]\n [pool]\n-timeout = 5\n"
        "+timeout = 30\n@@\n-retries = 1\n+retries = 3\n*** Add File: docs/pool.md\n+# Pool\n"
        "*** Delete File: old.toml\n*** End Patch\n"
    )
    assert patch_edits(patch) == [
        ("config/test.toml", "[pool]\ntimeout = 5", "[pool]\ntimeout = 30"),
        ("config/test.toml", "retries = 1", "retries = 3"),
        ("docs/pool.md", "", "# Pool"),
    ]


@pytest.mark.parametrize(
    "given",
    [
        {"input": "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch"},
        {"command": ["apply_patch", "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch"]},
        {
            "cmd": "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\nEOF"
        },
    ],
)
def test_the_patch_is_found_in_every_call_shape(given: dict[str, Any]) -> None:
    assert [path for path, _, _ in patch_edits(patch_body(given))] == ["a.txt"]


def _call(tool: str, given: dict[str, Any]) -> StoredEvent:
    content = {"tool": tool, "tool_use_id": "t1", "input": given}
    return StoredEvent(
        id="e1",
        project_id=ROOT,
        user_id="",
        source_tool="claude_code",
        session_id="s",
        timestamp=T0,
        event_type="tool_call",
        content=content,
        file_paths=(),
        hash="",
    )


@pytest.mark.parametrize(
    ("tool", "given"),
    [
        ("Bash", {"command": "git diff --stat"}),
        ("Bash", {"command": "git apply fix.diff", "description": "--- a/x.py\n+++ b/x.py\n-a"}),
        ("exec_command", {"cmd": "cat notes.md", "workdir": ROOT}),
    ],
)
def test_no_edit_without_a_patch_body(tool: str, given: dict[str, Any]) -> None:
    assert edits([_call(tool, given)]) == []


def test_a_file_written_whole_is_not_read_as_a_patch_though_it_quotes_one() -> None:
    text = "Codex edits with:\n*** Begin Patch\n*** Update File: a.py\n-x\n+y\n*** End Patch\n"
    (edit,) = edits([_call("Write", {"file_path": f"{ROOT}/docs/codex.md", "content": text})])
    assert (edit.path, edit.before, edit.after) == ("docs/codex.md", "", text)


def test_a_codex_patch_is_an_edit_with_its_lines() -> None:
    events = _read(SourceTool.CODEX, _PYTHON)
    (edit,) = edits(events)
    assert (edit.path, edit.before, edit.after) == (
        "pyproject.toml",
        'pythonpath = ["."]',
        'pythonpath = ["src"]',
    )


# --- a CI workflow written and then edited: the same recipe from every host ------------------

_GITHUB = """name: CI
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: uv sync --dev
      - run: uv run pytest
      - run: uv run ruff check
"""
_GITLAB = """stages: [test]
unit:
  stage: test
  script:
    - npm ci
    - npm run lint
    - npm test
"""


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize(
    ("path", "text", "change", "said"),
    [
        (
            ".github/workflows/ci.yml",
            _GITHUB,
            Change("", "      - run: uv run pytest", "      - run: uv run pytest -x"),
            "CI (.github/workflows/ci.yml) runs the tests with `uv run pytest -x`; lints with "
            "`uv run ruff check`.",
        ),
        (
            ".gitlab-ci.yml",
            _GITLAB,
            Change("", "    - npm run lint", "    - npm run lint:strict"),
            "CI (.gitlab-ci.yml) runs the tests with `npm test`; lints with `npm run lint:strict`.",
        ),
    ],
    ids=["github", "gitlab"],
)
def test_every_host_gives_the_same_ci_recipe(
    host: SourceTool, path: str, text: str, change: Change, said: str
) -> None:
    steps = (Write(path, text), Change(path, change.before, change.after))
    (found,) = ci_commands(_read(host, steps))
    assert found.content == said
    assert len(found.event_ids) == 2


@pytest.mark.parametrize("host", list(HOSTS))
def test_an_edit_that_does_not_match_the_written_workflow_silences_it(host: SourceTool) -> None:
    path = ".github/workflows/ci.yml"
    steps = (Write(path, _GITHUB), Change(path, "      - run: make check", "      - run: make x"))
    assert ci_commands(_read(host, steps)) == []
