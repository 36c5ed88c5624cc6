"""A failure found in a session and the fix seen for it (`fixes.find_pitfalls` finds them,
`pitfall_memories` words them), and a file the assistant edited, which may be that fix."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from squirrel_memory.extractors.evidence import Attempt
from squirrel_memory.extractors.pitfalls import nothing_ran

#: How long after a failure a passing attempt still counts as its fix.
FIX_WINDOW = timedelta(minutes=60)

#: How many of the files a fix edited a memory names.
MAX_FILES_SHOWN = 4


@dataclass(frozen=True, slots=True)
class Change:
    """A file edited by the assistant, when and in which session."""

    event_id: str
    timestamp: datetime
    session_id: str | None
    path: str


@dataclass(frozen=True, slots=True)
class Pitfall:
    """One failure, its fingerprint, and the fix seen for it (if any)."""

    failed: Attempt
    fingerprint: str
    passed: Attempt | None = None
    #: "edit", "setup", "formatter", "variant", "folder", "rewrote" or "claimed"
    fix: str | None = None
    fix_command: str = ""
    files: tuple[str, ...] = ()
    named: bool = False
    event_ids: tuple[str, ...] = ()
    causes: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()
    #: Passing checks of another kind between the failure and the pass: (purpose, command).
    checks_run: tuple[tuple[str, str], ...] = ()
    #: A setup fix's earlier step, when two ran in turn (`cmake -S . -B build`, then the
    #: build `fix_command` names).
    setup_before: tuple[str, ...] = ()
    #: The pass is the assistant's report: the rerun's own result is not in the transcript.
    reported: bool = False


def ran_nothing(pitfall: Pitfall) -> bool:
    """Whether the failure is a test run that selected no test at all."""
    use = pitfall.failed.use
    return (
        use is not None and use.purpose == "test" and bool(nothing_ran(pitfall.failed.run.output))
    )
