"""The one check a session kept coming back to while it changed the code: its gate when no
other shows.

A short session on a project seen once often verifies its change with a single kind of check:
the tests after a fix, the type checker the user ran and asked to be satisfied. The gate rules
want two kinds (`final_checks`) or commits (`quality_gate`), so such a session says nothing
of how a change is checked. This rule says the little it shows, in any ecosystem, when:

- the session changed a file, and after its last change ran checks of one purpose only (tests,
  lint, format or type-check), at the project root, and the last run of each passed (a pipe
  into a viewer, `| head`, hides whether it did);
- the session used that check as its verification: it ran it twice or more after its first
  change (again as it changed the code, or a narrow run and then the whole one), or the user
  typed it themselves.

A check run once after the only edit, a check that failed at the end, one run in another folder
or repository, and a look-around command are not a gate. Of several sessions, the latest with
the most runs gives it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from squirrel_memory.extractors.activity import in_folder
from squirrel_memory.extractors.evidence.attempts import CHECK_PURPOSES, Attempt, Finding
from squirrel_memory.extractors.evidence.command_picks import picks_tests
from squirrel_memory.extractors.evidence.piped_runs import status_hidden
from squirrel_memory.extractors.evidence.routines import step_shown

#: Below the gate of two kinds of check seen after the last change (0.5).
IMPORTANCE = 0.45
KEY = "recipe:verify"
#: Runs of the check after the session's first change that show it was the verification.
MIN_RUNS = 2


def _inside(attempt: Attempt, root: str) -> bool:
    """Run in the project (a shell in another folder or repository checks something else)."""
    cwd = attempt.run.cwd
    return cwd is None or in_folder(cwd, root)


def _checks(session: list[Attempt], root: str) -> list[Attempt]:
    return [
        a
        for a in session
        if a.use is not None
        and a.use.purpose in CHECK_PURPOSES
        and not a.scope
        and a.base
        and _inside(a, root)
    ]


def _session_check(session: list[Attempt], edits: Sequence[datetime], root: str) -> list[Attempt]:
    """The runs of the session's one verifying check after its first change; [] when none."""
    if not edits:
        return []
    first_edit, last_edit = min(edits), max(edits)
    checks = _checks(session, root)
    after_last = [a for a in checks if a.run.timestamp > last_edit]
    if not after_last or len({a.use.purpose for a in after_last if a.use}) != 1:
        return []
    last: dict[str, Attempt] = {}
    for attempt in after_last:
        last[attempt.base] = attempt
    # A pipe into a viewer or a fallback hides whether the check passed (`lint | head`).
    if len(last) != 1 or not all(
        a.run.ok and not status_hidden(a.run.command) for a in last.values()
    ):
        return []
    base = next(iter(last))
    runs = [a for a in checks if a.base == base and a.run.timestamp > first_edit]
    typed = any(a.run.by_user for a in checks if a.base == base)
    return runs if len(runs) >= MIN_RUNS or typed else []


def shown_command(attempt: Attempt) -> str:
    """The check as the recipe shows it: its stable head, unless that is the program alone and
    the run named an action after its options (`mvn -q test`, `./gradlew --offline check`): a
    bare program says nothing of what to run. A run that picks tests or files keeps the head."""
    words = attempt.text.split()
    if len(attempt.base.split()) != 1 or len(words) < 2 or picks_tests(attempt.text, attempt.base):
        # as typed when it ran the check whole on a short line (`dotnet test --no-restore`)
        return step_shown(attempt)
    action = any(not w.startswith("-") and "/" not in w and "." not in w for w in words[1:])
    return attempt.text if action else attempt.base


def verified_check(
    found: list[Attempt], edits: Mapping[str | None, Sequence[datetime]], root: str
) -> Finding | None:
    """The check a session verified its change with (module docstring); `edits` holds the
    times of each session's changes, `root` is the project's folder."""
    by_session: dict[str, list[Attempt]] = {}
    for attempt in found:
        by_session.setdefault(attempt.run.session_id or "", []).append(attempt)
    best: list[Attempt] = []
    for session in by_session.values():
        runs = _session_check(session, edits.get(session[0].run.session_id, ()), root.rstrip("/"))
        if runs and len(runs) >= len(best):
            best = runs
    if not best:
        return None
    last = best[-1]
    purpose = last.use.purpose if last.use else ""
    return Finding(
        "recipe",
        KEY,
        f"Before finishing a change: `{shown_command(last)}`.",
        ("recipe", "verify", purpose),
        IMPORTANCE,
        tuple(dict.fromkeys(a.run.event_id for a in best)),
    )
