"""Sessions built event by event for the memory rules' tests: one session's commands (run or
typed by the user), replies, reads, writes and edits (`Session`), a README read on its own
(`read_result`), a session of one command run (`one_run`) and the one memory it gives under
a key (`the_one`), a scripted stream of runs, replies and edits (`scripted_session`), a user's
answer to a task reported done (`exchange`), and the real stores and processor such sessions
go through."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from squirrel_core.commands import is_test_command
from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    StoredEvent,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.base import Store
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore


def numbered(text: str) -> str:
    """`text` as a Read tool shows it: each line behind its number."""
    return "".join(f"{i:6d}→{line}\n" for i, line in enumerate(text.splitlines(), 1))


class Session:
    """The events of one Claude Code session in `root`, in order, 20 seconds apart."""

    def __init__(
        self, root: str, session_id: str, start: datetime, *, test_runs: bool = False
    ) -> None:
        self.root = root
        self.session_id = session_id
        self.start = start
        self.test_runs = test_runs
        """Test commands come as `test_run` events, as ingest types them (else `command_run`)."""
        self.events: list[StoredEvent] = []

    def add(
        self,
        kind: str,
        content: dict[str, Any],
        paths: tuple[str, ...] = (),
        origin: str = "",
        *,
        sidechain: bool = False,
    ) -> str:
        """One event of `kind` (from `origin` when given; a subagent's, `agent-1`, when
        `sidechain`); returns its id."""
        n = len(self.events) + 1
        self.events.append(
            StoredEvent(
                id=f"{self.session_id}_{n:04d}",
                project_id=self.root,
                user_id="dev",
                source_tool="claude_code",
                session_id=self.session_id,
                timestamp=self.start + timedelta(seconds=20 * n),
                event_type=kind,
                content=content,
                file_paths=paths,
                hash=f"{self.root}{self.session_id}{n}",
                origin=origin,
                sidechain=sidechain,
                agent_id="agent-1" if sidechain else None,
            )
        )
        return self.events[-1].id

    def extracted(self) -> list[MemoryCandidate]:
        """What the rules extractor keeps of the session, read as one episode."""
        first, last = self.events[0], self.events[-1]
        episode = Episode(
            "ep1",
            self.root,
            "dev",
            self.session_id,
            first.timestamp,
            last.timestamp,
            len(self.events),
            "",
            0.5,
            last.timestamp,
        )
        return RulesExtractor().extract_sync(episode, self.events)

    def ingested(self) -> list[Event]:
        """The session's events as ingest hands them to a store (`append_events`)."""
        return [
            Event(
                SourceTool.CLAUDE_CODE,
                EventType(stored.event_type),
                stored.timestamp,
                stored.content,
                session_id=stored.session_id,
                file_paths=stored.file_paths,
                origin=Origin(stored.origin) if stored.origin else None,
            )
            for stored in self.events
        ]

    def user(self, text: str) -> None:
        self.add("user_message", {"text": text})

    def say(self, text: str) -> None:
        self.add("assistant_response", {"text": text})

    def run(
        self,
        command: str,
        exit_code: int | None = 0,
        output: str = "",
        *,
        call: bool = True,
        cwd: str | None = None,
    ) -> None:
        """A Bash call and the command it ran (`exit_code` None: it never ran, as when the user
        declined it); with `call=False` the command alone, as a transcript without the call
        shows it; `cwd`: the folder the shell was in, when the transcript says."""
        use = f"t{len(self.events)}"
        if call:
            self.add(
                "tool_call", {"tool": "Bash", "tool_use_id": use, "input": {"command": command}}
            )
        tested = self.test_runs and is_test_command(command)
        self.add(
            "test_run" if tested else "command_run",
            {
                "command": command,
                "tool_use_id": use,
                "exit_code": exit_code,
                "is_error": exit_code != 0,
                "output": output,
                **({"cwd": cwd} if cwd else {}),
            },
        )

    def typed(self, command: str, stdout: str, stderr: str = "") -> None:
        """A command the user typed (`!cmd`) and the output the harness echoed back."""
        self.add("user_message", {"text": f"<bash-input>{command}</bash-input>"}, origin="typed")
        echoed = f"<bash-stdout>{stdout}</bash-stdout><bash-stderr>{stderr}</bash-stderr>"
        self.add("user_message", {"text": echoed}, origin="harness")

    def read(self, path: str, text: str) -> None:
        """A whole file of the project read (`path` relative to the root)."""
        use = f"t{len(self.events)}"
        full = f"{self.root}/{path}"
        self.add("tool_call", {"tool": "Read", "tool_use_id": use, "input": {}}, (full,))
        self.add(
            "tool_result",
            {"tool": "Read", "tool_use_id": use, "output": numbered(text), "is_error": False},
            (full,),
        )

    def read_elsewhere(self, path: str, text: str) -> None:
        """A subagent's whole read of a file outside the project (`path` absolute)."""
        use = f"t{len(self.events)}"
        self.add("tool_call", {"tool": "Read", "tool_use_id": use, "input": {}}, (path,))
        self.add(
            "tool_result",
            {"tool": "Read", "tool_use_id": use, "output": numbered(text), "is_error": False},
            (path,),
            sidechain=True,
        )

    def write(self, path: str, text: str) -> None:
        """A file of the project written whole (`path` relative to the root)."""
        use = f"t{len(self.events)}"
        full = f"{self.root}/{path}"
        self.add(
            "tool_call",
            {"tool": "Write", "tool_use_id": use, "input": {"file_path": full, "content": text}},
            (full,),
        )
        self.add("code_change", {"tool": "Write", "tool_use_id": use, "path": full}, (full,))

    def edit(self, path: str, text: str | None = None) -> None:
        """An edit of `path` (as given) writing `text` when given (the lines it replaced do not
        matter)."""
        use = f"t{len(self.events)}"
        edited = {} if text is None else {"new_string": text}
        self.add("tool_call", {"tool": "Edit", "tool_use_id": use, "input": edited}, (path,))
        self.add("code_change", {"tool": "Edit", "tool_use_id": use, "path": path}, (path,))

    def edit_lines(self, path: str, old: str, new: str) -> None:
        """An edit replacing `old` with `new` in a file of the project (relative to the root)."""
        use = f"t{len(self.events)}"
        full = f"{self.root}/{path}"
        self.add(
            "tool_call",
            {
                "tool": "Edit",
                "tool_use_id": use,
                "input": {"file_path": full, "old_string": old, "new_string": new},
            },
            (full,),
        )
        self.add("code_change", {"tool": "Edit", "tool_use_id": use, "path": full}, (full,))


