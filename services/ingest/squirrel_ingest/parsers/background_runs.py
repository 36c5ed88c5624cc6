"""Claude Code background commands linked to their end: the launch call, then the record that
says the command has ended (a `<task-notification>`, a `BashOutput` or `TaskOutput` result).

A launch is remembered by its call id with its task id (at most `PENDING_LIMIT`); when a later
record says the task ended by itself, the command's run is emitted once, with the launch's
command, paths and folder; a stopped command is forgotten and says nothing. A record of a
status not known here, of a task not launched in this file, or a second record of an ended
task, changes nothing: the launch waits for a record that says how it ended. The records
themselves are read by `background`.
"""

from __future__ import annotations

from dataclasses import replace

from squirrel_core.events import Event
from squirrel_ingest.parsers.background import (
    READ_BACK_TOOLS,
    STOP_TOOLS,
    Outcome,
    launched_task,
    notifications,
    read_back,
)
from squirrel_ingest.parsers.base import PendingTool, RecordContext, command_event, remember


def sent_away(pending: PendingTool, structured: object) -> bool:
    """Whether a shell call's result is its launch in the background: asked for, or a running
    command the user sent there (its result then names the background task too)."""
    moved = isinstance(structured, dict) and bool(structured.get("backgroundTaskId"))
    return pending.background or moved


class BackgroundRuns:
    """The background commands still running (launch call id → the launch, with its task id)."""

    def __init__(self) -> None:
        self.running: dict[str, PendingTool] = {}

    def launched(
        self,
        tool_use_id: str | None,
        pending: PendingTool,
        output: str,
        structured: object,
        ctx: RecordContext,
        *,
        is_error: bool,
    ) -> tuple[PendingTool, list[Event]]:
        """A background command's launch: its outcome comes later (see `background`), so the
        launch result is a tool result and a run without a result. A launch that failed is a
        failed command."""
        if is_error:
            return replace(pending, background=False), []
        task_id = launched_task(output, structured)
        if task_id is not None and tool_use_id is not None:
            remember(self.running, tool_use_id, replace(pending, task_id=task_id))
        run = command_event(
            ctx,
            tool_use_id,
            pending.command or "",
            output,
            exit_code=None,
            paths=pending.paths,
            shell_cwd=pending.cwd,
            background=True,
        )
        return replace(pending, command=None), [run]

    def read_result(
        self, pending: PendingTool, output: str, structured: object, ctx: RecordContext
    ) -> list[Event]:
        """A read-back or stop tool's result: the command's run once it has ended by itself;
        a stopped command is forgotten and says nothing."""
        if pending.name in STOP_TOOLS:
            self._take(pending.task_id, None)
            return []
        if pending.name not in READ_BACK_TOOLS:
            return []
        outcome = read_back(output, structured, pending.task_id)
        return self._ended(outcome, ctx) if outcome is not None else []

    def notified(self, text: str, ctx: RecordContext) -> list[Event]:
        """The runs of the background commands a user-role text says have ended."""
        events: list[Event] = []
        for outcome in notifications(text):
            events.extend(self._ended(outcome, ctx))
        return events

    def _ended(self, outcome: Outcome, ctx: RecordContext) -> list[Event]:
        """The command's `command_run`/`test_run`, the first time its end is known. A status
        that does not say the command is over (`running`, or one not known here) leaves it
        running; a launch restored without its command ends without a run."""
        if not outcome.ended:
            return []
        taken = self._take(outcome.task_id, outcome.tool_use_id)
        if taken is None or not outcome.finished:
            return []
        tool_use_id, launch = taken
        if launch.command is None:
            return []
        failed = outcome.status == "failed" or outcome.exit_code not in (None, 0)
        return [
            command_event(
                ctx,
                tool_use_id,
                launch.command,
                outcome.output,
                exit_code=outcome.exit_code,
                is_error=failed,
                paths=launch.paths,
                shell_cwd=launch.cwd,
            )
        ]

    def _take(self, task_id: str | None, tool_use_id: str | None) -> tuple[str, PendingTool] | None:
        """Forget the running command of this launch call or task id, returning it."""
        if tool_use_id is not None and tool_use_id in self.running:
            return tool_use_id, self.running.pop(tool_use_id)
        for key, tool in self.running.items():
            if task_id is not None and tool.task_id == task_id:
                return key, self.running.pop(key)
        return None
