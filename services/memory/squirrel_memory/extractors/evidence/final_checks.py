"""The checks a session ran to finish its change: the gate of a project seen once.

Without a commit, the quality gate (`routines.quality_gate`) has nothing to anchor on, and the
longest unbroken run of passing checks (`routines.finishing_checks`) breaks on any command in
between (an install, a build, a check that failed and was fixed). What a session does at the
end of its work still shows the gate in any ecosystem: after its last edit, it runs the checks
that must pass (tests, lint, format, type-check) one after another. Those checks, each as its
stable head in the order of their last runs (a formatter and its own check one step), become
the recipe when:

- the session changed a file (a change to finish), and after its last change ran checks of at
  least two purposes at the project root;
- the last run of every such check passed: a check still failing at the end did not let the
  change through, and the session says nothing of the gate;
- a check the project moved on from (another command of its purpose replaced it later,
  `recency.moved_on`, the rule recipes follow) is left out: it is no longer how a change is
  finished.

Of several sessions, the one with the most checks (then the latest) gives the recipe. Beside
the unbroken run, the one naming more kinds of check is kept (the unbroken run on a tie).
"""

from __future__ import annotations

from datetime import datetime

from squirrel_memory.extractors.evidence.attempts import CHECK_PURPOSES, Attempt, Finding
from squirrel_memory.extractors.evidence.command_picks import looks_only, whole_run
from squirrel_memory.extractors.evidence.recency import Passes, moved_on
from squirrel_memory.extractors.evidence.routines import step_shown

#: Steps named at most.
MAX_STEPS = 5
#: Below a gate seen before commits (0.5 and up) and beside the unbroken run's (0.55).
IMPORTANCE = 0.5
KEY = "recipe:verify"


def _root_check(attempt: Attempt) -> bool:
    use = attempt.use
    return (
        use is not None
        and use.purpose in CHECK_PURPOSES
        and not attempt.scope
        and bool(attempt.base)
        and not looks_only(attempt.text)
    )


def _moved_from(found: list[Attempt]) -> set[str]:
    """The root checks (by their head) another command of their purpose replaced later."""
    passes: dict[tuple[str, str], Passes] = {}
    for attempt in found:
        if _root_check(attempt) and attempt.use is not None:
            command = passes.setdefault((attempt.use.purpose, attempt.base), Passes())
            command.add(attempt.run.timestamp, attempt.run.ok, whole=whole_run(attempt))
    moved: set[str] = set()
    for (purpose, base), command in passes.items():
        rivals = ((b, other) for (p, b), other in passes.items() if p == purpose)
        later = moved_on(command, rivals)
        if later is not None and later.replaced:
            moved.add(base)
    return moved


def _session_checks(
    session: list[Attempt], edit_times: list[datetime], moved: set[str]
) -> list[Attempt]:
    """The last run of each root check after the session's last edit, without the checks the
    project moved on from; [] when one failed."""
    start, end = session[0].run.timestamp, session[-1].run.timestamp
    last_edit = max((t for t in edit_times if start <= t <= end), default=None)
    if last_edit is None:
        return []
    last: dict[str, Attempt] = {}
    for attempt in session:
        use = attempt.use
        if use is None or not _root_check(attempt) or attempt.run.timestamp <= last_edit:
            continue
        # A formatter and its check (`zig fmt src`, `zig fmt --check src`) are one step.
        step = f"format:{use.tool}" if use.purpose == "format" else attempt.base
        last.pop(step, None)
        last[step] = attempt
    if any(not a.run.ok for a in last.values()):
        return []
    for base in moved:
        last.pop(base, None)
    purposes = {a.use.purpose for a in last.values() if a.use is not None}
    return list(last.values()) if len(purposes) >= 2 else []


def final_checks(found: list[Attempt], edit_times: list[datetime]) -> Finding | None:
    """The checks run and passed after a session's last edit (module docstring)."""
    by_session: dict[str, list[Attempt]] = {}
    for attempt in found:
        by_session.setdefault(attempt.run.session_id or "", []).append(attempt)
    best: list[Attempt] = []
    moved = _moved_from(found)
    for session in by_session.values():
        checks = _session_checks(session, edit_times, moved)
        if checks and len(checks) >= len(best):
            best = checks
    if not best:
        return None
    steps = list(dict.fromkeys(f"`{step_shown(a)}`" for a in best[:MAX_STEPS]))
    return Finding(
        "recipe",
        KEY,
        f"Before finishing a change: {' → '.join(steps)}.",
        ("recipe", "verify", *dict.fromkeys(a.use.purpose for a in best if a.use)),
        IMPORTANCE,
        tuple(a.run.event_id for a in best[:MAX_STEPS]),
    )


def _purposes(finding: Finding) -> int:
    return len(set(finding.tags) & set(CHECK_PURPOSES))


def wider_gate(streak: Finding | None, final: Finding | None) -> Finding | None:
    """Of the unbroken run of checks and the final checks, the one naming more kinds of check
    (the unbroken run on a tie)."""
    if streak is None or final is None:
        return streak or final
    return final if _purposes(final) > _purposes(streak) else streak
