"""The memories the commands of an episode (or of a whole project) support: recipes, the quality
gate, routines, pitfalls, the package manager and the user's tool habits."""

from __future__ import annotations

from collections.abc import Set
from datetime import datetime

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, relative_path
from squirrel_memory.extractors.candidates import candidate, rule_of
from squirrel_memory.extractors.differences import edits
from squirrel_memory.extractors.disowned_tools import (
    disowned_tools,
    names_tool,
    states_disowned,
)
from squirrel_memory.extractors.elsewhere import ran_elsewhere
from squirrel_memory.extractors.evidence import (
    EVIDENCE_TAG,
    Attempt,
    attempts,
    finishing_checks,
    habits,
    main_ecosystem,
    package_manager_fact,
    quality_gate,
    recipes,
    routine,
    workflows,
)
from squirrel_memory.extractors.evidence.cleared_warnings import with_cleared_warnings
from squirrel_memory.extractors.evidence.final_checks import final_checks, wider_gate
from squirrel_memory.extractors.evidence.git_ways import git_ways
from squirrel_memory.extractors.evidence.piped_runs import with_piped_outcomes
from squirrel_memory.extractors.evidence.reported_tests import reported_test_command
from squirrel_memory.extractors.evidence.test_reports import discovered_tests
from squirrel_memory.extractors.evidence.trackers import task_tracker
from squirrel_memory.extractors.evidence.typed_runs import with_typed_outcomes
from squirrel_memory.extractors.evidence.verified_check import verified_check
from squirrel_memory.extractors.evidence.workflows import covered_by
from squirrel_memory.extractors.fixes import find_pitfalls
from squirrel_memory.extractors.lessons import replies
from squirrel_memory.extractors.manager_language import with_changed_language, worked_files
from squirrel_memory.extractors.pitfall_memories import pitfall_findings
from squirrel_memory.extractors.pitfall_record import Change
from squirrel_memory.extractors.reported_fixes import lost_runs
from squirrel_memory.extractors.seen_manifests import root_manifest_ecosystems
from squirrel_memory.extractors.session_commits import injected_subjects, session_convention
from squirrel_memory.extractors.wording import sentence
from squirrel_memory.extractors.worktrees import worktree_recipe
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent
from squirrel_memory.repository import primary_ecosystems


