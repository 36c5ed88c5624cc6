"""Short made-up sessions written in the hosts' own transcript formats (Claude Code JSONL, Codex
rollouts of today's `exec_command` and of the older `shell` era, Gemini CLI chats), for the
wrong-fact traps (`bench/wrong_traps.py`) and the hosts' parity: a session is a list of steps
(the user's prompt, a file read, a command and its output, an edit, the assistant's reply) and
is written as the host would write it, so the real ingest parsers read it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Ask:
    """The user's message."""

    text: str


@dataclass(frozen=True)
class Say:
    """The assistant's reply text."""

    text: str


@dataclass(frozen=True)
class Read:
    """A file read (path relative to the project's folder unless absolute) and its text;
    `total`, when above the text's lines, is the file's length: a read of its first lines only
    (a Read with a limit)."""

    path: str
    text: str
    total: int = 0


@dataclass(frozen=True)
class Run:
    """A shell command, its output and its exit code."""

    command: str
    output: str
    code: int = 0


@dataclass(frozen=True)
class Write:
    """A file written whole (path relative to the project's folder unless absolute)."""

    path: str
    text: str


@dataclass(frozen=True)
class Edit:
    """Part of a file replaced (`old` -> `new`; path relative to the project's folder)."""

    path: str
    old: str
    new: str


@dataclass(frozen=True)
class Lost:
    """A shell command whose result never reached the transcript (the session was cut, or the
    host dropped the tool's answer): the call is written, its output and exit code are not."""

    command: str


@dataclass(frozen=True)
class Refused:
    """A shell command the assistant proposed and the user refused before it ran; `said` is
    what the user wrote while refusing (empty: refused with no word, the user's next prompt
    then says why)."""

    command: str
    said: str = ""


@dataclass(frozen=True)
class Delegate:
    """Work handed to a subagent (Claude Code's `Task` tool, `Agent` from 2.1): the brief it was
    given (`prompt`), the report it handed back (the tool's result) and, when `steps` are
    given, its own steps, written as Claude Code writes a subagent's transcript (sidechain
    records in `<session>/subagents/agent-<id>.jsonl`, its last reply the report). Claude Code
    sessions only."""

    prompt: str
    report: str
    steps: tuple[Step, ...] = ()
    tool: str = "Task"


Step = Ask | Say | Read | Run | Write | Edit | Lost | Refused | Delegate

#: What Claude Code answers a refused tool call with, as its tool result.
CLAUDE_REFUSED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it"
    " was a file edit, the new_string was NOT written to the file)."
)

#: The hosts a session can be written for: Claude Code, Codex (`exec_command`), Codex's older
#: `shell` function (an argv through `bash -lc`, its output wrapped in JSON with the exit
#: code) and Gemini CLI (a chat kept as one JSON document).
HOSTS = ("claude", "codex", "codex-shell", "gemini")


@dataclass(frozen=True)
class Session:
    """One session: the host (one of `HOSTS`), the project's folder and the steps."""

    host: str
    cwd: str
    steps: tuple[Step, ...]


def one_session(cwd: str, *steps: Step, host: str = "claude") -> tuple[Session, ...]:
    """A case's sessions when it has one: `steps` in the project at `cwd`, written by `host`."""
    return (Session(host, cwd, steps),)


def _where(cwd: str, path: str) -> str:
    return path if path.startswith("/") else f"{cwd.rstrip('/')}/{path}"


class _Clock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def tick(self) -> str:
        self.now += timedelta(seconds=7)
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"


def claude_lines(
    session: Session,
    session_id: str,
    start: datetime,
    subagents: dict[str, list[dict[str, Any]]] | None = None,
) -> list[dict[str, Any]]:
    """The session as Claude Code's JSONL records; the transcript of each subagent a `Delegate`
    step gives steps to goes to `subagents` (its agent id → its sidechain records)."""
    return _ClaudeWriter(session.cwd, session_id, _Clock(start), subagents).write(session.steps)


class _ClaudeWriter:
    """Claude Code's records for a list of steps: the main session's, or (`agent` given) a
    subagent's sidechain, on a clock shared with the session that launched it."""

    def __init__(
        self,
        cwd: str,
        session_id: str,
        clock: _Clock,
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
                path = _where(self.cwd, step.path)
                count = step.text.count("\n") + 1
                total = max(step.total, count)
                shown = {"filePath": path, "content": step.text, "numLines": count}
                result = {"type": "text", "file": {**shown, "startLine": 1, "totalLines": total}}
                given = {"file_path": path, **({"limit": count} if total > count else {})}
                self.tool("Read", given, step.text, False, result)
            elif isinstance(step, Write):
                path = _where(self.cwd, step.path)
                done = f"File created successfully at: {path}"
                result = {"type": "create", "filePath": path, "content": step.text}
                self.tool("Write", {"file_path": path, "content": step.text}, done, False, result)
            elif isinstance(step, Edit):
                path = _where(self.cwd, step.path)
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
    clock = _Clock(start)
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


def gemini_document(session: Session, session_id: str, start: datetime) -> dict[str, Any]:
    """The session as a Gemini CLI chat kept as one JSON document (`session-*.json`): each tool
    call in a `gemini` message of its own, a command's output in `run_shell_command`'s report;
    its folder named in `directories`."""
    clock = _Clock(start)
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
            call("read_file", {"file_path": _where(session.cwd, step.path)}, step.text)
        elif isinstance(step, Write):
            path = _where(session.cwd, step.path)
            done = f"Successfully created and wrote to new file: {path}."
            call("write_file", {"file_path": path, "content": step.text}, done)
        elif isinstance(step, Edit):
            path = _where(session.cwd, step.path)
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