def command_runs(
    root: str, runs: Sequence[tuple[str, int, str]], start: datetime
) -> list[StoredEvent]:
    """One session's shell commands alone, as (command, exit code, output), in `root`, 30
    seconds apart from `start`: no prompt, no reply, no call."""
    return [
        StoredEvent(
            id=f"evt_s1_{index:04d}",
            project_id=root,
            user_id="dev",
            source_tool="claude_code",
            session_id="s1",
            timestamp=start + timedelta(seconds=30 * (index + 1)),
            event_type="command_run",
            content={
                "command": command,
                "tool_use_id": f"s1-{index}",
                "exit_code": code,
                "is_error": code != 0,
                "output": output,
                "cwd": root,
            },
            file_paths=(),
            hash=f"h-s1-{index}",
        )
        for index, (command, code, output) in enumerate(runs)
    ]


def one_run(
    root: str,
    start: datetime,
    command: str,
    exit_code: int | None,
    output: str,
    *,
    cwd: str | None = None,
) -> Session:
    """A session `s1` in `root` that ran `command` once, ending with `exit_code` and `output`
    (in `cwd` when the transcript says)."""
    session = Session(root, "s1", start)
    session.run(command, exit_code, output, cwd=cwd)
    return session


def the_one(session: Session, key_prefix: str) -> MemoryCandidate:
    """The one memory the session's events give under `key_prefix` (an error when there are
    none or several)."""
    (found,) = [c for c in session.extracted() if c.key.startswith(key_prefix)]
    return found


