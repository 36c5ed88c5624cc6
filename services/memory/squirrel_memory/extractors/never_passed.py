"""Commands the session ran and that never passed: a documented command the session itself saw
fail on every run (a README's `make test` where the Makefile has no such target, a placeholder
`test` script) is no way to do anything in this project, whatever the file says.

A command counts when the session ran it as written (wrappers and environment aside, in the
project's folder), it failed, and no run of it passed; a command never run, or run with an
unknown outcome, is left alone: the file's word stands where the session shows nothing else.
"""

from __future__ import annotations

from squirrel_memory.extractors.activity import commands, normalize_command
from squirrel_memory.models import StoredEvent


def never_passed(events: list[StoredEvent]) -> set[str]:
    """The normalized commands that failed on every run of the session (at least one)."""
    outcomes: dict[str, set[bool]] = {}
    for run in commands(events):
        if run.ok is None or run.by_user:
            continue
        outcomes.setdefault(run.normalized, set()).add(run.ok)
    return {command for command, seen in outcomes.items() if seen == {False}}


def failed_in_session(command: str, failed: set[str]) -> bool:
    """Whether a documented `command` is one the session saw fail on every run."""
    return bool(failed) and normalize_command(command) in failed
