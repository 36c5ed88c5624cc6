"""Short made-up sessions written in the hosts' own transcript formats (Claude Code JSONL, Codex
rollouts of today's `exec_command` and of the older `shell` era, Gemini CLI chats), for the
wrong-fact traps (`bench/wrong_traps.py`) and the hosts' parity: a session is a list of steps
(`bench/trap_steps.py`: the user's prompt, a file read, a command and its output, an edit, the
assistant's reply) and is written as the host would write it (the Codex rollout in
`bench/trap_codex.py`), so the real ingest parsers read it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.trap_codex import codex_lines
from bench.trap_steps import (
    CLAUDE_REFUSED,
    HOSTS,
    Ask,
    Clock,
    Delegate,
    Edit,
    Lost,
    Read,
    Refused,
    Run,
    Say,
    Session,
    Step,
    Write,
    one_session,
    where,
)

#: The steps are `bench/trap_steps.py`'s; the case files take them from here, beside the writer.
__all__ = [
    "CLAUDE_REFUSED",
    "HOSTS",
    "Ask",
    "Delegate",
    "Edit",
    "Lost",
    "Read",
    "Refused",
    "Run",
    "Say",
    "Session",
    "Step",
    "Trap",
    "Write",
    "claude_lines",
    "codex_lines",
    "gemini_document",
    "one_session",
    "write_sessions",
]


def claude_lines(
    session: Session,
    session_id: str,
    start: datetime,
    subagents: dict[str, list[dict[str, Any]]] | None = None,
) -> list[dict[str, Any]]:
    """The session as Claude Code's JSONL records; the transcript of each subagent a `Delegate`
    step gives steps to goes to `subagents` (its agent id → its sidechain records)."""
    return _ClaudeWriter(session.cwd, session_id, Clock(start), subagents).write(session.steps)


class _ClaudeWriter:
    """Claude Code's records for a list of steps: the main session's, or (`agent` given) a
    subagent's sidechain, on a clock shared with the session that launched it."""

    def __init__(
        self,
        cwd: str,
        session_id: str,
        clock: Clock,
        subagents: dict[str, list[dict[str, Any]]] | None,
        agent: str | None = None,
    ) -> None:
        self.cwd = cwd
        self.session_id = session_id
        self.clock = clock
        self.subagents = subagents
        self.agent = agent
        self.lines: list[dict[str, Any]] = []
        self.parent: str | None = None
        self.n = 0

    def record(self, kind: str, message: dict[str, Any], **extra: Any) -> None:
        where = f"{self.session_id}/{self.agent}" if self.agent else self.session_id
        me = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{where}/{len(self.lines)}"))
        side = {"agentId": self.agent} if self.agent else {}
        self.lines.append(
            {
                "parentUuid": self.parent,
                "isSidechain": self.agent is not None,
                "userType": "external",
                "cwd": self.cwd,
                "sessionId": self.session_id,
                "version": "2.1.39",
                "gitBranch": "main",
                **side,
                "type": kind,
                "uuid": me,
                "timestamp": self.clock.tick(),
                "message": message,
                **extra,
            }
        )
        self.parent = me

    def assistant(self, content: list[dict[str, Any]]) -> None:
        self.record(
            "assistant",
            {
                "id": f"msg_{self.agent or ''}{len(self.lines):04d}",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": content,
                "stop_reason": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            },
        )

    def call_id(self) -> str:
        self.n += 1
        return f"toolu_{self.session_id[:8]}{self.agent or ''}{self.n:04d}"

    def tool(self, name: str, given: dict[str, Any], text: Any, error: bool, result: Any) -> None:
        call = self.call_id()
        self.assistant([{"type": "tool_use", "id": call, "name": name, "input": given}])
        block = {"tool_use_id": call, "type": "tool_result", "content": text, "is_error": error}
        self.record("user", {"role": "user", "content": [block]}, toolUseResult=result)

    def delegate(self, step: Delegate) -> None:
        """The launch of a subagent and its report, as Claude Code writes them: the report as
        the tool's text blocks (with the agent id Claude Code adds for resuming it), and in
        `toolUseResult`; the subagent's own steps, if any, in its sidechain transcript."""
        agent = uuid.uuid5(uuid.NAMESPACE_URL, f"{self.session_id}/{len(self.lines)}").hex[:7]
        call = self.call_id()
        given = {"subagent_type": "general-purpose", "description": "Look into it"}
        given["prompt"] = step.prompt
        self.assistant([{"type": "tool_use", "id": call, "name": step.tool, "input": given}])
        if step.steps and self.subagents is not None:
            side = _ClaudeWriter(self.cwd, self.session_id, self.clock, None, agent)
            side.record("user", {"role": "user", "content": step.prompt})
            side.write(step.steps)
            side.assistant([{"type": "text", "text": step.report}])
            self.subagents[agent] = side.lines
        blocks = [
            {"type": "text", "text": step.report},
            {
                "type": "text",
                "text": f"agentId: {agent} (for resuming to continue this agent's work if needed)",
            },
        ]
        result = {
            "status": "completed",
            "prompt": step.prompt,
            "agentId": agent,
            "content": [{"type": "text", "text": step.report}],
            "totalDurationMs": 41_000,
            "totalTokens": 20_000,
            "totalToolUseCount": len(step.steps),
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
        block = {"tool_use_id": call, "type": "tool_result", "content": blocks}
        self.record("user", {"role": "user", "content": [block]}, toolUseResult=result)

    def write(self, steps: Sequence[Step]) -> list[dict[str, Any]]:
        for step in steps:
            if isinstance(step, Ask):
                self.record("user", {"role": "user", "content": step.text})
            elif isinstance(step, Say):
                self.assistant([{"type": "text", "text": step.text}])
            elif isinstance(step, Delegate):
                self.delegate(step)
            elif isinstance(step, Read):
                path = where(self.cwd, step.path)
                count = step.text.count("\n") + 1
                total = max(step.total, count)
                shown = {"filePath": path, "content": step.text, "numLines": count}
                result = {"type": "text", "file": {**shown, "startLine": 1, "totalLines": total}}
                given = {"file_path": path, **({"limit": count} if total > count else {})}
                self.tool("Read", given, step.text, False, result)
            elif isinstance(step, Write):
                path = where(self.cwd, step.path)
                done = f"File created successfully at: {path}"
                result = {"type": "create", "filePath": path, "content": step.text}
                self.tool("Write", {"file_path": path, "content": step.text}, done, False, result)
            elif isinstance(step, Edit):
                path = where(self.cwd, step.path)
                given = {"file_path": path, "old_string": step.old, "new_string": step.new}
                result = {"filePath": path, "oldString": step.old, "newString": step.new}
                self.tool("Edit", given, f"The file {path} has been updated.", False, result)
            elif isinstance(step, Refused):
                given = {"command": step.command, "description": "Run command"}
                if step.said:
                    said = f"To tell you how to proceed, the user said:\n{step.said}"
                    text = f"{CLAUDE_REFUSED} {said}"
                    self.tool("Bash", given, text, True, f"Error: {text}")
                else:
                    stop = (
                        "STOP what you are doing and wait for the user to tell you how to proceed."
                    )
                    text = f"{CLAUDE_REFUSED} {stop}"
                    self.tool("Bash", given, text, True, "User rejected tool use")
                    stopped = [
                        {"type": "text", "text": "[Request interrupted by user for tool use]"}
                    ]
                    self.record("user", {"role": "user", "content": stopped})
            elif isinstance(step, Lost):
                given = {"command": step.command, "description": "Run command"}
                call = self.call_id()
                self.assistant([{"type": "tool_use", "id": call, "name": "Bash", "input": given}])
            else:
                given = {"command": step.command, "description": "Run command"}
                if step.code:
                    text = f"Exit code {step.code}\n{step.output}"
                    self.tool("Bash", given, text, True, f"Error: {text}")
                else:
                    ran = {
                        "stdout": step.output,
                        "stderr": "",
                        "interrupted": False,
                        "isImage": False,
                    }
                    self.tool("Bash", given, step.output, False, ran)
        return self.lines


def gemini_document(session: Session, session_id: str, start: datetime) -> dict[str, Any]:
    """The session as a Gemini CLI chat kept as one JSON document (`session-*.json`): each tool
    call in a `gemini` message of its own, a command's output in `run_shell_command`'s report;
    its folder named in `directories`."""
    clock = Clock(start)
    messages: list[dict[str, Any]] = []

    def message(kind: str, text: str, calls: list[dict[str, Any]] | None = None) -> None:
        record: dict[str, Any] = {
            "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{session_id}/{len(messages)}")),
            "timestamp": clock.tick(),
            "type": kind,
            "content": text,
        }
        if calls:
            record["toolCalls"] = calls
        messages.append(record)

    def call(name: str, args: dict[str, Any], output: str) -> None:
        call_id = f"{name}-{len(messages)}-{session_id[:8]}"
        answer = {"id": call_id, "name": name, "response": {"output": output}}
        done = {
            "id": call_id,
            "name": name,
            "args": args,
            "result": [{"functionResponse": answer}],
            "status": "success",
            "timestamp": clock.tick(),
        }
        message("gemini", "", [done])

    for step in session.steps:
        if isinstance(step, Delegate):
            raise ValueError("a Delegate step is written for Claude Code sessions only")
        if isinstance(step, Ask):
            message("user", step.text)
        elif isinstance(step, Say):
            message("gemini", step.text)
        elif isinstance(step, Read):
            call("read_file", {"file_path": where(session.cwd, step.path)}, step.text)
        elif isinstance(step, Write):
            path = where(session.cwd, step.path)
            done = f"Successfully created and wrote to new file: {path}."
            call("write_file", {"file_path": path, "content": step.text}, done)
        elif isinstance(step, Edit):
            path = where(session.cwd, step.path)
            given = {"file_path": path, "old_string": step.old, "new_string": step.new}
            call("replace", given, f"Successfully modified file: {path} (1 replacements).")
        elif isinstance(step, Refused):
            call_id = f"run_shell_command-{len(messages)}-{session_id[:8]}"
            output = "[Operation Cancelled] Reason: User did not allow tool call"
            answer = {"id": call_id, "name": "run_shell_command", "response": {"error": output}}
            refused = {
                "id": call_id,
                "name": "run_shell_command",
                "args": {"command": step.command},
                "result": [{"functionResponse": answer}],
                "status": "cancelled",
                "timestamp": clock.tick(),
            }
            message("gemini", "", [refused])
            if step.said:
                message("user", step.said)
        elif isinstance(step, Lost):
            lost = {"id": f"run_shell_command-{len(messages)}", "name": "run_shell_command"}
            message(
                "gemini", "", [{**lost, "args": {"command": step.command}, "status": "cancelled"}]
            )
        else:
            report = (
                f"Command: {step.command}\nDirectory: (root)\nOutput: {step.output or '(empty)'}"
                f"\nError: (none)\nExit Code: {step.code}\nSignal: (none)\n"
                f"Background PIDs: (none)\nProcess Group PGID: {1000 + len(messages)}"
            )
            call("run_shell_command", {"command": step.command}, report)
    return {
        "sessionId": session_id,
        "projectHash": "0" * 64,
        "startTime": start.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
        "lastUpdated": clock.tick(),
        "directories": [session.cwd],
        "messages": messages,
    }