def read_result(
    root: str, path: str, text: str, at: datetime, *, is_error: bool = False
) -> list[StoredEvent]:
    """The one result of a Read of `path` (relative to `root`) showing `text`."""
    content: dict[str, Any] = {"tool": "Read", "output": numbered(text), "is_error": is_error}
    return [
        StoredEvent(
            id="e1",
            project_id=root,
            user_id="dev",
            source_tool="claude_code",
            session_id="s1",
            timestamp=at,
            event_type="tool_result",
            content=content,
            file_paths=(f"{root}/{path}",),
            hash="h1",
        )
    ]


def _scripted(
    root: str, start: datetime, n: int, session: str, kind: str, content: dict[str, Any], at: int
) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{session}_{n:04d}",
        project_id=root,
        user_id="dev",
        source_tool="claude_code",
        session_id=session,
        timestamp=start + timedelta(seconds=at),
        event_type=kind,
        content=content,
        file_paths=(),
        hash=f"h-{session}-{n}",
    )


def scripted_session(
    root: str, t0: datetime, session: str, steps: Sequence[tuple[str, Any]], start: int = 0
) -> list[StoredEvent]:
    """`("run", (command, exit, output))`, `("say", text)` or `("edit", (path, old, new))`,
    30 seconds apart from `start` seconds after `t0`."""
    events: list[StoredEvent] = []
    for n, (kind, data) in enumerate(steps):
        at = start + 30 * (n + 1)
        if kind == "run":
            command, code, output = data
            content = {"command": command, "exit_code": code, "is_error": code != 0}
            events.append(
                _scripted(root, t0, n, session, "command_run", {**content, "output": output}, at)
            )
        elif kind == "say":
            events.append(_scripted(root, t0, n, session, "assistant_response", {"text": data}, at))
        else:
            path, old, new = data
            where = path if path.startswith("/") else f"{root}/{path}"
            edit = {"file_path": where, "old_string": old, "new_string": new}
            call = {"tool": "Edit", "input": edit}
            events.append(_scripted(root, t0, n, session, "tool_call", call, at))
            change = {"path": where}
            events.append(_scripted(root, t0, 100 + n, session, "code_change", change, at + 1))
    return events


def exchange(session: str, start: datetime, done: str, reply: str) -> list[Event]:
    """The user asks for a task, the assistant reports it `done`, the user answers `reply`."""
    texts = [
        (EventType.USER_MESSAGE, {"text": "Add the export endpoint."}),
        (EventType.ASSISTANT_RESPONSE, {"text": done}),
        (EventType.USER_MESSAGE, {"text": reply}),
    ]
    return [
        Event(
            SourceTool.CLAUDE_CODE, kind, start + timedelta(minutes=i), content, session_id=session
        )
        for i, (kind, content) in enumerate(texts)
    ]


def turn_events(session: str, start: datetime, said: Sequence[tuple[str, str]]) -> list[Event]:
    """One session of (the user's message, the assistant's reply) turns, two minutes apart, as
    ingest appends them."""
    kinds = (EventType.USER_MESSAGE, EventType.ASSISTANT_RESPONSE)
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            start + timedelta(minutes=2 * i + j),
            {"text": text},
            session_id=session,
        )
        for i, turn in enumerate(said)
        for j, (kind, text) in enumerate(zip(kinds, turn, strict=True))
    ]


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


def rules_processor(store: SqliteStore, users: SqliteUserStore, now: datetime) -> Processor:
    """A processor of `store` alone with the rules extractor, the update rules and a fixed
    clock, retrying nothing."""

    async def all_stores() -> list[Store]:
        return [store]

    return Processor(
        all_stores,
        users,
        RulesExtractor(),
        _decide,
        user_id="u",
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: now,
    )


@asynccontextmanager
async def clocked_stores(
    tmp_path: Path, now: datetime
) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    """A project's store and the user store under `tmp_path`, their clock stopped at `now`."""
    root = tmp_path / "proj"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()), clock=lambda: now)
    users = await SqliteUserStore.open(tmp_path / "home")
    try:
        yield store, users
    finally:
        await store.close()
        await users.close()
