"""What ingest makes of Codex rollouts in code mode: records by type, and the events each rollout
gives (prompts, assistant messages, commands with their exit status, reads, patches, changes).

    python -m bench.codex_cells [--json | --records]

Two made-up Codex Desktop rollouts in the shape of real 0.153 ones (the record kinds and fields
of a public Codex Desktop session in a Rust project, jdx/usage @ bb63b4d3,
`6e/5cdd08407b/0/full.jsonl`: a cell that runs a shell command beside two connector calls, the
host's `item_completed` `CommandExecution` with `stdout`, `aggregated_output` and
`formatted_output`, a cell that prints several files with `sed -n`, one that reads a file and
searches (its record's `parsed_cmd` says which part reads), a cell that binds its patch to a
name before `tools.apply_patch(patch)`, `apply_patch <<'PATCH'` through the shell tool (a
shape other session readers parse), the final answer as a message, an `agent_message`,
an `item_completed` `AgentMessage` and `task_complete`), one in a Rust project and one in a Node
project; and the real code-mode rollout of the answer-key project `peq` (Codex CLI 0.154
`exec`). No text of the public session is copied: commands, paths and outputs are made up.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_ingest.parsers import parse_file

ROOT = Path(__file__).resolve().parents[1]
PEQ = ROOT / "bench/data/transcripts/peq/codex-exec-iso-artifacts-cherry-pick.jsonl"

#: The event columns of the table, in order.
COLUMNS = (
    "prompt",
    "assistant",
    "command",
    "test",
    "read",
    "patch",
    "change",
    "cell",
    "mcp",
)


class Rollout:
    """A made-up Codex Desktop rollout, one line per record, in the real shape."""

    def __init__(self, cwd: str, version: str = "0.153.4") -> None:
        self.cwd = cwd
        self.lines: list[dict[str, Any]] = []
        self._second = 0
        self._call = 0
        self.add(
            "session_meta",
            {
                "session_id": "01a0ffff-0000-7000-8000-000000000001",
                "id": "01a0ffff-0000-7000-8000-000000000001",
                "cwd": cwd,
                "originator": "Codex Desktop",
                "cli_version": version,
                "source": "vscode",
                "thread_source": "user",
                "model_provider": "openai",
                "base_instructions": {"text": ""},
            },
        )
        self.add("event_msg", {"type": "task_started", "turn_id": "t1"})

    def add(self, kind: str, payload: dict[str, Any]) -> None:
        self._second += 1
        stamp = f"2026-09-04T12:{self._second // 60:02d}:{self._second % 60:02d}.000Z"
        self.lines.append({"timestamp": stamp, "type": kind, "payload": payload})

    def prompt(self, text: str) -> None:
        self.add("event_msg", {"type": "user_message", "message": text, "images": []})
        item = {"type": "UserMessage", "id": "u1", "content": [{"type": "text", "text": text}]}
        self.add("event_msg", {"type": "item_completed", "turn_id": "t1", "item": item})

    def say(self, text: str, phase: str) -> None:
        """An assistant message as 0.153 writes it: four times (the last only when final)."""
        content = [{"type": "output_text", "text": text}]
        message = {"type": "message", "role": "assistant", "content": content, "phase": phase}
        self.add("response_item", message)
        self.add("event_msg", {"type": "agent_message", "message": text, "phase": phase})
        item = {"type": "AgentMessage", "id": "m", "content": [{"type": "Text", "text": text}]}
        self.add("event_msg", {"type": "item_completed", "item": {**item, "phase": phase}})
        if phase == "final_answer":
            self.add("event_msg", {"type": "task_complete", "last_agent_message": text})

    def cell(self, source: str) -> str:
        self._call += 1
        call_id = f"call_{self._call:04d}"
        self.add(
            "response_item",
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": call_id,
                "name": "exec",
                "input": source,
            },
        )
        return call_id

    def ran(
        self,
        command: str,
        output: str,
        exit_code: int = 0,
        parsed: list[dict[str, Any]] | None = None,
    ) -> None:
        """The host's record of a command a cell ran (`item_completed` `CommandExecution`), with
        the host's own reading of the line (`parsed_cmd`)."""
        item = {
            "type": "CommandExecution",
            "id": f"exec-{len(self.lines)}",
            "process_id": "4242",
            "command": ["/bin/zsh", "-lc", command],
            "cwd": f"file://{self.cwd}",
            "parsed_cmd": parsed or [{"type": "unknown", "cmd": command}],
            "source": "unified_exec_startup",
            "status": "completed",
            "stdout": output,
            "stderr": "",
            "aggregated_output": output,
            "exit_code": exit_code,
            "duration": {"secs": 0, "nanos": 2000},
            "formatted_output": output,
        }
        self.add("event_msg", {"type": "item_completed", "turn_id": "t1", "item": item})

    def connector(self, tool: str) -> None:
        """The host's record of a connector call a cell made (`item_completed` `McpToolCall`)."""
        result = {"content": [{"type": "text", "text": "issue 41: help is not coloured"}]}
        item: dict[str, Any] = {
            "type": "McpToolCall",
            "id": "exec-mcp",
            "server": "codex_apps",
            "tool": tool,
            "arguments": {"issue_number": 41},
            "result": result,
            "status": "completed",
        }
        self.add("event_msg", {"type": "item_completed", "item": item})

    def file_change(self, paths: list[str], status: str = "completed") -> None:
        changes = {f"{self.cwd}/{path}": {"type": "update"} for path in paths}
        item = {"type": "FileChange", "id": "exec-fc", "changes": changes, "status": status}
        self.add("event_msg", {"type": "item_completed", "item": item})

    def patch_end(self, paths: list[str], success: bool = True) -> None:
        changes = {f"{self.cwd}/{path}": {"type": "update"} for path in paths}
        self.add(
            "event_msg",
            {"type": "patch_apply_end", "call_id": "inner", "success": success, "changes": changes},
        )

    def answer(self, call_id: str, *texts: str, status: str = "completed") -> None:
        parts = [f"Script {status}\nWall time 0.8 seconds\nOutput:\n", *texts]
        output = [{"type": "input_text", "text": text} for text in parts]
        self.add(
            "response_item",
            {"type": "custom_tool_call_output", "call_id": call_id, "output": output},
        )

    def data(self) -> bytes:
        return b"\n".join(json.dumps(line).encode() for line in self.lines) + b"\n"