def write_sessions(folder: Path, name: str, sessions: Sequence[Session]) -> list[Path]:
    """Writes each session of a trap under `folder/name/` as its host names its files."""
    out: list[Path] = []
    start = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
    (folder / name).mkdir(parents=True, exist_ok=True)
    for i, session in enumerate(sessions):
        session_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"wrong-trap/{name}/{i}"))
        begun = start + timedelta(days=i)
        if session.host == "gemini":
            stamp = begun.strftime("%Y-%m-%dT%H-%M")
            path = folder / name / f"session-{stamp}-{session_id[:8]}.json"
            path.write_text(json.dumps(gemini_document(session, session_id, begun)))
            out.append(path)
            continue
        if session.host in ("codex", "codex-shell"):
            stamp = begun.strftime("%Y-%m-%dT%H-%M-%S")
            path = folder / name / f"rollout-{stamp}-{session_id}.jsonl"
            era = "exec" if session.host == "codex" else "shell"
            lines = codex_lines(session, session_id, begun, era)
        else:
            path = folder / name / f"{session_id}.jsonl"
            subagents: dict[str, list[dict[str, Any]]] = {}
            lines = claude_lines(session, session_id, begun, subagents)
            # Claude Code (2.1 on) keeps each subagent's transcript beside the session's.
            for agent, records in subagents.items():
                side = folder / name / session_id / "subagents" / f"agent-{agent}.jsonl"
                side.parent.mkdir(parents=True, exist_ok=True)
                side.write_text("".join(json.dumps(line) + "\n" for line in records))
                out.append(side)
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        out.append(path)
    return out


@dataclass(frozen=True)
class Trap:
    """A made-up project built around one way a rule could state a wrong fact: its sessions,
    the patterns no memory or session-start line may match (`wrong`: regex and why, as the
    answer key's `[[wrong]]` entries), what may be stated (`may`: regexes of the right fact,
    to show the rule still fires where it holds) and what no session-start line may state
    though a memory may keep it for search (`unsure`: a claim nothing in the session checked,
    such as a subagent's report alone)."""

    name: str
    ecosystem: str
    trap: str
    sessions: tuple[Session, ...]
    wrong: tuple[tuple[str, str], ...]
    may: tuple[str, ...] = ()
    unsure: tuple[tuple[str, str], ...] = ()
