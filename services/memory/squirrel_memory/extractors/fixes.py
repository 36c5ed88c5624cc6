"""Pitfalls with the fix that actually worked, keyed by error signature across sessions.

A failed command is paired with the next successful attempt at the same intent (`git push`
after `git push`, a test run covering the failed one) in the same session, within
`FIX_WINDOW`. What changed in between is the fix, named for what it was (`fix_attribution`:
files edited, a set-up command, the check's own formatter, the same command run another way);
when nothing seen changed, the assistant's reply before the passing rerun may say what it
changed, naming a file or a flag (`claimed`: an edit made by a subagent, or lost:
`reported_fixes.claimed_change`).

A rerun whose result never reached the transcript passed when the first reply after it says so
plainly (`reported_fixes.reported_pass`): what changed before that reply is the fix, and the
memory says the pass is the assistant's report.

What counts as that command run again, and a failed query that is only a probe: `retries`.
Nothing else is claimed: an identical re-run that passes (flaky) yields no fix. Failures of
the same signature in several sessions merge into one pitfall whose importance grows; one
that recurs with no fix seen is kept as a warning that says no fix was recorded (grouping and
wording: `pitfall_memories`; why it failed: `failure_causes`; the fix's steps said as what
changed: `fix_lessons`; what a pitfall holds: `pitfall_record`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from squirrel_memory.extractors.commit_gates import gated, is_commit
from squirrel_memory.extractors.differences import Edit
from squirrel_memory.extractors.evidence import CHECK_PURPOSES, Attempt
from squirrel_memory.extractors.evidence.cleared_warnings import is_warning
from squirrel_memory.extractors.evidence.state_looks import LOOK_PROGRAMS
from squirrel_memory.extractors.evidence.test_reports import report_line
from squirrel_memory.extractors.failure_causes import failure_causes
from squirrel_memory.extractors.fix_attribution import attribute
from squirrel_memory.extractors.fix_kinds import formatter_for, one_per_run
from squirrel_memory.extractors.fix_lessons import with_lesson
from squirrel_memory.extractors.lessons import Reply
from squirrel_memory.extractors.pitfall_record import FIX_WINDOW, Change, Pitfall
from squirrel_memory.extractors.pitfalls import (
    error_fingerprint,
    first_line,
    normalise_line,
    nothing_ran,
)
from squirrel_memory.extractors.reported_fixes import claimed_fix, reported_rerun
from squirrel_memory.extractors.retries import (
    covers,
    reads_history,
    reselects,
    same_intent,
    warning_line,
)
from squirrel_memory.extractors.script_steps import changed_steps, is_script, narrowed

_CODE_SPAN = re.compile(r"`([^`\n]{2,200})`")
#: An interpreter given code inline (`python -c …`, `node -e …`, `ruby -e …`).
_INLINE_CODE = frozenset({"-c", "-e", "--eval", "-p", "--print", "-r"})


def find_pitfalls(
    found: list[Attempt],
    changes: list[Change],
    said: Sequence[Reply] = (),
    edited: Sequence[Edit] = (),
    lost: Sequence[Attempt] = (),
) -> list[Pitfall]:
    """Every failure with a known outcome, paired with the fix seen for it (or none), with the
    cause the output or the assistant's replies (`said`) give and the edits' content
    (`edited`) when known; `lost` are the runs whose result never came (one the next reply
    says passed is the pass)."""
    results: list[Pitfall] = []
    claimed: set[int] = set()
    # Each step of a script is read alone; of a failed script, only the step that failed is
    # a failure, and none when which one failed cannot be told.
    lines = {a.run.event_id: a.run.command for a in found}
    found, failing = narrowed(found)
    for i, failed in enumerate(found):
        if failed.run.ok is not False or i in claimed or not failed.tokens:
            continue
        step = failing.get(failed.run.event_id, i)
        if step is not None and step != i:
            continue  # another step of the script failed, or none may be blamed
        if failed.program in LOOK_PROGRAMS and failed.program != "git":
            continue  # a search or a listing that found nothing is exploration, not a pitfall
        if reads_history(failed):
            continue
        if (
            len(failed.tokens) > 1
            and failed.tokens[1] in _INLINE_CODE
            and (failed.use is None or failed.use.purpose not in CHECK_PURPOSES)
        ):
            # A one-off script given inline (`python -c …`) is a probe, not a pitfall; a
            # known check given that way (`Rscript -e 'devtools::test()'`) is not.
            continue
        fingerprint = _fingerprint(failed)
        passed_at = None
        # Each try of this failure (the first and its identical retries) and when the next
        # try of the same intent came: the replies in between are about this failure.
        tries: list[tuple[Attempt, datetime | None]] = [(failed, None)]
        for j in range(i + 1, len(found)):
            other = found[j]
            if other.run.session_id != failed.run.session_id:
                break
            if other.run.timestamp - failed.run.timestamp > FIX_WINDOW:
                break
            if same_intent(failed, other) and tries[-1][1] is None:
                tries[-1] = (tries[-1][0], other.run.timestamp)
            if other.run.ok is False and same_intent(failed, other):
                if _fingerprint(other) == fingerprint:
                    claimed.add(j)
                    tries.append((other, None))
                continue
            if other.run.ok and reselects(failed, other):
                passed_at = j  # the selection that matched nothing, corrected
                break
            if other.run.ok and covers(failed, other) and not formatter_for(failed, other):
                # (the formatter a failed format check calls for is its fix, not its pass:
                # `cargo fmt --all` after `cargo fmt --all -- --check`)
                passed_at = j
                break
        seen = found
        reported = None if passed_at is not None else reported_rerun(found, i, tries, said, lost)
        if reported is not None:
            seen, passed_at = reported
        if passed_at is not None and _several_changed(lines, failed, seen[passed_at]):
            passed_at = None  # a re-run that changed several steps tells no one fix
        causes, cited = failure_causes(failed, said, tries, edited, passed_at is not None)
        if passed_at is None:
            ids = (failed.run.event_id, *cited)
            results.append(Pitfall(failed, fingerprint, event_ids=ids, causes=causes))
            continue
        advised = _quoted(said, cited)
        last_try = tries[-1][0].run.timestamp
        told = max((r.timestamp for r in said if r.event_id in cited), default=None)
        pitfall = attribute(
            seen,
            i,
            passed_at,
            changes,
            fingerprint,
            advised=advised,
            last_try=last_try,
            diagnosed_at=told,
            whole=lines.get(seen[passed_at].run.event_id, ""),
        )
        if reported is not None:
            if pitfall.fix is None:
                # Nothing changed before the reported pass: no lesson, and no pass either.
                results.append(Pitfall(failed, fingerprint, event_ids=(failed.run.event_id,)))
                continue
            pitfall = replace(pitfall, reported=True)
        elif pitfall.fix is None:
            pitfall = claimed_fix(pitfall, found[passed_at], said, last_try)
        pitfall = replace(pitfall, event_ids=(*pitfall.event_ids, *cited))
        # An edit before a later try that failed the same way did not fix it.
        results.append(with_lesson(pitfall, causes, edited, tries[-1][0].run.timestamp))
    # A script whose failing step nothing told: only a fix tied to one of its steps counts.
    results = [
        p
        for p in results
        if failing.get(p.failed.run.event_id, 0) is not None or (p.fix and _tied_to_step(p))
    ]
    return one_per_run(_first_variant_tries(results))


def _several_changed(lines: dict[str, str], failed: Attempt, passed: Attempt) -> bool:
    """Whether the passing script changed more than one step of the failed one, up to the
    step that failed."""
    before, after = lines[failed.run.event_id], lines.get(passed.run.event_id, "")
    if before == after or not (is_script(before) or is_script(after)):
        return False
    return changed_steps(before, after, failed.run.output) > 1


def _tied_to_step(pitfall: Pitfall) -> bool:
    """Whether a fix says which step of a script failed when nothing else did: the check's own
    formatter ran, the files the error names were edited, a commit's hooks reported, or it is
    a warning a passing run printed."""
    failed = pitfall.failed
    return (
        pitfall.fix == "formatter"
        or (pitfall.fix == "edit" and pitfall.named)
        # (a warning a passing run printed: the compiling step's, `one_per_run` says which)
        or is_warning(pitfall.fingerprint)
        or (is_commit(failed) and gated(failed.run.output))
    )


def _first_variant_tries(found: list[Pitfall]) -> list[Pitfall]:
    """Of tries of one command that failed in turn with other errors until a variant passed
    (`deno test`, then `deno test --allow-net` with another error, then both flags), the first:
    one lesson from the command as first typed to the one that passed, not one per error."""
    last: dict[tuple[str, tuple[str, ...]], Pitfall] = {}
    for pitfall in found:
        if pitfall.fix == "variant" and pitfall.passed is not None:
            last.setdefault((pitfall.passed.run.event_id, pitfall.failed.intent), pitfall)
    return [
        p
        for p in found
        if p.fix != "variant"
        or p.passed is None
        or last[(p.passed.run.event_id, p.failed.intent)] is p
    ]


def _fingerprint(failed: Attempt) -> str:
    """The error's fingerprint; without an error-looking line, a test runner's summary, else
    the first line printed; without output, the command's head and `non-zero exit`. A run that
    selected no test at all is known by the line that says so, when no error line explains
    it."""
    found = error_fingerprint(failed.run.output)
    if found:
        return found
    empty = nothing_ran(failed.run.output)
    if empty:
        return normalise_line(empty)
    # A run that passed with a warning an edit then cleared (`cleared_warnings`) is known by
    # that warning, not by its passing summary.
    warning = warning_line(failed.run.output)
    if warning:
        return normalise_line(warning)
    # A test runner's progress (`..F`, `Run options: --seed 4242`) is not what failed; its
    # summary (`5 examples, 1 failure`) says it.
    report = report_line(failed.run.output)
    if report:
        return normalise_line(report)
    first = first_line(failed.run.output)
    if first:
        return normalise_line(first)
    return f"{failed.base or failed.text[:60]}: non-zero exit"


def _quoted(said: Sequence[Reply], cited: Sequence[str]) -> frozenset[str]:
    """The code spans of the replies `cited` as explaining a failure."""
    ids = set(cited)
    return frozenset(
        span.strip() for r in said if r.event_id in ids for span in _CODE_SPAN.findall(r.text)
    )
