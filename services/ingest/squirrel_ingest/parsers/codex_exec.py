"""Commands a Codex rollout runs outside its shell functions: the cells of its JavaScript `exec`
tool (the user's own `!cmd` is read in `codex_user_shell`).

With code mode (the Codex desktop app, `codex exec` from 0.154), the model runs commands
through one custom tool, `exec`, whose input is JavaScript calling the shell tools:

    const r = await tools.exec_command({cmd: "pytest -q", workdir: "/repo"}); text(r);

The rollout records the cell (`custom_tool_call` named `exec`), what the host ran for it (an
`item_completed` event whose item is a `CommandExecution`: the argv, its exit code and output)
and the cell's answer (`custom_tool_call_output`: a `Script completed` header, then what the
script passed to `text(…)`, a JSON result with `exit_code` and `output` when it passed the
whole result). A command is read once: from the host's record of it when there is one, else
from the cell's source (a `cmd` given as a string literal, or a name the cell binds once to
one; one built at run time is not a command read here) with the exit code and output its answer
holds when the cell ran one command (`codex_cell_answers` reads records and answers); that one
command still running when the cell answers (a `session_id`, no `exit_code`) has its run made
when it ends, from the host's record of its session or a later cell's `tools.write_stdin` poll
(`codex_polls`). A cell that runs its command and polls it in the same script answers one
result per poll: they are that command's, every output kept in order (`cell_result`), unless
the cell also polls a session it did not take from a result (`polls_beyond_its_own`).
A command record no cell's source names (its command built at run time, or a literal one run
again in a loop) is a command of the cell awaiting its answer when that cell is the last call
made; else it belongs to no cell: the record of a shell function's call, read from that call
already, or the user's own `!cmd`.

A cell's commands and patches are read as the same commands and patches outside a cell are: a
command that only prints one file (`cat f`, `sed -n '1,120p' f`, `nl -ba f`) is a read of that
file (a `read_file` call and, where its output is known, its result), and a
`tools.apply_patch(…)` given its patch as a literal (or a name the cell binds once to one) is an
`apply_patch` call of the files it names, a change of each once the host said it applied (its
`patch_apply_end`, or from 0.171 an `item_completed` `FileChange`) or the cell completed; a
patch only the host's record names (given as a value built at run time) is an `apply_patch`
call of the files that record names. A command that prints several files (`sed -n '40,90p' a;
cat b`) is a call that reads each, as outside a cell, beside its command event; so is one whose
host record reads files among other work (its `parsed_cmd` `read` entries with their `path`).
Each has a call id of its own, the cell's with `#read<n>` (the cell's n-th command) or
`#patch<n>` after it, so that its call and result pair with each other and not with the cell's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from squirrel_core.events import Event, EventType
from squirrel_ingest.parsers.base import (
    PendingTool,
    RecordContext,
    command_event,
    completion_events,
    partial_lines,
    relative_path,
    shell_folder,
)
from squirrel_ingest.parsers.codex_cell_answers import (
    cell_answer,
    cell_completed,
    cell_result,
    command_item,
    host_reads,
    indexed_answers,
)
from squirrel_ingest.parsers.codex_cell_source import (
    CellCommand,
    cell_commands,
    cell_patches,
    cell_polls,
    polls_beyond_its_own,
)
from squirrel_ingest.parsers.kept_values import keep_input
from squirrel_ingest.parsers.patches import patch_paths
from squirrel_ingest.parsers.shell_commands import (
    READ_TOOL,
    read_paths,
    shell_read,
)
from squirrel_ingest.parsers.shell_reports import codex_output

__all__ = [
    "CELL_TOOL",
    "CellCommand",
    "CodeCells",
    "cell_commands",
    "patch_command",
]

#: The tool whose input is a JavaScript cell.
CELL_TOOL: Final = "exec"
#: Most cells awaiting their answer kept between records (and in a cursor).
OPEN_CELLS_LIMIT: Final = 64
_PATCH_TOOL: Final = "apply_patch"
#: The shell tool a cell calls (`tools.exec_command`), named so in a call that only reads files.
_SHELL_TOOL: Final = "exec_command"


@dataclass(slots=True)
class OpenCell:
    """A cell awaiting its answer: its commands the host has not recorded yet, its patches, and
    what the host said of each patch (`patch_apply_end`: applied or not; None before it);
    `seen` counts the commands and patches it has been given ids for (its source's, and those
    only the host's records name), so each new one takes the next ordinal; `mixed`: it runs a
    command and polls a session not taken from its results (`polls_beyond_its_own`), so its
    answer's results may not all be one command's."""

    commands: list[CellCommand] = field(default_factory=list)
    patches: list[str] = field(default_factory=list)
    applied: list[bool | None] = field(default_factory=list)
    seen: int = 0
    mixed: bool = False


@dataclass(frozen=True, slots=True)
class Ran:
    """A cell command with what is known of it: its output and exit code (`known` False when
    neither the host nor the cell's answer said what it printed)."""

    command: CellCommand
    output: str
    exit_code: int | None
    known: bool = True
    #: The files the host says the command printed among other work (`parsed_cmd` reads).
    reads: tuple[str, ...] = ()


class CodeCells:
    """The `exec` cells awaiting their answer, the commands of theirs not yet recorded and the
    patches they apply."""

    def __init__(self) -> None:
        self._open: dict[str, OpenCell] = {}

    def opened(self, call_id: str, source: object, ctx: RecordContext) -> list[Event]:
        """Remembers the commands and patches of a cell (`source` its input); returns the call
        events of its patches."""
        text = source if isinstance(source, str) else ""
        named = cell_commands(text) if text else []
        # `apply_patch <<'PATCH' … PATCH` through the shell tool: a patch, not a command run
        commands = [c for c in named if not patch_command(c.command)]
        patches = (cell_patches(text) if text else []) + [
            c.command for c in named if patch_command(c.command)
        ]
        seen = max(len(named), len(patches))
        mixed = bool(text) and polls_beyond_its_own(text)
        cell = OpenCell(commands, patches, [None] * len(patches), seen, mixed)
        self._open.pop(call_id, None)
        self._open[call_id] = cell
        while len(self._open) > OPEN_CELLS_LIMIT:
            del self._open[next(iter(self._open))]
        return [
            ctx.event(
                EventType.TOOL_CALL,
                {
                    "tool": _PATCH_TOOL,
                    "tool_use_id": f"{call_id}#patch{n}",
                    "input": keep_input({"input": patch}),
                },
                _patch_files(patch, ctx.cwd),
                kept=True,
            )
            for n, patch in enumerate(patches, 1)
        ]

    def poll_session(self, call_id: str, source: object) -> str | None:
        """The session cell `call_id` polls when all it does is poll one session
        (`tools.write_stdin({session_id: N, …})`, no command or patch of its own); else None."""
        cell = self._open.get(call_id)
        polls = cell_polls(source) if isinstance(source, str) else []
        if cell is None or cell.seen or len(polls) != 1:
            return None
        return polls[0]

    def result(self, call_id: str, raw: object) -> tuple[str, int | None, str | None] | None:
        """What the answer `raw` of cell `call_id` says of the one command it awaited
        (`cell_result`): several results printed one after another (a command run and polled
        in the same script) are that command's, unless the cell also polls a session it did not
        take from a result (an earlier command's)."""
        cell = self._open.get(call_id)
        return cell_result(raw, chained=cell is not None and not cell.mixed)

    def still_running(
        self, call_id: str, result: tuple[str, int | None, str | None] | None, cwd: str | None
    ) -> tuple[str, str | None, str, str] | None:
        """When cell `call_id` ran one command, which the host has not recorded, and its answer
        (`result`, `cell_result`) says it still runs (a `session_id`, no `exit_code`): the
        command, its folder, its session and what it printed so far, the command taken from the
        cell (its run is made once it ends, `codex_polls`). None otherwise, and for a command
        that reads files (read as before, from the cell's answer)."""
        cell = self._open.get(call_id)
        if cell is None or result is None or result[1] is not None or result[2] is None:
            return None
        if cell.patches or cell.seen != 1 or len(cell.commands) != 1:
            return None
        command = cell.commands[0]
        folder = shell_folder(command.workdir, cwd)
        if shell_read(command.command) is not None or read_paths(
            command.command, folder or cwd, cwd
        ):
            return None
        cell.commands.clear()
        return command.command, folder, result[2], result[0]

    def ran(self, command: str) -> tuple[str, CellCommand] | None:
        """The call id of the open cell `command` is one of, and that command, recorded by the
        host (so it is not read again from the cell's answer); None when it is no open cell's."""
        for call_id, cell in self._open.items():
            for index, known in enumerate(cell.commands):
                if known.command == command.strip():
                    del cell.commands[index]
                    return call_id, known
        return None

    def patch_ended(self, payload: dict[str, Any], cwd: str | None) -> bool:
        """Takes what the host says of a patch it applied for the open cell's patch of the files
        it changed: a `patch_apply_end` (`success`) or (0.171) an `item_completed` `FileChange`
        (`status`); whether it was one."""
        found = _host_patch(payload, cwd)
        return found is not None and self._patch_applied(*found, cwd)

    def _patch_applied(self, changed: set[str], success: bool, cwd: str | None) -> bool:
        """Marks the open cell's patch of exactly the files `changed` as applied or not; whether
        there was one not yet marked."""
        for cell in self._open.values():
            for index, patch in enumerate(cell.patches):
                if cell.applied[index] is None and set(_patch_files(patch, cwd)) == changed:
                    cell.applied[index] = success
                    return True
        return False

    def patch_only_recorded(
        self, payload: dict[str, Any], ctx: RecordContext, cell_id: str | None
    ) -> list[Event] | None:
        """The events of a patch the host applied for the cell `cell_id` (the call awaiting its
        answer) that its source does not show (built at run time): an `apply_patch` call of the
        files the host names and, when it applied, their changes. None when there is no such
        cell or the record names no change."""
        cell = self._open.get(cell_id) if cell_id else None
        found = _host_patch(payload, ctx.cwd)
        if cell is None or cell_id is None or found is None or not found[0]:
            return None
        changed, success = found
        given = {"changes": payload.get("changes")}
        paths = tuple(sorted(changed))
        return _adopted_patch(ctx, cell_id, cell, paths, applied=success, given=given)

    def closed(self, call_id: str, raw: object) -> list[Ran]:
        """The cell's commands the host did not record, with what its answer (`raw`) says: the
        output and exit code when it ran one command or numbered each result, nothing more
        otherwise."""
        cell = self._open.get(call_id)
        left = cell.commands if cell else []
        numbered = (
            indexed_answers(raw, len(left))
            if cell is not None and not cell.patches and len(left) == cell.seen
            else None
        )
        if numbered is not None:
            # Several commands awaited at once, none recorded by the host: the answer's
            # results, numbered in the order the source writes the commands.
            return [
                Ran(command, output, code)
                for command, (output, code) in zip(left, numbered, strict=True)
            ]
        if len(left) != 1:
            return [Ran(command, "", None, known=False) for command in left]
        polled = self.result(call_id, raw) if cell is not None and cell.seen == 1 else None
        if polled is not None and polled[1] is not None:
            # run and polled to its end in the script: every result's output, in order
            return [Ran(left[0], polled[0], polled[1])]
        output, exit_code = cell_answer(raw)
        return [Ran(left[0], output, exit_code)]

    def answered(
        self, ctx: RecordContext, call_id: str | None, raw: object, cwd: str | None
    ) -> list[Event]:
        """The events of a cell's commands the host did not record, from its answer, and the
        results of its patches."""
        if call_id is None:
            return []
        events: list[Event] = []
        for ran in self.closed(call_id, raw):
            folder = shell_folder(ran.command.workdir, cwd)
            events += _command_events(ctx, call_id, ran, folder)
        cell = self._open.pop(call_id, None)
        if cell is None:
            return events
        completed = cell_completed(raw)
        for n, (patch, applied) in enumerate(zip(cell.patches, cell.applied, strict=True), 1):
            done = applied if applied is not None else completed
            paths = _patch_files(patch, ctx.cwd)
            events += completion_events(
                ctx,
                f"{call_id}#patch{n}",
                PendingTool(name=_PATCH_TOOL, paths=paths),
                "",
                is_error=not done,
                exit_code=None,
            )
        return events

    def recorded(
        self, item: object, ctx: RecordContext, cell_id: str | None = None
    ) -> list[Event] | None:
        """The events of an `item_completed` `CommandExecution` of an open cell; [] for one of
        no cell (a shell function's call, the user's `!cmd`: read from their own records); None
        for any other item. A command no open cell's source names (built at run time, or run
        again in a loop) is the command of `cell_id`, the cell awaiting its answer when the
        last call made was that cell, under the cell's next ordinal."""
        found = command_item(item)
        if found is None or not isinstance(item, dict):
            return None
        command, output, exit_code, folder = found
        reads = host_reads(item)
        cell = self.ran(command)
        if cell is not None:
            call_id, known = cell
            ran = Ran(known, output, exit_code, reads=reads)
            return _command_events(ctx, call_id, ran, folder)
        changed = set(_patch_files(command, ctx.cwd)) if patch_command(command) else set()
        if changed and self._patch_applied(changed, exit_code == 0, ctx.cwd):
            return []  # the shell's `apply_patch` of an open cell's patch: what it says of it
        adopted = self._open.get(cell_id) if cell_id else None
        if adopted is None or cell_id is None or item.get("source") == "user_shell":
            return []
        if changed:  # the shell's `apply_patch` of a patch no cell's source shows
            paths, given = tuple(sorted(changed)), {"input": command}
            return _adopted_patch(ctx, cell_id, adopted, paths, applied=exit_code == 0, given=given)
        adopted.seen += 1
        known = CellCommand(command.strip(), folder, adopted.seen)
        return _command_events(ctx, cell_id, Ran(known, output, exit_code, reads=reads), folder)

    def ended_read(
        self, ctx: RecordContext, command: str, output: str, exit_code: int | None
    ) -> list[Event] | None:
        """The read events of an open cell's command that only prints one file, ended by an
        `exec_command_end`; None when it is no open cell's (then read as a command) or reads
        nothing (the cell's command, not read again from its answer, is a command event)."""
        cell = self.ran(command)
        if cell is None or shell_read(command) is None:
            return None
        call_id, known = cell
        return _command_events(ctx, call_id, Ran(known, output, exit_code), None)

    def state(self) -> dict[str, Any]:
        return {
            call_id: {
                "commands": [[c.command, c.workdir, c.ordinal] for c in cell.commands],
                "patches": cell.patches,
                "applied": cell.applied,
                "seen": cell.seen,
                "mixed": cell.mixed,
            }
            for call_id, cell in self._open.items()
        }

    def restore(self, state: object) -> None:
        if not isinstance(state, dict):
            return
        for call_id, saved in list(state.items())[-OPEN_CELLS_LIMIT:]:
            if not isinstance(call_id, str):
                continue
            # An older cursor kept only the commands: a list of [command, workdir].
            commands = saved.get("commands") if isinstance(saved, dict) else saved
            patches = saved.get("patches") if isinstance(saved, dict) else None
            applied = saved.get("applied") if isinstance(saved, dict) else None
            cell = OpenCell()
            seen = saved.get("seen") if isinstance(saved, dict) else None
            cell.seen = seen if isinstance(seen, int) and not isinstance(seen, bool) else 0
            cell.mixed = isinstance(saved, dict) and saved.get("mixed") is True
            for c in commands if isinstance(commands, list) else []:
                if isinstance(c, list) and len(c) in (2, 3) and isinstance(c[0], str):
                    workdir = c[1] if isinstance(c[1], str) else None
                    ordinal = c[2] if len(c) == 3 and isinstance(c[2], int) else 0
                    cell.commands.append(CellCommand(c[0], workdir, ordinal))
            if isinstance(patches, list) and all(isinstance(p, str) for p in patches):
                cell.patches = list(patches)
                marks = applied if isinstance(applied, list) else []
                cell.applied = [
                    marks[i] if i < len(marks) and isinstance(marks[i], bool) else None
                    for i in range(len(patches))
                ]
            # An older cursor kept no count: the ordinals its source gave out.
            cell.seen = max(cell.seen, len(cell.commands), len(cell.patches))
            self._open[call_id] = cell


def _command_events(ctx: RecordContext, call_id: str, ran: Ran, folder: str | None) -> list[Event]:
    """What one of a cell's commands yields, as the same command outside a cell does: a read of
    the one file it prints (its call, and its result when its output is known), else a command
    event."""
    read = shell_read(ran.command.command)
    if read is None:
        run = command_event(
            ctx, call_id, ran.command.command, ran.output, exit_code=ran.exit_code, shell_cwd=folder
        )
        reads = read_paths(ran.command.command, folder or ctx.cwd, ctx.cwd) or tuple(
            dict.fromkeys(
                relative_path(shell_folder(path, folder or ctx.cwd) or path, ctx.cwd)
                for path in ran.reads
            )
        )
        if not reads:
            return [run]
        # `sed -n '40,90p' a; cat b`: a read of each file, as the same line outside a cell; or
        # the reads the host's record names in a line that does more
        content = {
            "tool": _SHELL_TOOL,
            "tool_use_id": f"{call_id}#read{ran.command.ordinal}",
            "input": keep_input({"cmd": ran.command.command}),
            "reads": list(reads),
        }
        return [ctx.event(EventType.TOOL_CALL, content, reads, kept=True), run]
    placed = shell_folder(read.path, folder or ctx.cwd) or read.path
    path = relative_path(placed, ctx.cwd)
    use_id = f"{call_id}#read{ran.command.ordinal}"
    arguments = {"file_path": placed, "command": ran.command.command}
    content = {"tool": READ_TOOL, "tool_use_id": use_id, "input": keep_input(arguments)}
    events = [ctx.event(EventType.TOOL_CALL, content, (path,), kept=True)]
    if not ran.known:
        return events
    output = codex_output(ran.output)
    return events + completion_events(
        ctx,
        use_id,
        PendingTool(name=READ_TOOL, paths=(path,)),
        output,
        is_error=ran.exit_code not in (None, 0),
        exit_code=ran.exit_code,
        read_lines=partial_lines(1, len(output.splitlines()), limit=read.line_limit),
    )


def patch_command(command: str) -> bool:
    """Whether a shell command is Codex's `apply_patch` given its patch (`apply_patch <<'PATCH'
    *** Begin Patch … PATCH`, or as its argument) naming the files it changes."""
    return command.lstrip().startswith("apply_patch") and bool(patch_paths(command))


def _adopted_patch(
    ctx: RecordContext,
    cell_id: str,
    cell: OpenCell,
    paths: tuple[str, ...],
    *,
    applied: bool,
    given: dict[str, Any],
) -> list[Event]:
    """An `apply_patch` call of `paths` under the cell's next ordinal, its result, and the
    changes when it `applied`: a patch only the host's record names."""
    cell.seen += 1
    use_id = f"{cell_id}#patch{cell.seen}"
    content = {"tool": _PATCH_TOOL, "tool_use_id": use_id, "input": keep_input(given)}
    call = ctx.event(EventType.TOOL_CALL, content, paths, kept=True)
    pending = PendingTool(name=_PATCH_TOOL, paths=paths)
    done = completion_events(ctx, use_id, pending, "", is_error=not applied, exit_code=None)
    return [call, *done]


def _host_patch(payload: dict[str, Any], cwd: str | None) -> tuple[set[str], bool] | None:
    """(files changed, whether it applied) of the host's record of a patch: a
    `patch_apply_end` (`success`) or (0.171) an `item_completed` `FileChange` (`status`); None
    for a record not in either shape."""
    changes = payload.get("changes")
    success = payload.get("success")
    if payload.get("type") == "FileChange" and isinstance(payload.get("status"), str):
        success = payload["status"] == "completed"
    if not isinstance(changes, dict) or not isinstance(success, bool):
        return None
    return {relative_path(str(path), cwd) for path in changes}, success


def _patch_files(patch: str, cwd: str | None) -> tuple[str, ...]:
    """The files a patch names, as the session names paths."""
    return tuple(relative_path(path, cwd) for path in patch_paths(patch))
