"""The steps of a fix said as what changed: the edit between the last failed try and the pass
whose content relates to the error or its causes (said as the difference it made), else the only
edit between them when it is small and of code or configuration, the change at
the line the error quoted, the file an edit too large to quote changed, and a check the causes
name (`with_lesson`, for `fixes.find_pitfalls`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from squirrel_memory.code_files import path_ecosystem
from squirrel_memory.extractors.differences import (
    Edit,
    difference,
    naming_edit,
    naming_lines,
    related_edit,
    telling,
)
from squirrel_memory.extractors.fix_kinds import configuration_file
from squirrel_memory.extractors.pitfall_record import Pitfall
from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.extractors.pointed_edits import pointed_change
from squirrel_memory.extractors.shown_commands import shown_command

#: Words a diagnosis uses for each kind of check that can change files (a formatter, a linter
#: that fixes); a test run or a type check only reports, so it is never a step of a fix.
_CHECK_WORDS = {"format": ("format",), "lint": ("lint",)}


def with_lesson(
    pitfall: Pitfall, causes: tuple[str, ...], edited: Sequence[Edit], last_try: datetime
) -> Pitfall:
    """`pitfall` with its causes and, for an edit made after the `last_try` that failed, the
    change whose content relates to the error or the causes (said as the difference it made)
    named first."""
    steps: tuple[str, ...] = ()
    # A check the causes name (a formatter run after "failing on formatting checks") is a step
    # of the fix.
    said = " ".join(causes).lower()
    named_checks = tuple(
        f"running `{shown_command(text, 90)}`"
        for purpose, text in pitfall.checks_run
        if any(w in said for w in _CHECK_WORDS.get(purpose, ()))
    )[:1]
    if pitfall.passed is not None and pitfall.fix in ("edit", "setup"):
        start, end = last_try, pitfall.passed.run.timestamp
        window = [
            e
            for e in edited
            if e.session_id == pitfall.failed.run.session_id and start <= e.timestamp <= end
        ]
        # The error line as printed too: normalising put `<path>` for what it named
        # (`openssl/ssl.h`), which a fix declares.
        error = first_error_line(pitfall.failed.run.output)
        words = telling(" ".join((pitfall.fingerprint, error, *causes)))
        related = related_edit(window, words)
        if (
            related is None
            and len(window) == 1
            and set(pitfall.files) <= {window[0].path}
            and (configuration_file(window[0].path) or path_ecosystem(window[0].path))
        ):
            # The one change between the failure and the pass, small enough to quote (a line or
            # two of a tool's or the build's configuration, or of code; never prose): what it
            # changed is the fix, whatever words it shares with the error.
            related = window[0] if difference(window[0]) else None
        # A small related edit, said whole; else the change at the line the error quoted,
        # said exactly even in a large edit.
        quoted = (
            (related, difference(related))
            if related is not None
            else pointed_change(window, pitfall.failed.run.output)
        )
        if quoted is None and pitfall.fix == "edit":
            # A build or tool configuration rewritten: the lines it added naming the error.
            configs = [e for e in window if configuration_file(e.path)]
            quoted = naming_lines(configs, telling(error))
        large = naming_edit(window, words) if quoted is None else None
        if large is not None:
            # Too large to quote, but its lines name what failed: the file it changed is the fix.
            change = f"editing {large.path}"
            steps = (change, f"running `{shown_command(pitfall.fix_command, 90)}`")
            if pitfall.fix == "edit":
                steps = (*named_checks, change)
                pitfall = replace(pitfall, files=(large.path,), named=False)
            pitfall = replace(pitfall, event_ids=(*pitfall.event_ids, large.event_id))
        if quoted is not None:
            edit, change = quoted[0], f"{quoted[1]} in {quoted[0].path}"
            steps = (f"running `{shown_command(pitfall.fix_command, 90)}`", change)
            if pitfall.fix == "edit":
                steps = (*named_checks, change)
                # The memory's files are the one the fix changed, not the one the error named.
                pitfall = replace(pitfall, files=(edit.path,), named=False)
            pitfall = replace(pitfall, event_ids=(*pitfall.event_ids, edit.event_id))
    return replace(pitfall, causes=causes, steps=steps)