def _patch(cwd: str, path: str, old: str, new: str) -> str:
    return f"*** Begin Patch\n*** Update File: {cwd}/{path}\n@@\n-{old}\n+{new}\n*** End Patch\n"


def rust_rollout() -> Rollout:
    """A Rust CLI: issue triage, reads, a patch bound to a name, a failing then passing test,
    a runtime-built loop of commands, and a PR body written through a heredoc."""
    cwd = "/Users/dev/src/helpgen"
    r = Rollout(cwd)
    r.prompt("investigate issue 41: subcommand names are never coloured in help")
    r.say("I'll read the issue and trace the help renderer.", "commentary")
    call = r.cell(
        "const [issue, repo] = await Promise.all([\n"
        "  tools.mcp__codex_apps__github_fetch_issue("
        '{issue_number:41, repository_full_name:"dev/helpgen"}),\n'
        '  tools.exec_command({cmd:"git status --short && git log -3 --oneline",'
        f'workdir:"{cwd}",yield_time_ms:10000,max_output_tokens:3000}})\n'
        "]);\ntext(JSON.stringify({issue,repo},null,2));\n"
    )
    r.ran("git status --short && git log -3 --oneline", "a1b2c3d fix(help): wrap long flags\n")
    r.connector("github.fetch_issue")
    r.answer(call, '{"issue": {}, "repo": {"exit_code": 0, "output": "a1b2c3d fix(help)"}}')
    read = "sed -n '1,120p' src/style.rs; sed -n '200,260p' src/help.rs"
    call = r.cell(
        f'const r = await tools.exec_command({{cmd:"{read}",workdir:"{cwd}",'
        "yield_time_ms:10000,max_output_tokens:12000});\ntext(r.output);\n"
    )
    r.ran(read, "pub struct Styling {\n    headings: Vec<String>,\n}\n")
    r.answer(call, "pub struct Styling {\n    headings: Vec<String>,\n}\n")
    mixed = "sed -n '1,80p' src/help.rs && rg -n 'command' src | head -40"
    call = r.cell(
        f'const r = await tools.exec_command({{cmd:{json.dumps(mixed)},workdir:"{cwd}"}});\n'
        "text(r.output);\n"
    )
    parsed = [
        {
            "type": "read",
            "cmd": "sed -n '1,80p' src/help.rs",
            "name": "help.rs",
            "path": "src/help.rs",
        },
        {"type": "search", "cmd": "rg -n command src", "query": "command", "path": "src"},
    ]
    r.ran(mixed, "fn render_help() {}\nsrc/help.rs:12: command\n", parsed=parsed)
    r.answer(call, "fn render_help() {}\nsrc/help.rs:12: command\n")
    r.say("Command rows are never inventoried, so they stay plain.", "commentary")
    patch = _patch(cwd, "src/style.rs", "    headings: Vec<String>,", "    commands: Vec<String>,")
    call = r.cell(f"const patch = {json.dumps(patch)};\ntext(await tools.apply_patch(patch));\n")
    r.file_change(["src/style.rs"])
    r.answer(call, "Success. Updated the following files:\nM src/style.rs\n")
    call = r.cell(
        "for (const f of ['src/style.rs', 'src/help.rs']) {\n"
        f"  const r = await tools.exec_command({{cmd:`wc -l ${{f}}`,workdir:'{cwd}'}});\n"
        "  text(r.output);\n}\n"
    )
    r.ran("wc -l src/style.rs", "212 src/style.rs\n")
    r.ran("wc -l src/help.rs", "1650 src/help.rs\n")
    r.answer(call, "212 src/style.rs\n", "1650 src/help.rs\n")
    test = "cargo test -p helpgen style"
    call = r.cell(
        f'const r = await tools.exec_command({{cmd:"{test}",workdir:"{cwd}"}});\ntext(r);\n'
    )
    r.ran(test, "test style::commands ... FAILED\ntest result: FAILED. 11 passed; 1 failed\n", 101)
    r.answer(call, '{"exit_code": 101, "output": "test result: FAILED. 11 passed; 1 failed"}')
    body = (
        "cat > /tmp/pr-body.md <<'EOF'\n## Summary\n- colour subcommand names\n\n"
        "## Validation\n- cargo test --all --all-features\nEOF\n"
        'gh pr create --title "feat(help): colour subcommand names" --body-file /tmp/pr-body.md'
    )
    call = r.cell(
        f"const r = await tools.exec_command({{cmd:{json.dumps(body)}}});\ntext(r.output);\n"
    )
    r.ran(body, "https://github.com/dev/helpgen/pull/42\n")
    r.answer(call, "https://github.com/dev/helpgen/pull/42\n")
    docs = _patch(
        cwd, "docs/help.md", "Styles: heading, option.", "Styles: heading, option, command."
    )
    shell_patch = f"apply_patch <<'PATCH'\n{docs}PATCH"
    call = r.cell(f"const r = await tools.exec_command({{cmd:{json.dumps(shell_patch)}}});\n")
    r.ran(shell_patch, "Success. Updated the following files:\nM docs/help.md\n")
    r.answer(call, "")
    r.say("Opened PR 42: subcommand names take a `command` style.", "final_answer")
    return r


