"""A made-up session as a Codex rollout's JSONL records, of today's `exec_command` era and of
the older `shell` era (`bench/trap_transcripts.py` writes it to its file)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bench.trap_steps import Ask, Clock, Delegate, Edit, Lost, Read, Refused, Say, Session, Write

#: What a rollout's `session_meta` says of the Codex that wrote it, in each era.
_CODEX_META = {
    "exec": {"originator": "codex_cli_rs", "cli_version": "0.146.0"},
    "shell": {"originator": "codex_exec", "cli_version": "0.77.0", "source": "exec"},
}


def codex_lines(
    session: Session, session_id: str, start: datetime, era: str = "exec"
) -> list[dict[str, Any]]:
    """The session as a Codex rollout's JSONL records. Of today (`era="exec"`): shell calls
    through `exec_command`, reads through `cat`, edits as an `apply_patch` tool call. Of the
    older `shell` era (`era="shell"`): commands through the `shell` function as `["bash",
    "-lc", command]`, outputs wrapped in JSON with their exit code, reads through `sed`, edits
    as an `apply_patch` argv; the prompt also as a `user` message."""
    today = era == "exec"
    clock = Clock(start)
    meta = {
        "id": session_id,
        "timestamp": clock.tick(),
        "cwd": session.cwd,
        **_CODEX_META[era],
        "model_provider": "openai",
    }
    lines: list[dict[str, Any]] = [
        {"timestamp": meta["timestamp"], "type": "session_meta", "payload": meta}
    ]
    n = 0

    def item(kind: str, payload: dict[str, Any]) -> None:
        lines.append({"timestamp": clock.tick(), "type": kind, "payload": payload})

    def call_id() -> str:
        nonlocal n
        n += 1
        return f"call_{session_id[:8]}_{n}"

    def exec_command(command: str, output: str, code: int) -> None:
        call = call_id()
        arguments = json.dumps({"cmd": command, "workdir": session.cwd})
        item(
            "response_item",
            {
                "type": "function_call",
                "name": "exec_command",
                "arguments": arguments,
                "call_id": call,
            },
        )
        shown = (
            f"Chunk ID: {n}\nWall time: 0.4 seconds\nProcess exited with code {code}\n"
            f"Original token count: {len(output.split())}\nOutput:\n{output}"
        )
        # The command's end, written as it ends: before the call's output.
        ended = {
            "type": "exec_command_end",
            "call_id": call,
            "command": ["/bin/bash", "-lc", command],
            "cwd": session.cwd,
            "aggregated_output": output,
            "exit_code": code,
            "status": "completed" if code == 0 else "failed",
        }
        item("event_msg", ended)
        item("response_item", {"type": "function_call_output", "call_id": call, "output": shown})

    def shell(argv: list[str], output: str, code: int) -> None:
        call = call_id()
        arguments = json.dumps({"command": argv, "workdir": session.cwd})
        item(
            "response_item",
            {"type": "function_call", "name": "shell", "arguments": arguments, "call_id": call},
        )
        wrapped = {"output": output, "metadata": {"exit_code": code, "duration_seconds": 0.4}}
        item(
            "response_item",
            {"type": "function_call_output", "call_id": call, "output": json.dumps(wrapped)},
        )

    def refuse(command: str) -> None:
        # As Codex answers a command the user declined at the approval prompt.
        call = call_id()
        given = (
            {"cmd": command, "workdir": session.cwd}
            if today
            else {"command": ["bash", "-lc", command], "workdir": session.cwd}
        )
        name = "exec_command" if today else "shell"
        item(
            "response_item",
            {
                "type": "function_call",
                "name": name,
                "arguments": json.dumps(given),
                "call_id": call,
            },
        )
        refused = "exec command rejected by user"
        item("response_item", {"type": "function_call_output", "call_id": call, "output": refused})

    def run(command: str, output: str, code: int) -> None:
        if today:
            exec_command(command, output, code)
        else:
            shell(["bash", "-lc", command], output, code)

    def patch(path: str, before: str | None, after: str) -> None:
        # As Codex edits: an `apply_patch` call, the whole file replaced where it was read.
        given = _patch_text(path, before, after)
        done = f"Success. Updated the following files:\nM {path}\n"
        if not today:
            shell(["apply_patch", given], done, 0)
            return
        call = call_id()
        item(
            "response_item",
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": call,
                "name": "apply_patch",
                "input": given,
            },
        )
        ended = {"output": done, "metadata": {"exit_code": 0, "duration_seconds": 0.1}}
        item(
            "response_item",
            {"type": "custom_tool_call_output", "call_id": call, "output": json.dumps(ended)},
        )

    seen: dict[str, str] = {}
    for step in session.steps:
        if isinstance(step, Delegate):
            raise ValueError("a Delegate step is written for Claude Code sessions only")
        if isinstance(step, Ask):
            if not today:
                said = {"type": "input_text", "text": step.text}
                item("response_item", {"type": "message", "role": "user", "content": [said]})
            item("event_msg", {"type": "user_message", "message": step.text, "images": []})
        elif isinstance(step, Say):
            item("event_msg", {"type": "agent_message", "message": step.text})
            said = {"type": "output_text", "text": step.text}
            item("response_item", {"type": "message", "role": "assistant", "content": [said]})
        elif isinstance(step, Read):
            seen[step.path] = step.text
            run(f"cat {step.path}" if today else f"sed -n '1,200p' {step.path}", step.text, 0)
        elif isinstance(step, Write):
            patch(step.path, seen.get(step.path), step.text)
            seen[step.path] = step.text
        elif isinstance(step, Edit):
            patch(step.path, step.old, step.new)
            seen[step.path] = seen.get(step.path, "").replace(step.old, step.new)
        elif isinstance(step, Refused):
            refuse(step.command)
            if step.said:
                if not today:
                    said = {"type": "input_text", "text": step.said}
                    item("response_item", {"type": "message", "role": "user", "content": [said]})
                item("event_msg", {"type": "user_message", "message": step.said, "images": []})
        elif isinstance(step, Lost):
            arguments = json.dumps(
                {"cmd": step.command, "workdir": session.cwd}
                if today
                else {"command": ["bash", "-lc", step.command], "workdir": session.cwd}
            )
            name = "exec_command" if today else "shell"
            item(
                "response_item",
                {
                    "type": "function_call",
                    "name": name,
                    "arguments": arguments,
                    "call_id": call_id(),
                },
            )
        else:
            run(step.command, step.output, step.code)
    return lines


def _patch_text(path: str, before: str | None, after: str) -> str:
    """An `apply_patch` body: the file added, or its `before` lines replaced by `after`."""
    added = "".join(f"+{line}\n" for line in after.splitlines())
    if before is None:
        return f"*** Begin Patch\n*** Add File: {path}\n{added}*** End Patch"
    removed = "".join(f"-{line}\n" for line in before.splitlines())
    return f"*** Begin Patch\n*** Update File: {path}\n@@\n{removed}{added}*** End Patch"
