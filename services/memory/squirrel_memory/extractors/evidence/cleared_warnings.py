"""A warning an edit made go away: the run that printed it is read as the failure it taught.

A build or check that passes with a warning (`warning: function `current_year` is never
used`, `src/io.c:3:5: warning: unused variable 'n'`) exits 0, so no rule for failures sees
it; yet when the session then edits a file and the same command, run again, passes without
that warning, the session met a problem and fixed it, as with a failure. Such a run counts as
failed, so the lesson rules name the warning and the change that cleared it, worded as what
was printed rather than as a failure. The same in every ecosystem, by the warning's shape:
a line that opens with `warning:` (`warning[code]:`), or with a file's `path:line:col:`
before it. The next run of the same command may run more around it (`cargo test` then `cargo
fmt && cargo test && make e2e`): a later run that runs every command the first did is its
rerun. A warning the next run still prints, a next run that failed or came without an
edit in between, another session's run and a command that only shows data (`cat build.log`)
change nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime

from squirrel_memory.extractors.activity import CommandRun, normalize_command, split_segments
from squirrel_memory.extractors.evidence.piped_runs import shows_data

#: A tool's warning line: `warning: …`, `warning[E0001]: …`, `src/x.c:3:5: warning: …`.
_WARNING = re.compile(
    r"^[ \t]*(?:[\w./\\-]+:\d+(?::\d+)?:\s*)?warning(?:\[[\w-]+\])?:\s+(?P<text>\S.*?)\s*$",
    re.IGNORECASE | re.MULTILINE,
)
#: A tool's tally of its warnings (`app (bin "app") generated 1 warning`): no warning itself.
_TALLY = re.compile(r"\bgenerated \d+ warnings?\b")


def warnings_of(output: str) -> list[str]:
    """The warnings a run printed, each as its text after `warning:` (tallies left out)."""
    return [
        m.group("text") for m in _WARNING.finditer(output) if not _TALLY.search(m.group("text"))
    ]


def is_warning(line: str) -> bool:
    """Whether an output line is a tool's warning (not an error)."""
    return bool(_WARNING.match(line))


def with_cleared_warnings(
    runs: list[CommandRun], edit_times: Sequence[datetime]
) -> list[CommandRun]:
    """`runs` with each passing run marked as failed whose warning the next run of the same
    command in its session, after an edit, no longer printed while passing."""
    marked = list(runs)
    for i, run in enumerate(runs):
        if run.ok is not True or shows_data(run.command):
            continue
        printed = warnings_of(run.output)
        if not printed:
            continue
        later = next(
            (r for r in runs[i + 1 :] if r.session_id == run.session_id and _reruns(r, run)),
            None,
        )
        if (
            later is not None
            and later.ok is True
            and any(run.timestamp < t < later.timestamp for t in edit_times)
            and not any(w in later.output for w in printed)
        ):
            marked[i] = dataclasses.replace(run, ok=False)
    return marked


def _reruns(later: CommandRun, run: CommandRun) -> bool:
    """Whether `later` runs `run` again: the same command, or one that runs every command of
    `run` among others."""
    if later.normalized == run.normalized:
        return True
    ran = _commands_of(run)
    return bool(ran) and ran <= _commands_of(later)


def _commands_of(run: CommandRun) -> set[str]:
    return {c for part in split_segments(run.command) if (c := normalize_command(part))}