def node_rollout() -> Rollout:
    """A Node web app: the same shapes with npm, `cat` of two files, a patch given in an object,
    and the 0.154 `patch_apply_end` instead of a `FileChange`."""
    cwd = "/home/dev/shop-web"
    r = Rollout(cwd, "0.154.0")
    r.prompt("why does the cart total drop the discount?")
    call = r.cell(
        "const r = await tools.exec_command({cmd:'cat package.json && cat src/cart.js',"
        f"workdir:'{cwd}'}});\ntext(r.output);\n"
    )
    r.ran("cat package.json && cat src/cart.js", '{"scripts": {"test": "vitest run"}}\n')
    r.answer(call, '{"scripts": {"test": "vitest run"}}\n')
    patch = _patch(cwd, "src/cart.js", "  return sum;", "  return sum - discount;")
    call = r.cell(
        f"let fix = {json.dumps(patch)};\nconst out = await tools.apply_patch({{input: fix}});\n"
        "text(out);\n"
    )
    r.patch_end(["src/cart.js"])
    r.answer(call, "Success. Updated the following files:\nM src/cart.js\n")
    call = r.cell(
        "const cmds = ['npm test', 'npx eslint src'];\n"
        "for (const cmd of cmds) text(await tools.exec_command({cmd, workdir: '" + cwd + "'}));\n"
    )
    r.ran("npm test", "Tests  14 passed (14)\n")
    r.ran("npx eslint src", "")
    r.answer(call, '{"exit_code": 0}', '{"exit_code": 0}')
    r.say("The total now subtracts the discount; `npm test` passes.", "final_answer")
    return r


