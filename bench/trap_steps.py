"""The steps of a made-up session (the user's prompt, a file read, a command and its output, an
edit, a refusal, work handed to a subagent, the assistant's reply) and the session that holds
them, before any host writes them (`bench/trap_transcripts.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


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


def where(cwd: str, path: str) -> str:
    return path if path.startswith("/") else f"{cwd.rstrip('/')}/{path}"


class Clock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def tick(self) -> str:
        self.now += timedelta(seconds=7)
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"
