"""Codex code mode, read completely: what a cell runs is read when its source binds the command
or patch to a name, when only the host's records name it (built at run time, run in a loop),
and when it prints several files; the final answer is one message; a heredoc's text is no run.

The records are made up in the shape of a real Codex Desktop session in a Rust project (jdx/usage
@ bb63b4d3e2e21f17ce7a26c303553095eafebc18, `6e/5cdd08407b/0/full.jsonl`, MIT): there a cell
gives its patch as `const patch = "*** Begin Patch…"; text(await tools.apply_patch(patch));`,
prints several files with `sed -n 'a,bp' f; sed -n 'c,dp' g`, and the host records each command
as an `item_completed` `CommandExecution` with `source` `unified_exec_startup`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, SourcePosition
from squirrel_ingest.parsers.codex import CodexFileParser
from squirrel_ingest.parsers.codex_cell_source import CellCommand, cell_commands, cell_patches
from squirrel_ingest.parsers.shell_commands import command_text

CWD = "/Users/dev/src/helpgen"
RUNS = (EventType.COMMAND_RUN, EventType.TEST_RUN)
PATH = "/Users/dev/.codex/sessions/2026/09/04/rollout-x.jsonl"


def _patch(path: str, old: str, new: str) -> str:
    return f"*** Begin Patch\n*** Update File: {CWD}/{path}\n@@\n-{old}\n+{new}\n*** End Patch\n"


RUST_PATCH = _patch("src/style.rs", "    headings: Vec<String>,", "    commands: Vec<String>,")
TS_PATCH = _patch("src/cart.ts", "  return sum;", "  return sum - discount;")


def _line(kind: str, payload: dict[str, Any], n: int) -> bytes:
    stamp = f"2026-09-04T12:00:{n:02d}Z"
    return json.dumps({"timestamp": stamp, "type": kind, "payload": payload}).encode()


def _feed(parser: CodexFileParser, records: list[tuple[str, dict[str, Any]]]) -> list[Event]:
    events: list[Event] = []
    for n, (kind, payload) in enumerate(records):
        events += parser.feed(_line(kind, payload, n), SourcePosition("r.jsonl", 1, n * 100))
    return events


def _rollout(records: list[tuple[str, dict[str, Any]]]) -> list[Event]:
    head = [
        ("session_meta", {"id": "01a0ffff-0001", "cwd": CWD, "cli_version": "0.153.4"}),
        ("event_msg", {"type": "user_message", "message": "Colour the subcommand names."}),
    ]
    return _feed(CodexFileParser(PATH), head + records)


def _cell(call_id: str, source: str) -> tuple[str, dict[str, Any]]:
    item = {"type": "custom_tool_call", "status": "completed", "name": "exec"}
    return "response_item", {**item, "call_id": call_id, "input": source}


def _answer(call_id: str, *texts: str, status: str = "completed") -> tuple[str, dict[str, Any]]:
    parts = [f"Script {status}\nWall time 0.8 seconds\nOutput:\n", *texts]
    output = [{"type": "input_text", "text": text} for text in parts]
    return "response_item", {
        "type": "custom_tool_call_output",
        "call_id": call_id,
        "output": output,
    }


def _ran(
    command: str, output: str, exit_code: int = 0, source: str = "unified_exec_startup"
) -> tuple[str, dict[str, Any]]:
    item = {
        "type": "CommandExecution",
        "id": "exec-63524280",
        "process_id": "43194",
        "command": ["/bin/zsh", "-lc", command],
        "cwd": f"file://{CWD}",
        "parsed_cmd": [{"type": "unknown", "cmd": command}],
        "source": source,
        "status": "completed",
        "stdout": output,
        "stderr": "",
        "aggregated_output": output,
        "exit_code": exit_code,
        "formatted_output": output,
    }
    return "event_msg", {"type": "item_completed", "item": item}


def _file_change(path: str, status: str = "completed") -> tuple[str, dict[str, Any]]:
    item = {"type": "FileChange", "id": "exec-fc", "status": status}
    changes = {f"{CWD}/{path}": {"type": "update", "move_path": None}}
    return "event_msg", {"type": "item_completed", "item": {**item, "changes": changes}}


def _changes(events: list[Event]) -> list[str]:
    return [e.content["path"] for e in events if e.event_type == EventType.CODE_CHANGE]


# --- a command or patch the cell binds to a name ------------------------------------------


@pytest.mark.parametrize(
    ("source", "patch"),
    [
        (
            f"const patch = {json.dumps(RUST_PATCH)};\ntext(await tools.apply_patch(patch));\n",
            RUST_PATCH,
        ),
        (f"let fix = {json.dumps(TS_PATCH)};\nawait tools.apply_patch({{input: fix}});", TS_PATCH),
        (f"var p = {json.dumps(TS_PATCH)}; await tools.apply_patch({{ patch: p }});", TS_PATCH),
    ],
    ids=["rust-const", "ts-let-input", "var-patch-key"],
)
def test_a_patch_the_cell_binds_to_a_name_is_read(source: str, patch: str) -> None:
    assert cell_patches(source) == [patch]


@pytest.mark.parametrize(
    "source",
    [
        # bound twice: which one the call saw is not in the source
        f"let p = {json.dumps(RUST_PATCH)};\np = {json.dumps(TS_PATCH)};\nawait tools.apply_patch(p);",
        # built at run time
        "const p = `*** Begin Patch\\n*** Add File: ${name}\\n+x\\n*** End Patch`;\n"
        "await tools.apply_patch(p);",
        # never bound in the cell (a value from an earlier cell)
        "await tools.apply_patch(patch);",
        # bound, but the call passes something else
        f"const p = {json.dumps(RUST_PATCH)};\nawait tools.apply_patch(p + extra);",
    ],
    ids=["rebound", "template", "unbound", "expression"],
)
def test_a_patch_name_without_one_literal_value_is_not_read(source: str) -> None:
    assert cell_patches(source) == []


@pytest.mark.parametrize(
    ("source", "found"),
    [
        (
            'const cmd = "cargo test --all";\nawait tools.exec_command({cmd, workdir: "/w"});',
            [CellCommand("cargo test --all", "/w")],
        ),
        (
            "const c = 'npm run lint';\ntext(await tools.exec_command({cmd: c}));",
            [CellCommand("npm run lint")],
        ),
        ("const c = 'mix test'; text(await tools.exec_command(c));", [CellCommand("mix test")]),
    ],
    ids=["shorthand", "named-value", "argument"],
)
def test_a_command_the_cell_binds_to_a_name_is_read(source: str, found: list[CellCommand]) -> None:
    assert cell_commands(source) == found


def test_a_loop_variable_is_no_command_of_the_source() -> None:
    source = "for (const cmd of ['npm test', 'npx eslint src']) await tools.exec_command({cmd});"
    assert cell_commands(source) == []


def test_a_bound_patch_is_a_patch_and_a_change_once_the_host_says_it_applied() -> None:
    source = f"const patch = {json.dumps(RUST_PATCH)};\ntext(await tools.apply_patch(patch));\n"
    events = _rollout(
        [
            _cell("call_1", source),
            _file_change("src/style.rs"),
            _answer("call_1", "Success. Updated the following files:\nM src/style.rs\n"),
        ]
    )
    (call,) = [
        e
        for e in events
        if e.content.get("tool") == "apply_patch" and e.event_type == EventType.TOOL_CALL
    ]
    assert call.content["tool_use_id"] == "call_1#patch1"
    assert _changes(events) == ["src/style.rs"]


# --- commands and patches only the host's records name -------------------------------------


def test_commands_built_at_run_time_are_each_their_cells_own_command() -> None:
    source = (
        "for (const f of ['src/style.rs', 'src/help.rs']) {\n"
        "  const r = await tools.exec_command({cmd: `wc -l ${f}`, workdir: '" + CWD + "'});\n"
        "  text(r.output);\n}\n"
    )
    events = _rollout(
        [
            _cell("call_1", source),
            _ran("wc -l src/style.rs", "212 src/style.rs\n"),
            _ran("wc -l src/help.rs", "wc: src/help.rs: No such file or directory\n", 1),
            _answer("call_1", "212 src/style.rs\n"),
        ]
    )
    runs = [e for e in events if e.event_type in RUNS]
    assert [(r.content["command"], r.content["exit_code"]) for r in runs] == [
        ("wc -l src/style.rs", 0),
        ("wc -l src/help.rs", 1),
    ]
    assert {r.content["tool_use_id"] for r in runs} == {"call_1"}
    assert runs[1].content["is_error"] is True


def test_a_literal_command_run_twice_is_read_twice() -> None:
    source = "for (let i = 0; i < 2; i++) text(await tools.exec_command({cmd: 'pytest -x -q'}));"
    events = _rollout(
        [
            _cell("call_1", source),
            _ran("pytest -x -q", "1 failed, 3 passed", 1),
            _ran("pytest -x -q", "4 passed", 0),
            _answer("call_1", "1 failed, 3 passed", "4 passed"),
        ]
    )
    runs = [e for e in events if e.event_type in RUNS]
    assert [(r.event_type, r.content["exit_code"]) for r in runs] == [
        (EventType.TEST_RUN, 1),
        (EventType.TEST_RUN, 0),
    ]


def test_a_command_record_after_a_shell_function_call_is_that_calls_not_the_cells() -> None:
    # The cell still awaits its answer, but the last call made is the `exec_command` function.
    arguments = json.dumps({"cmd": "go test ./...", "workdir": CWD})
    call = {"type": "function_call", "name": "exec_command", "call_id": "call_2"}
    answer = "Chunk ID: 1\nWall time: 0.3 seconds\nProcess exited with code 0\nOutput:\nok"
    events = _rollout(
        [
            _cell("call_1", "text(ALL_TOOLS.map(t => t.name));"),
            ("response_item", {**call, "arguments": arguments}),
            _ran("go test ./...", "ok"),
            (
                "response_item",
                {"type": "function_call_output", "call_id": "call_2", "output": answer},
            ),
        ]
    )
    runs = [e for e in events if e.event_type in RUNS]
    assert [(r.content["command"], r.content["tool_use_id"]) for r in runs] == [
        ("go test ./...", "call_2")
    ]


@pytest.mark.parametrize("source", ["user_shell", "unified_exec_startup"])
def test_a_command_record_with_no_cell_awaiting_its_answer_is_not_a_cells(source: str) -> None:
    events = _rollout(
        [
            _cell("call_1", "text(1);"),
            _answer("call_1", "1"),
            _ran("bundle exec rspec", "3 examples, 0 failures", source=source),
        ]
    )
    assert not [e for e in events if e.event_type in RUNS]


def test_the_users_own_command_during_a_cell_is_not_the_cells() -> None:
    events = _rollout(
        [
            _cell("call_1", "text(1);"),
            _ran("git status", "clean", source="user_shell"),
            _answer("call_1", "1"),
        ]
    )
    assert not [e for e in events if e.event_type in RUNS]


@pytest.mark.parametrize(("status", "changed"), [("completed", ["src/cart.ts"]), ("failed", [])])
def test_a_patch_only_the_host_names_is_a_patch_of_its_cell(
    status: str, changed: list[str]
) -> None:
    source = "const p = makePatch(files);\ntext(await tools.apply_patch(p));"
    events = _rollout(
        [_cell("call_1", source), _file_change("src/cart.ts", status), _answer("call_1", "{}")]
    )
    calls = [
        e
        for e in events
        if e.content.get("tool") == "apply_patch" and e.event_type == EventType.TOOL_CALL
    ]
    assert [(c.content["tool_use_id"], c.file_paths) for c in calls] == [
        ("call_1#patch1", ("src/cart.ts",))
    ]
    assert _changes(events) == changed


def test_the_apply_patch_functions_own_end_record_is_no_second_patch() -> None:
    call = {
        "type": "custom_tool_call",
        "name": "apply_patch",
        "call_id": "call_2",
        "input": TS_PATCH,
    }
    output = {"type": "custom_tool_call_output", "call_id": "call_2", "output": "Success."}
    end = {
        "type": "patch_apply_end",
        "call_id": "call_2",
        "success": True,
        "changes": {f"{CWD}/src/cart.ts": {"type": "update"}},
    }
    events = _rollout(
        [
            _cell("call_1", "text(1);"),
            ("response_item", call),
            ("event_msg", end),
            ("response_item", output),
            _answer("call_1", "1"),
        ]
    )
    assert _changes(events) == ["src/cart.ts"]
    patches = [
        e
        for e in events
        if e.content.get("tool") == "apply_patch" and e.event_type == EventType.TOOL_CALL
    ]
    assert [p.content["tool_use_id"] for p in patches] == ["call_2"]


def test_an_adopted_command_keeps_its_ordinal_across_a_restart() -> None:
    source = "for (const f of files) text(await tools.exec_command({cmd: `sed -n 1,40p ${f}`}));"
    first = CodexFileParser(PATH)
    meta = {"id": "01a0ffff-0001", "cwd": CWD, "cli_version": "0.153.4"}
    _feed(first, [("session_meta", meta), _cell("call_1", source), _ran("sed -n 1,40p a.rs", "a")])
    second = CodexFileParser(PATH)
    second.restore_state(json.loads(json.dumps(first.export_state())))
    events = _feed(second, [_ran("sed -n 1,40p b.rs", "b"), _answer("call_1", "a", "b")])
    (read,) = [e for e in events if e.event_type == EventType.TOOL_CALL]
    assert read.content["tool_use_id"] == "call_1#read2"


# --- several files printed by one command --------------------------------------------------


@pytest.mark.parametrize(
    ("command", "files"),
    [
        (
            "sed -n '1,120p' src/style.rs; sed -n '200,260p' src/help.rs",
            ["src/style.rs", "src/help.rs"],
        ),
        ("cat package.json && cat src/cart.ts", ["package.json", "src/cart.ts"]),
        ("sed -n '40,90p' lib/shop/cart.ex", ["lib/shop/cart.ex"]),
    ],
    ids=["rust-sed", "node-cat", "elixir-mid-file"],
)
def test_a_cell_command_that_prints_files_reads_each(command: str, files: list[str]) -> None:
    source = f"const r = await tools.exec_command({{cmd: {json.dumps(command)}}}); text(r.output);"
    events = _rollout(
        [_cell("call_1", source), _ran(command, "fn main() {}\n"), _answer("call_1", "x")]
    )
    (call,) = [e for e in events if e.content.get("reads")]
    assert call.event_type == EventType.TOOL_CALL
    assert call.content["reads"] == files
    assert list(call.file_paths) == files
    (run,) = [e for e in events if e.event_type in RUNS]
    assert (run.content["command"], run.content["exit_code"]) == (command, 0)


@pytest.mark.parametrize(
    "command",
    [
        "sed -n '1,120p' src/style.rs | rg heading",  # piped
        "cat package.json && npm test",  # runs something else
        "cat $FILE",  # the file is not on the line
        "cargo build --release",
    ],
)
def test_a_cell_command_that_does_more_than_print_files_reads_none(command: str) -> None:
    source = f"const r = await tools.exec_command({{cmd: {json.dumps(command)}}}); text(r.output);"
    events = _rollout([_cell("call_1", source), _ran(command, "ok\n"), _answer("call_1", "ok")])
    assert not [e for e in events if e.content.get("reads")]
    assert len([e for e in events if e.event_type in RUNS]) == 1


# --- the final answer, and a heredoc ------------------------------------------------------


def test_the_final_answer_written_four_times_is_one_message() -> None:
    text = "Opened PR 42: subcommand names take a `command` style."
    content = [{"type": "output_text", "text": text}]
    item = {"type": "AgentMessage", "id": "m1", "content": [{"type": "Text", "text": text}]}
    events = _rollout(
        [
            (
                "response_item",
                {
                    "type": "message",
                    "role": "assistant",
                    "content": content,
                    "phase": "final_answer",
                },
            ),
            ("event_msg", {"type": "agent_message", "message": text, "phase": "final_answer"}),
            ("event_msg", {"type": "item_completed", "item": {**item, "phase": "final_answer"}}),
            ("event_msg", {"type": "task_complete", "last_agent_message": text}),
        ]
    )
    said = [e for e in events if e.event_type == EventType.ASSISTANT_RESPONSE]
    assert [e.content["text"] for e in said] == [text]


@pytest.mark.parametrize(
    ("body_test", "writer"),
    [
        ("cargo test --all --all-features", "cat > /tmp/pr-body.md <<'EOF'"),
        ("uv run pytest -q", "python3 - <<'PY'\nopen('/tmp/pr-body.md', 'w').write('''"),
    ],
    ids=["rust-cat", "python-script"],
)
def test_a_heredoc_that_writes_a_pr_body_is_no_test_run(body_test: str, writer: str) -> None:
    end = "EOF" if writer.startswith("cat") else "''')\nPY"
    command = (
        f"{writer}\n## Validation\n- {body_test}\n{end}\ngh pr create --body-file /tmp/pr-body.md"
    )
    source = f"const r = await tools.exec_command({{cmd: {json.dumps(command)}}}); text(r.output);"
    events = _rollout(
        [
            _cell("call_1", source),
            _ran(command, "https://example.test/pull/7\n"),
            _answer("call_1", "ok"),
        ]
    )
    (run,) = [e for e in events if e.event_type in RUNS]
    assert run.event_type == EventType.COMMAND_RUN
    # The same command run for real is a test run.
    ran = _rollout(
        [
            _cell("call_2", f"text(await tools.exec_command({{cmd: {json.dumps(body_test)}}}));"),
            _ran(body_test, "ok"),
            _answer("call_2", "ok"),
        ]
    )
    assert [e.event_type for e in ran if e.event_type in RUNS] == [EventType.TEST_RUN]


# --- `apply_patch` through the shell tool, and `tools.shell_command` ------------------------


def _heredoc(patch: str) -> str:
    return f"apply_patch <<'PATCH'\n{patch}PATCH"


GO_PATCH = _patch("internal/cart/total.go", "\treturn sum", "\treturn sum - discount")
PY_PATCH = _patch("shop/cart.py", "    return total", "    return total - discount")


@pytest.mark.parametrize(
    ("patch", "path"),
    [(GO_PATCH, "internal/cart/total.go"), (PY_PATCH, "shop/cart.py")],
    ids=["go", "python"],
)
def test_a_heredoc_apply_patch_through_the_shell_is_an_edit_not_a_command(
    patch: str, path: str
) -> None:
    command = _heredoc(patch)
    source = f"const r = await tools.exec_command({{cmd: {json.dumps(command)}}}); text(r.output);"
    events = _rollout(
        [
            _cell("call_1", source),
            _ran(command, "Success. Updated the following files:\nM " + path + "\n"),
            _answer("call_1", "Success."),
        ]
    )
    assert not [e for e in events if e.event_type in RUNS]
    assert _changes(events) == [path]


def test_a_heredoc_apply_patch_that_failed_changes_nothing() -> None:
    command = _heredoc(GO_PATCH)
    source = f"text(await tools.exec_command({{cmd: {json.dumps(command)}}}));"
    events = _rollout(
        [
            _cell("call_1", source),
            _ran(command, "apply_patch verification failed: no match", exit_code=1),
            _answer("call_1", "Script failed"),
        ]
    )
    assert _changes(events) == []
    assert not [e for e in events if e.event_type in RUNS]


def test_a_heredoc_apply_patch_built_at_run_time_is_its_cells_patch() -> None:
    command = _heredoc(PY_PATCH)
    source = "const r = await tools.exec_command({cmd: `apply_patch <<'PATCH'\\n${body}PATCH`});"
    events = _rollout([_cell("call_1", source), _ran(command, "Success."), _answer("call_1", "ok")])
    assert _changes(events) == ["shop/cart.py"]


@pytest.mark.parametrize(
    "command",
    [
        # a heredoc that writes a file which mentions a patch header: a command that wrote it
        "cat > notes/patching.md <<'EOF'\n*** Update File: src/app.py\nEOF",
        "apply_patch --help",  # names no file
    ],
    ids=["cat-heredoc", "help"],
)
def test_a_command_that_only_mentions_a_patch_is_a_command(command: str) -> None:
    source = f"text(await tools.exec_command({{cmd: {json.dumps(command)}}}));"
    events = _rollout([_cell("call_1", source), _ran(command, ""), _answer("call_1", "")])
    assert [e.content["command"] for e in events if e.event_type in RUNS] == [command]
    assert _changes(events) == []


def test_shell_command_in_a_cell_is_read_as_exec_command_is() -> None:
    source = (
        'const r = await tools.shell_command({command: "dotnet test", workdir: "C:/src/shop"});\n'
        "text(r);"
    )
    assert cell_commands(source) == [CellCommand("dotnet test", "C:/src/shop")]
    # `cmd` is exec_command's key, not shell_command's
    assert cell_commands("await tools.shell_command({cmd: 'dotnet test'});") == []


# --- the host's own reading of a line that reads and does more -----------------------------


def _ran_parsed(command: str, parsed: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    kind, payload = _ran(command, "fn main() {}\n")
    return kind, {**payload, "item": {**payload["item"], "parsed_cmd": parsed}}


@pytest.mark.parametrize(
    ("command", "parsed", "files"),
    [
        (  # the shape of a real 0.153 record: a read, a search and a listing in one line
            "sed -n '1,200p' src/app.ts; rg -n 'TODO' src; pwd",
            [
                {
                    "type": "read",
                    "cmd": "sed -n '1,200p' src/app.ts",
                    "name": "app.ts",
                    "path": "src/app.ts",
                },
                {"type": "search", "cmd": "rg -n 'TODO' src", "path": "src", "query": "TODO"},
                {"type": "unknown", "cmd": "pwd"},
            ],
            ["src/app.ts"],
        ),
        (  # an absolute path, placed in the session's folder
            "sed -n '1,380p' lib/src/docs/cli/mod.rs && rg -n heading lib/src | head -400",
            [
                {
                    "type": "read",
                    "cmd": "sed -n '1,380p' lib/src/docs/cli/mod.rs",
                    "name": "mod.rs",
                    "path": f"{CWD}/lib/src/docs/cli/mod.rs",
                },
                {
                    "type": "search",
                    "cmd": "rg -n heading lib/src",
                    "query": "heading",
                    "path": "lib/src",
                },
            ],
            ["lib/src/docs/cli/mod.rs"],
        ),
    ],
    ids=["typescript", "rust"],
)
def test_the_hosts_reads_of_a_line_that_does_more_are_reads(
    command: str, parsed: list[dict[str, Any]], files: list[str]
) -> None:
    source = f"const r = await tools.exec_command({{cmd: {json.dumps(command)}}}); text(r.output);"
    events = _rollout(
        [_cell("call_1", source), _ran_parsed(command, parsed), _answer("call_1", "x")]
    )
    (call,) = [e for e in events if e.content.get("reads")]
    assert (call.content["reads"], list(call.file_paths)) == (files, files)
    assert [e.content["command"] for e in events if e.event_type in RUNS] == [command]


@pytest.mark.parametrize(
    "parsed",
    [
        [{"type": "read", "cmd": "cat Gemfile", "name": "Gemfile"}],  # a name, no path
        [{"type": "search", "cmd": "rg -n rspec", "query": "rspec", "path": None}],
        [{"type": "unknown", "cmd": "bundle exec rspec"}],
        "not a list",
    ],
    ids=["name-only", "search", "unknown", "malformed"],
)
def test_a_line_the_host_names_no_read_path_of_reads_nothing(parsed: object) -> None:
    command = "cat Gemfile && bundle exec rspec"
    kind, payload = _ran(command, "3 examples, 0 failures")
    record = (kind, {**payload, "item": {**payload["item"], "parsed_cmd": parsed}})
    source = f"text(await tools.exec_command({{cmd: {json.dumps(command)}}}));"
    events = _rollout([_cell("call_1", source), record, _answer("call_1", "x")])
    assert not [e for e in events if e.content.get("reads")]
    assert [e.event_type for e in events if e.event_type in RUNS] == [EventType.TEST_RUN]


# --- a Windows host's argv -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            [
                "C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
                "-Command",
                "dotnet test",
            ],
            "dotnet test",
        ),
        (["pwsh.exe", "-NoProfile", "-Command", "Get-ChildItem src"], "Get-ChildItem src"),
        (["C:\\Windows\\system32\\cmd.exe", "/c", "npm test"], "npm test"),
        (["/bin/zsh", "-lc", "cargo test"], "cargo test"),
        # not a command line handed to the shell: kept as the argv it is
        (["pwsh", "-File", "build.ps1"], "pwsh -File build.ps1"),
        (["powershell.exe", "-Command", "a", "b"], "powershell.exe -Command a b"),
    ],
    ids=["powershell", "pwsh-noprofile", "cmd", "zsh", "pwsh-file", "extra-words"],
)
def test_a_hosts_shell_argv_is_the_line_it_ran(argv: list[str], line: str) -> None:
    assert command_text(argv) == line


def test_a_windows_cells_command_is_read_once() -> None:
    # Without the unwrapped argv the host's record would not match the cell's literal: read once
    # as a command of its own, and once more from the cell's answer.
    source = (
        'const r = await tools.shell_command({command: "dotnet test", workdir: "C:/src/shop"});'
    )
    kind, payload = _ran("dotnet test", "Passed!  - Failed: 0, Passed: 12")
    argv = [
        "C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
        "-Command",
        "dotnet test",
    ]
    record = (kind, {**payload, "item": {**payload["item"], "command": argv}})
    events = _rollout([_cell("call_1", source), record, _answer("call_1", "Passed!")])
    runs = [e for e in events if e.event_type in RUNS]
    assert [(r.event_type, r.content["command"], r.content["exit_code"]) for r in runs] == [
        (EventType.TEST_RUN, "dotnet test", 0)
    ]


def test_a_record_after_a_shell_call_that_has_its_answer_is_not_an_older_cells() -> None:
    # A cell left without its answer (its turn was aborted), then a shell function's call and
    # its output, then that call's late record: the last call made is the function's.
    arguments = json.dumps({"cmd": "make test", "workdir": CWD})
    call = {"type": "function_call", "name": "exec_command", "call_id": "call_2"}
    answer = "Chunk ID: 1\nWall time: 0.3 seconds\nProcess exited with code 0\nOutput:\nok"
    events = _rollout(
        [
            _cell(
                "call_1", "for (const t of targets) await tools.exec_command({cmd: `make ${t}`});"
            ),
            ("response_item", {**call, "arguments": arguments}),
            (
                "response_item",
                {"type": "function_call_output", "call_id": "call_2", "output": answer},
            ),
            _ran("make test", "ok"),
        ]
    )
    runs = [e for e in events if e.event_type in RUNS]
    assert [(r.content["command"], r.content["tool_use_id"]) for r in runs] == [
        ("make test", "call_2")
    ]


def test_the_last_call_made_survives_a_restart() -> None:
    source = "for (const f of files) text(await tools.exec_command({cmd: `go vet ${f}`}));"
    first = CodexFileParser(PATH)
    meta = {"id": "01a0ffff-0001", "cwd": CWD, "cli_version": "0.153.4"}
    _feed(first, [("session_meta", meta), _cell("call_1", source)])
    state = json.loads(json.dumps(first.export_state()))
    for saved in (state, {k: v for k, v in state.items() if k != "last_call"}):  # older cursor
        second = CodexFileParser(PATH)
        second.restore_state(saved)
        events = _feed(second, [_ran("go vet ./cart", "")])
        assert [e.content["tool_use_id"] for e in events if e.event_type in RUNS] == ["call_1"]