def evidence_candidates(
    events: list[StoredEvent],
    ecosystems: tuple[str, ...] = (),
    *,
    injected: list[StoredEvent] | None = None,
    disowned: Set[str] | None = None,
) -> list[MemoryCandidate]:
    """Recipes, the quality gate, routines, pitfalls, the package manager and the user's tool
    habits (from commands the user typed, never the assistant's) the commands in `events` support.

    `events` may be one episode or every stored command of a project across sessions (the
    processor's project pass): counts, sessions and recency weigh the same way.
    `ecosystems` are the repository's main ecosystems when known; without them the commands
    and edited files decide. `injected` are the host's injected messages, read for the recent
    commits a command's context listed (`events` when None). `disowned` are the tools the user
    said the project no longer uses (read from `events` when None): no fact or recipe states
    one. The candidates carry no episode id; the caller sets it.
    """
    ordered = sorted(events, key=lambda e: (e.timestamp, e.id))
    if not ordered:
        return []
    root = ordered[0].project_id
    runs = with_piped_outcomes(with_typed_outcomes(commands(ordered), ordered), ordered)
    edited = [e.timestamp for e in ordered if e.event_type == EventType.CODE_CHANGE]
    found = attempts(with_cleared_warnings(runs, edited), root)
    changes = [
        Change(e.id, e.timestamp, e.session_id, path)
        for e in ordered
        if e.event_type == EventType.CODE_CHANGE
        for path in _change_paths(e)
    ]
    edit_times = sorted(c.timestamp for c in changes)
    first_edits: dict[str | None, datetime] = {}
    session_edits: dict[str | None, list[datetime]] = {}
    for change in changes:
        first_edits.setdefault(change.session_id, change.timestamp)
        session_edits.setdefault(change.session_id, []).append(change.timestamp)
    found = discovered_tests(found, edit_times)
    main = ecosystems or _ecosystem_of(found, changes)
    gone = disowned_tools(ordered) if disowned is None else disowned
    # A run naming a disowned tool (a configure with the launcher the user had reverted) is no
    # way of running the project: the recipes weigh the runs left.
    owned = [a for a in found if not names_tool(a.text, gone)] if gone else found
    findings = [
        *recipes(owned, main, first_edits, edit_times),
        *pitfall_findings(
            find_pitfalls(
                found,
                changes,
                replies(ordered),
                edits(ordered),
                lost=attempts(lost_runs(ordered), root),
            ),
            root,
        ),
    ]
    # No run of the test command passed: the runner that ran and reported tests is still it;
    # beside one that passed, another runner that reported its own tests is a second suite.
    tested = [f.content for f in findings if f.key in ("recipe:test", "test_command")]
    reported = reported_test_command(found, main, " ".join(tested))
    if reported is not None:
        findings.append(reported)
    # A check run in a folder outside the project (`cd ../other && npm test`, as a subagent
    # sent to a sibling checkout runs it) is no step of this project's gate.
    here = [a for a in found if not ran_elsewhere(a.run.command, root)]
    gate = (
        quality_gate(here, edit_times)
        or wider_gate(finishing_checks(here), final_checks(here, edit_times))
        or verified_check(here, session_edits, root)
    )
    if gate is not None:
        findings.append(gate)
    done = routine(found, edit_times)
    if done is not None:
        findings.append(done)
    findings.extend(w for w in workflows(found) if done is None or not covered_by(w, done))
    findings.extend(git_ways(found))
    worktree = worktree_recipe(found, root)
    if worktree is not None:
        findings.append(worktree)
    tracker = task_tracker(found, gone, root)
    if tracker is not None:
        findings.append(tracker)
    manager = package_manager_fact(found, root_manifest_ecosystems(ordered))
    if manager is not None:
        # A JavaScript manager names no language: the code the sessions worked on may.
        findings.append(with_changed_language(manager, found, worked_files(ordered)))
    convention = session_convention(
        found, injected_subjects(ordered if injected is None else injected)
    )
    # A read repository's own history says how commits are written (`commits.py`).
    if convention is not None and not ecosystems and not primary_ecosystems(root):
        findings.append(convention)
    kinds = {
        "habit": MemoryType.USER_STYLE,
        "recipe": MemoryType.RECIPE,
        "pitfall": MemoryType.PITFALL,
        "fact": MemoryType.PROJECT_FACT,
    }
    # Habits come only from commands the user typed (the project pass reads no user
    # messages), so they are not evidence: the project pass must not drop them. Nor may it
    # drop what only typed commands show (a test command the user ran with `!`).
    typed = {a.run.event_id for a in found if a.run.by_user}
    tagged = [
        (f, f.tags if f.event_ids and set(f.event_ids) <= typed else (*f.tags, EVIDENCE_TAG))
        for f in findings
    ]
    tagged += [(f, f.tags) for f in habits(found)]
    tagged = [
        (f, tags) for f, tags in tagged if not states_disowned(kinds[f.kind], f.content, gone)
    ]
    return [
        candidate(
            kinds[f.kind],
            f.key,
            sentence(f.content) or f.content,
            tags=tags,
            importance=f.importance,
            event_ids=f.event_ids,
            file_paths=f.file_paths,
            rule=rule_of("command_evidence", f.key.split(":", 1)[0]),
        )
        for f, tags in tagged
    ]


def _ecosystem_of(found: list[Attempt], changes: list[Change]) -> tuple[str, ...]:
    main = main_ecosystem(found, [c.path for c in changes])
    return (main,) if main else ()


def _change_paths(event: StoredEvent) -> list[str]:
    path = event.content.get("path")
    items = [path] if isinstance(path, str) else list(event.file_paths)
    return [relative_path(item, event.project_id) for item in items if item]
