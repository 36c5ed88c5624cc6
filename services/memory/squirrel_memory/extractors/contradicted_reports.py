"""A subagent's report the session's own run contradicted.

A subagent's report says how the project is checked ("- **Tests:** `make test`", "`make fmt`
formats it") from what it read in its own context window. When the session then runs a command
the report gives and that command fails, and no later run of it passes ("make: *** No rule to
make target 'test'"), the session's own evidence says the report described something that is
not so (a stale file, another checkout, a guess). The rest of that report comes from the same
reading, so none of it is kept: neither its other commands (`delegated_commands`) nor its
statements about the code (`report_statements`). A command the report gives that the session
ran and saw pass confirms it; one the session never ran says nothing either way.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import CommandRun

#: A code span of a report: a command it gives.
_SPAN = re.compile(r"`([^`\n]{2,160})`")


def _plain(command: str) -> str:
    return " ".join(command.split())


def failed_last(runs: list[CommandRun]) -> set[str]:
    """The commands (whitespace made single) whose last run in `runs` (in order) failed."""
    last: dict[str, bool | None] = {}
    for run in runs:
        last[_plain(run.command)] = run.ok
    return {command for command, ok in last.items() if ok is False}


def contradicted(report: str, failed: set[str]) -> bool:
    """Whether `report` gives, as a code span, a command whose last run failed (`failed`)."""
    return any(_plain(span) in failed for span in _SPAN.findall(report))
