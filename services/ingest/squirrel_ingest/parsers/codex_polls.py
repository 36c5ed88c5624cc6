"""Codex commands still running in a session of their own, polled with `write_stdin`.

A long command's `exec_command` answers `Process running with session ID N`; the model then
polls that session with `write_stdin` (`{"session_id": N, "chars": ""}`), each answer holding
what the command printed since the last one, and the last, once it has ended, `Process exited
with code K`. The command's `exec_command_end` says the same, but a rollout may not hold it (a
cut transcript, a version that does not write it): then the poll that states the exit code is
the command's run, its output what the polls printed. A poll that states no exit code in its
header (before `Output:`; what the command printed may say anything), or one of a session no
running command opened, settles nothing: a run is never made up.

A code-mode cell (`codex_exec`) does the same inside JavaScript: its `tools.exec_command` result
is JSON with a `session_id` and no `exit_code` while the command runs, and a later cell's
`tools.write_stdin({session_id: N})` result holds the `exit_code` once it has ended; the poll
that states it is the command's run. The host's own record of the command (an `item_completed`
`CommandExecution` or an `exec_command_end` whose `process_id` is the session) is its run when
it comes first; whichever comes first makes the one run, and the session is then remembered as
ended, so that the other is not read as a second run.
"""

from __future__ import annotations

import re
from typing import Any, Final

from squirrel_ingest.parsers.kept_values import TEXT_LIMIT
from squirrel_ingest.parsers.shell_reports import codex_exit_code, codex_output

#: The tool a model polls a running command's session with.
POLL_TOOL: Final = "write_stdin"
#: The most running sessions (and polls awaiting their answer) kept; the oldest go first.
SESSION_LIMIT: Final = 32

_SESSION = re.compile(r"Process running with session ID (\d{1,12})\b")


class CodexPolls:
    """Which command runs in which session, what its polls printed, and which session each
    poll awaiting its answer asked about."""

    def __init__(self) -> None:
        self._sessions: dict[str, str] = {}
        """Session id -> the call id of the command running in it."""
        self._printed: dict[str, str] = {}
        """The call id of a running command -> what it printed so far (its tail)."""
        self._polls: dict[str, str] = {}
        """The call id of a `write_stdin` awaiting its answer -> the session it polls."""
        self._ended: dict[str, str] = {}
        """A session whose command's run was made -> that command's call id."""

    def started(self, call_id: str, report: str) -> None:
        """A command's answer said it still runs: its session (when named) is remembered, with
        what it printed so far."""
        match = _SESSION.search(report[:2_000])
        if match is not None:
            self.opened(call_id, match.group(1), codex_output(report))

    def opened(self, call_id: str, session: str, printed: str) -> None:
        """Command `call_id` runs on in `session`, having printed `printed` so far."""
        self._ended.pop(session, None)
        _keep(self._sessions, session, call_id)
        _keep(self._printed, call_id, _tail(printed))
        for stale in [c for c in self._printed if c not in self._sessions.values()]:
            del self._printed[stale]

    def polled(self, call_id: str, arguments: dict[str, Any]) -> None:
        """A `write_stdin` call: the session it polls, until its answer."""
        session = arguments.get("session_id")
        if isinstance(session, bool) or not isinstance(session, int | str):
            return
        if str(session).isdigit():
            _keep(self._polls, call_id, str(session))

    def answered(self, call_id: str, report: str) -> tuple[str, str, int] | None:
        """The answer of poll `call_id`: (the command's call id, what it printed, its exit code)
        when the answer says the command exited; else None (what it printed is kept)."""
        session = self._polls.pop(call_id, None)
        command = self._sessions.get(session) if session is not None else None
        if session is None or command is None:
            return None
        printed = self._printed.get(command, "")
        chunk = codex_output(report)
        printed = _tail(f"{printed}\n{chunk}" if printed and chunk else printed or chunk)
        # Only the header before `Output:` speaks for the host: the command may print anything.
        header = report.split("\nOutput:", 1)[0]
        code = None if _SESSION.search(header) else codex_exit_code(header)
        return self._settled(command, printed, code)

    def cell_answered(
        self, call_id: str, chunk: str, code: int | None, session: str | None
    ) -> tuple[str, str, int] | None:
        """The answer of a cell's poll `call_id`, read from its JSON result (what the command
        printed since the last poll, the `exit_code` once it ended, the `session_id` while it
        runs): as `answered`; an answer naming another session than the one polled settles
        nothing."""
        polled = self._polls.pop(call_id, None)
        command = self._sessions.get(polled) if polled is not None else None
        if polled is None or command is None or session not in (None, polled):
            return None
        printed = self._printed.get(command, "")
        printed = _tail(f"{printed}\n{chunk}" if printed and chunk else printed or chunk)
        return self._settled(command, printed, None if session else code)

    def _settled(self, command: str, printed: str, code: int | None) -> tuple[str, str, int] | None:
        """The run of `command` when `code` says it exited; else what it printed is kept."""
        if code is None:
            self._printed[command] = printed
            return None
        self.ended(command)
        return command, printed, code

    def ended(self, call_id: str | None) -> None:
        """Command `call_id` ended (its `exec_command_end`, or a poll said so)."""
        if call_id is None:
            return
        for session in [s for s, c in self._sessions.items() if c == call_id]:
            del self._sessions[session]
            _keep(self._ended, session, call_id)
        self._printed.pop(call_id, None)

    def running_in(self, session: str) -> str | None:
        """The call id of the command running in `session`, if one is."""
        return self._sessions.get(session)

    def ended_in(self, session: str) -> str | None:
        """The call id of the command whose run `session` already gave, if one did."""
        return self._ended.get(session)

    def state(self) -> dict[str, Any]:
        """The sessions, what their commands printed and the polls awaiting, for a cursor."""
        return {
            "sessions": dict(self._sessions),
            "printed": dict(self._printed),
            "polls": dict(self._polls),
            "ended": dict(self._ended),
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Take back what `state` returned (unknown shapes are ignored)."""
        for key, target in (
            ("sessions", self._sessions),
            ("printed", self._printed),
            ("polls", self._polls),
            ("ended", self._ended),
        ):
            saved = state.get(key)
            if isinstance(saved, dict):
                for name, value in list(saved.items())[-SESSION_LIMIT:]:
                    if isinstance(name, str) and isinstance(value, str):
                        _keep(target, name, _tail(value))


def _keep(kept: dict[str, str], key: str, value: str) -> None:
    kept.pop(key, None)
    kept[key] = value
    while len(kept) > SESSION_LIMIT:
        del kept[next(iter(kept))]


def _tail(text: str) -> str:
    """The last `TEXT_LIMIT` characters: an event keeps no more, and a command's end says how
    it went."""
    return text[-TEXT_LIMIT:]