def tally(events: list[Event]) -> Counter[str]:
    """Events by the columns of the table."""
    counts: Counter[str] = Counter()
    for event in events:
        kind, tool = event.event_type, event.content.get("tool")
        if kind == EventType.USER_MESSAGE:
            counts["prompt"] += 1
        elif kind == EventType.ASSISTANT_RESPONSE:
            counts["assistant"] += 1
        elif kind == EventType.COMMAND_RUN:
            counts["command"] += 1
        elif kind == EventType.TEST_RUN:
            counts["test"] += 1
        elif kind == EventType.CODE_CHANGE:
            counts["change"] += 1
        elif kind == EventType.TOOL_CALL and tool == "exec":
            counts["cell"] += 1
        elif kind == EventType.TOOL_CALL and str(tool).startswith("mcp__"):
            counts["mcp"] += 1
        elif kind == EventType.TOOL_CALL and tool == "apply_patch":
            counts["patch"] += 1
        elif kind == EventType.TOOL_CALL and (tool == "read_file" or event.content.get("reads")):
            counts["read"] += len(event.content.get("reads") or event.file_paths)
    return counts


def measure() -> list[dict[str, Any]]:
    rollouts: list[tuple[str, bytes]] = [
        ("made-up Rust, Desktop 0.153 shape", rust_rollout().data()),
        ("made-up Node, 0.154 shape", node_rollout().data()),
    ]
    if PEQ.exists():
        rollouts.append(("peq (real, Codex CLI 0.154 exec)", PEQ.read_bytes()))
    rows = []
    for name, data in rollouts:
        records = sum(1 for line in data.splitlines() if line.strip())
        result = parse_file(SourceTool.CODEX, f"/tmp/{name}.jsonl", data)
        counts = tally(result.events)
        rows.append({"rollout": name, "records": records, "events": len(result.events), **counts})
    return rows


def record_kinds(data: bytes) -> Counter[str]:
    """A rollout's records by kind: `type`, the payload's `type`, an item's `type`."""
    kinds: Counter[str] = Counter()
    for line in data.splitlines():
        record = json.loads(line) if line.strip() else None
        if not isinstance(record, dict):
            continue
        raw = record.get("payload")
        payload: dict[str, Any] = raw if isinstance(raw, dict) else {}
        item: dict[str, Any] = payload["item"] if isinstance(payload.get("item"), dict) else {}
        parts = (record.get("type"), payload.get("type"), item.get("type"))
        kinds["/".join(str(part) for part in parts if part)] += 1
    return kinds


def main(argv: list[str]) -> int:
    if "--records" in argv:
        for name, data in (("Rust", rust_rollout().data()), ("Node", node_rollout().data())):
            print(name, dict(sorted(record_kinds(data).items())))
        return 0
    rows = measure()
    if "--json" in argv:
        print(json.dumps(rows, indent=1))
        return 0
    head = ["rollout", "records", "events", *COLUMNS]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(str(row.get(col, 0)) for col in head) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
