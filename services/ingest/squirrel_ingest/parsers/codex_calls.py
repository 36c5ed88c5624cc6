"""A Codex rollout's tool calls paired with their outputs by `call_id`.

A call (`function_call`, `custom_tool_call`, `local_shell_call`) is remembered until its output
arrives; a shell command whose output says it is still running waits for its
`exec_command_end` to learn the exit code, or for the `write_stdin` poll of its session that
states it (`codex_polls`). A shell call that only prints one file is recorded
as a read of that file, and a shell-form `apply_patch` as the patch it is.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from squirrel_core.events import Event, EventType
from squirrel_core.host_tools import HOSTS
from squirrel_ingest.parsers.base import (
    PENDING_LIMIT,
    PendingTool,
    RecordContext,
    command_event,
    completion_events,
    partial_lines,
    relative_path,
    remember,
    shell_folder,
    str_or_none,
    text_of,
)
from squirrel_ingest.parsers.codex_cell_answers import command_item
from squirrel_ingest.parsers.codex_exec import CELL_TOOL, CodeCells
from squirrel_ingest.parsers.codex_polls import POLL_TOOL, CodexPolls
from squirrel_ingest.parsers.kept_values import keep_input
from squirrel_ingest.parsers.patches import patch_paths
from squirrel_ingest.parsers.shell_commands import (
    READ_TOOL,
    command_text,
    read_paths,
    shell_read,
)
from squirrel_ingest.parsers.shell_reports import codex_answer, codex_output, codex_still_running

_SHELL_FUNCTIONS = HOSTS["codex"].run
_COMPLETED_LIMIT = PENDING_LIMIT * 4


class CodexCalls:
    """The calls awaiting their output, the shell commands still running after theirs, and the
    calls already complete (so a late `exec_command_end` is not read twice). What it cannot
    read is counted in the parser's `skipped`."""

    def __init__(self, cells: CodeCells, skipped: Counter[str]) -> None:
        self.pending: dict[str, PendingTool] = {}
        self.running: dict[str, PendingTool] = {}
        self._completed: dict[str, None] = {}
        self._early: dict[str, dict[str, Any]] = {}
        """The `exec_command_end`s that came before their call's output, by call id."""
        self._cells = cells
        self._skipped = skipped
        self._last_call: str | None = None
        """The id of the last call made, whatever its tool."""
        self._polls = CodexPolls()

    def call(self, item: dict[str, Any], ctx: RecordContext) -> list[Event]:
        """The tool call event of a call item; the call is remembered until its output."""
        call_id = str_or_none(item.get("call_id")) or str_or_none(item.get("id"))
        name = str_or_none(item.get("name")) or (
            "local_shell" if item.get("type") == "local_shell_call" else None
        )
        if call_id is None or name is None:
            self._skipped["malformed_call"] += 1
            return []
        cwd = ctx.cwd
        arguments = _arguments(item)
        command: str | None = None
        paths: tuple[str, ...] = ()
        line_limit: int | None = None
        workdir = shell_folder(arguments.get("workdir"), cwd)
        if name == "apply_patch":
            patch = (
                arguments.get("input")
                if isinstance(arguments.get("input"), str)
                else item.get("input")
            )
            paths = patch_paths(patch) if isinstance(patch, str) else ()
        elif name in _SHELL_FUNCTIONS:
            raw = arguments.get("cmd", arguments.get("command"))
            if isinstance(raw, list) and raw and raw[0] == "apply_patch":
                name = "apply_patch"
                paths = patch_paths(raw[1]) if len(raw) > 1 and isinstance(raw[1], str) else ()
            else:
                command = command_text(raw)
                if command is not None and command.lstrip().startswith("apply_patch"):
                    paths = patch_paths(command)
                    name, command = "apply_patch", None
                elif command is not None and (read := shell_read(command)) is not None:
                    path = shell_folder(read.path, workdir or cwd) or read.path
                    name, paths, line_limit = READ_TOOL, (path,), read.line_limit
                    arguments = {"file_path": path, "command": command}
                    command = None
        if name == POLL_TOOL:
            self._polls.polled(call_id, arguments)
        patches: list[Event] = []
        if name == CELL_TOOL and item.get("type") == "custom_tool_call":
            patches = self._cells.opened(call_id, item.get("input"), ctx)
            session = self._cells.poll_session(call_id, item.get("input"))
            if session is not None:  # a cell that only polls a running command's session
                self._polls.polled(call_id, {"session_id": session})
        paths = tuple(relative_path(path, cwd) for path in paths)
        pending = PendingTool(
            name=name, command=command, paths=paths, cwd=workdir, line_limit=line_limit
        )
        remember(self.pending, call_id, pending)
        self._last_call = call_id
        content = {"tool": name, "tool_use_id": call_id, "input": keep_input(arguments)}
        reads = read_paths(command, workdir or cwd, cwd) if command else ()
        if reads:  # `cat a; echo ---; cat b`: a read of each file, its output theirs together
            content["reads"] = list(reads)
        return [ctx.event(EventType.TOOL_CALL, content, (*paths, *reads), kept=True), *patches]

    def output(self, item: dict[str, Any], ctx: RecordContext) -> list[Event]:
        """The events of a call's output: its result, the command it ran, the files it changed."""
        call_id = str_or_none(item.get("call_id"))
        pending = self.pending.pop(call_id, None) if call_id else None
        if pending is None:
            self._skipped["unpaired_output"] += 1
        runs_process = pending is not None and (
            pending.command is not None or pending.name in ("apply_patch", READ_TOOL)
        )
        read_lines: tuple[int, int] | None = None
        output, exit_code, failed = codex_answer(item.get("output"), scan_text=runs_process)
        still_running = exit_code is None and codex_still_running(output)
        early = self._early.pop(call_id, None) if call_id else None
        ended: list[Event] = []
        if pending is not None and pending.command is not None and still_running and call_id:
            remember(self.running, call_id, pending)
            pending = PendingTool(name=pending.name, paths=pending.paths, cwd=pending.cwd)
            if early is not None:  # its end came first after all: that is the command's run
                ended = self.exec_end(early, ctx)
            else:
                self._polls.started(call_id, output)
        if pending is not None and pending.name == POLL_TOOL and call_id:
            ended = self._poll_end(call_id, output, ctx)
        if pending is not None and pending.command is not None:
            self.complete(call_id)
            output = codex_output(output)
        elif pending is not None and pending.name == READ_TOOL:
            output = codex_output(output)
            read_lines = partial_lines(1, len(output.splitlines()), limit=pending.line_limit)
        is_error = failed if failed is not None else exit_code not in (None, 0)
        cell = pending is not None and pending.name == CELL_TOOL
        if cell and call_id:
            ended = self._cell_session(call_id, item.get("output"), ctx)
        ran = self._cells.answered(ctx, call_id, item.get("output"), ctx.cwd) if cell else []
        return [
            *completion_events(
                ctx,
                call_id,
                pending,
                output,
                is_error=is_error,
                exit_code=exit_code,
                read_lines=read_lines,
            ),
            *ran,
            *ended,
        ]

    def exec_end(self, payload: dict[str, Any], ctx: RecordContext) -> list[Event]:
        """The command event of an `exec_command_end`: the end of a command still running when
        its call's output came, of a code cell's command, or of a command only it records."""
        call_id = str_or_none(payload.get("call_id"))
        if call_id is not None and call_id in self._completed:
            self._skipped["duplicate_exec_end"] += 1
            return []
        awaiting = self.pending.get(call_id) if call_id else None
        if (
            call_id is not None
            and awaiting is not None
            and (awaiting.command is not None or awaiting.name == READ_TOOL)
        ):
            # A command (or a shell read) that ended within its call's wait: its end is written
            # before the call's output, which says the same (exit code, output) and is read as
            # the run or the read, in the folder the call named; the end is kept in case the
            # output says it still runs.
            self._early[call_id] = payload
            while len(self._early) > PENDING_LIMIT:
                del self._early[next(iter(self._early))]
            self._skipped["early_exec_end"] += 1
            return []
        pending = self.running.pop(call_id, None) if call_id else None
        exit_code = payload.get("exit_code")
        code = exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else None
        output = text_of(payload.get("aggregated_output")) or "\n".join(
            part
            for part in (text_of(payload.get("stdout")), text_of(payload.get("stderr")))
            if part
        )
        if pending is None:  # a cell's command still running after its cell's answer?
            given = command_text(payload.get("command"))
            in_session = self._session_record(payload.get("process_id"), given, output, code, ctx)
            if in_session is not None:
                return in_session
        self._polls.ended(call_id)
        command = pending.command if pending else command_text(payload.get("command"))
        if command is None:
            self._skipped["malformed_exec_end"] += 1
            return []
        self.complete(call_id)
        if pending is None:  # a cell's command: not read again from its answer
            read = self._cells.ended_read(ctx, command, output, code)
            if read is not None:
                return read
        paths = pending.paths if pending else ()
        shell_cwd = pending.cwd if pending else None
        return [
            command_event(
                ctx, call_id, command, output, exit_code=code, paths=paths, shell_cwd=shell_cwd
            )
        ]

    def recorded(self, item: object, ctx: RecordContext) -> list[Event] | None:
        """The run of a command still running after its call's (or cell's) answer, from the
        host's `item_completed` `CommandExecution` of its session (`process_id`); [] for a
        record of a session whose run was already made; None for any other record."""
        found = command_item(item)
        if found is None or not isinstance(item, dict):
            return None
        command, output, code, _ = found
        return self._session_record(item.get("process_id"), command, output, code, ctx)

    def _session_record(
        self,
        process: object,
        command: str | None,
        output: str,
        code: int | None,
        ctx: RecordContext,
    ) -> list[Event] | None:
        """The run of the command running in session `process`, from the host's record of it
        (`command` and its exit `code`): None when no command of that line runs there or the
        record states no exit code; [] when that session's run was already made (a poll said
        it exited, or another record of it came first)."""
        if isinstance(process, bool) or not isinstance(process, int | str) or command is None:
            return None
        session = str(process)
        if not session.isdigit():
            return None
        if self._polls.ended_in(session) is not None:
            self._skipped["duplicate_session_end"] += 1
            return []
        owner = self._polls.running_in(session)
        running = self.running.get(owner) if owner is not None else None
        if owner is None or running is None or running.command != command.strip() or code is None:
            return None
        return self._ran_in_session((owner, output, code), ctx)

    def _cell_session(self, call_id: str, raw: object, ctx: RecordContext) -> list[Event]:
        """A cell's answer read for a command still running in a session: the cell's one
        command, when its answer says it runs on (its run waits for its end), or the run of
        the command a cell that only polls its session asked about, once the poll's answer
        states the exit code."""
        result = self._cells.result(call_id, raw)
        running = self._cells.still_running(call_id, result, ctx.cwd)
        if running is not None:
            command, folder, opened, printed = running
            remember(
                self.running, call_id, PendingTool(name=CELL_TOOL, command=command, cwd=folder)
            )
            self._polls.opened(call_id, opened, printed)
            return []
        output, code, polled = result if result is not None else ("", None, None)
        ended = self._polls.cell_answered(call_id, output, code, polled)
        return self._ran_in_session(ended, ctx)

    def _poll_end(self, call_id: str, report: str, ctx: RecordContext) -> list[Event]:
        """The run of a command still running after its call's output, when the answer of a
        `write_stdin` poll of its session says it exited (its `exec_command_end` may be missing
        from the rollout; when it comes later it is a duplicate)."""
        return self._ran_in_session(self._polls.answered(call_id, report), ctx)

    def _ran_in_session(
        self, ended: tuple[str, str, int] | None, ctx: RecordContext
    ) -> list[Event]:
        """The run of command `ended[0]`, which printed `ended[1]` and exited `ended[2]`."""
        running = self.running.pop(ended[0], None) if ended is not None else None
        if ended is None or running is None or running.command is None:
            return []
        command_call, printed, code = ended
        self._polls.ended(command_call)
        self.complete(command_call)
        return [
            command_event(
                ctx,
                command_call,
                running.command,
                printed,
                exit_code=code,
                paths=running.paths,
                shell_cwd=running.cwd,
            )
        ]

    def open_cell(self) -> str | None:
        """The call id of the code cell awaiting its answer when it is the last call made (a
        record of a command or patch then is that cell's); None when the last call made is
        another tool's (even one already answered), or that cell has its answer."""
        call_id = self._last_call
        pending = self.pending.get(call_id) if call_id else None
        return call_id if pending is not None and pending.name == CELL_TOOL else None

    def complete(self, call_id: str | None) -> None:
        """Mark a call complete: a later `exec_command_end` of it is a duplicate."""
        if call_id is None:
            return
        self._completed[call_id] = None
        while len(self._completed) > _COMPLETED_LIMIT:
            del self._completed[next(iter(self._completed))]

    def state(self) -> dict[str, Any]:
        """The calls awaiting their output and the commands still running, for a cursor."""
        return {
            "pending": {key: tool.to_json() for key, tool in self.pending.items()},
            "running": {key: tool.to_json() for key, tool in self.running.items()},
            "last_call": self._last_call,
            "polls": self._polls.state(),
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Take back what `state` returned (unknown shapes are ignored)."""
        for key, target in (("pending", self.pending), ("running", self.running)):
            saved = state.get(key)
            if isinstance(saved, dict):
                for call_id, value in list(saved.items())[-PENDING_LIMIT:]:
                    tool = PendingTool.from_json(value)
                    if isinstance(call_id, str) and tool is not None:
                        remember(target, call_id, tool)
        polls = state.get("polls")
        if isinstance(polls, dict):
            self._polls.restore(polls)
        last = state.get("last_call")
        # An older cursor kept no last call: the last one still awaiting its output stands in.
        fallback = next(reversed(self.pending), None) if "last_call" not in state else None
        self._last_call = last if isinstance(last, str) else fallback


def _arguments(item: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments as a dict: `arguments` (a JSON string), `input`, or a shell `action`."""
    action = item.get("action")
    if isinstance(action, dict):
        return {"command": action.get("command"), "workdir": action.get("working_directory")}
    raw = item.get("arguments", item.get("input"))
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):
            return {"input": raw}
        return value if isinstance(value, dict) else {"input": raw}
    return {}
