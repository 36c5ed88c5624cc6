"""Claude Code background shell commands: where a command's outcome arrives after its launch.

A `Bash` call with `run_in_background` returns at once ("Command running in background with ID:
…", `toolUseResult.backgroundTaskId`); its exit status comes later, in one of three records:

- a `<task-notification>` the host sends as the next user turn (2.1: `<task-id>`,
  `<tool-use-id>`, `<status>completed|failed|killed</status>` and a `<summary>` that says the
  exit code; the output stays in a file the notification names);
- a `BashOutput` result (older hosts: `toolUseResult` has `shellId`, `status`, `exitCode`,
  `stdout`, `stderr`; the text has `<status>`, `<exit_code>`, `<stdout>`, `<stderr>` tags);
- a `TaskOutput` result (the same facts about a task).

This module reads those records; the parser links them to the command by task id. The exit code
of a notification is the last one its summary says (the host's words come after the command's
description, which may quote one), and no code is invented for a failure that does not say it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_ingest.parsers.base import str_or_none

#: Tools that read a background command's output and status, by the task id in their input.
READ_BACK_TOOLS = frozenset({"BashOutput", "TaskOutput"})
#: Tools that stop a background command: it then says nothing.
STOP_TOOLS = frozenset({"KillShell", "KillBash", "TaskStop"})
#: Input keys naming the background task a read-back or stop tool works on.
TASK_ID_KEYS = ("bash_id", "shell_id", "task_id")
#: The statuses of a command that ended by itself.
FINISHED = frozenset({"completed", "failed"})
#: The status of a command that was stopped: it ended, but says nothing of its outcome.
STOPPED = "killed"

#: The task id in a launch's text; the full stop that ends the sentence is not part of it.
_LAUNCHED = re.compile(r"running in background with ID: ([\w-]+(?:\.[\w-]+)*)")
_NOTIFICATION = re.compile(r"<task-notification>(.*?)(?:</task-notification>|\Z)", re.DOTALL)
_EXIT_CODE = re.compile(r"exit code:? (-?\d{1,9})\b", re.IGNORECASE)
_SCAN_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one record says of a background task: its id (and the call that started it, when
    said), its status, exit code and output as far as known."""

    task_id: str | None
    status: str
    exit_code: int | None = None
    output: str = ""
    tool_use_id: str | None = None

    @property
    def finished(self) -> bool:
        """Whether the command ended by itself (not still running, not stopped)."""
        return self.status in FINISHED

    @property
    def ended(self) -> bool:
        """Whether the command is over: ended by itself or stopped (any other status, such as
        `running` or one this parser does not know, leaves it running)."""
        return self.finished or self.status == STOPPED


def launched_task(output: str, structured: object) -> str | None:
    """The task id a background launch's result names, if it is one."""
    if isinstance(structured, dict):
        found = str_or_none(structured.get("backgroundTaskId"))
        if found:
            return found
    match = _LAUNCHED.search(output[:_SCAN_CHARS])
    return match.group(1) if match else None


def notifications(text: str) -> list[Outcome]:
    """The task notifications in a user-role text (a task's end, as the host told the model)."""
    if "<task-notification>" not in text:
        return []
    found: list[Outcome] = []
    for match in _NOTIFICATION.finditer(text):
        body = match.group(1)
        status = (_tag(body, "status") or "").strip().lower()
        summary = (_last_tag(body, "summary") or "").strip()
        task_id = (_tag(body, "task-id") or "").strip() or None
        use_id = (_tag(body, "tool-use-id") or "").strip() or None
        if not status or (task_id is None and use_id is None):
            continue
        # The host's words end the summary ("… failed with exit code 3", "… (exit code 0)"),
        # after the command's description, which may quote an exit code of its own.
        codes = _EXIT_CODE.findall(summary)
        exit_code = int(codes[-1]) if codes else (0 if status == "completed" else None)
        found.append(Outcome(task_id, status, exit_code, summary, use_id))
    return found


def read_back(output: str, structured: object, task_id: str | None) -> Outcome | None:
    """What a `BashOutput`/`TaskOutput` result says of the task `task_id`: from its structured
    result when the host kept one (its fields, or those of its `task`), else from its text."""
    fields = structured.get("task") if isinstance(structured, dict) else None
    if not isinstance(fields, dict):
        fields = structured if isinstance(structured, dict) else None
    if fields is not None and isinstance(fields.get("status"), str):
        found = str_or_none(fields.get("shellId")) or str_or_none(fields.get("task_id"))
        code = _int(fields.get("exitCode"))
        if code is None:
            code = _int(fields.get("exit_code"))
        printed = [
            fields.get(key) for key in ("output", "stdout", "stderr") if fields.get(key) is not None
        ]
        return Outcome(
            found or task_id,
            str(fields["status"]).strip().lower(),
            code,
            "\n".join(part for part in printed if isinstance(part, str) and part.strip()),
        )
    text = output[:_SCAN_CHARS]
    status = _tag(text, "status") or _tag(text, "retrieval_status")
    if status is None:
        return None
    code_text = (_tag(text, "exit_code") or "").strip()
    printed_parts = [_tag(output, key) for key in ("output", "stdout", "stderr")]
    return Outcome(
        task_id,
        status.strip().lower(),
        int(code_text) if re.fullmatch(r"-?\d{1,9}", code_text) else None,
        "\n".join(part.strip("\n") for part in printed_parts if part and part.strip()),
    )


def _tag(text: str, name: str) -> str | None:
    match = re.search(rf"<{name}>(.*?)</{name}>", text, re.DOTALL)
    return match.group(1) if match else None


def _last_tag(text: str, name: str) -> str | None:
    """The text from the first opening `name` tag to its last closing one: a closing tag quoted
    inside (a command's description carrying markup) does not cut it short."""
    start = text.find(f"<{name}>")
    end = text.rfind(f"</{name}>")
    return text[start + len(name) + 2 : end] if 0 <= start < end else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
