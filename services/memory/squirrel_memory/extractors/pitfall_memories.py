"""Pitfall memories: one per root cause, worded as a lesson (trigger, cause, what fixed it).

`fixes.find_pitfalls` finds each failure and its fix; this module groups them and puts the
text together from the parts `pitfall_wording` says. Folder slips share one memory per folder;
a commit gate's failures, and a checker's own failures of a tool the gate runs, share one;
commands that each passed once run through the same wrapper share one; a lint, format or type
checker's findings share one per tool; anything else shares one per error signature, across
sessions.
"""

from __future__ import annotations

import re

from squirrel_core.commands import classify_command
from squirrel_memory.extractors.commit_gates import gated as _gated
from squirrel_memory.extractors.commit_gates import hook_checks, hooks_checks, is_commit
from squirrel_memory.extractors.evidence import Finding
from squirrel_memory.extractors.evidence.cleared_warnings import is_warning
from squirrel_memory.extractors.pitfall_record import Pitfall, ran_nothing
from squirrel_memory.extractors.pitfall_wording import (
    because,
    fix_said,
    put_before,
    relative,
    shown_error,
)
from squirrel_memory.extractors.pitfalls import (
    fingerprint_key,
)
from squirrel_memory.extractors.refused_calls import refused_by_host
from squirrel_memory.extractors.retries import (
    folder_failed,
    selection,
)
from squirrel_memory.extractors.shown_commands import clip, shown_command, shown_line
from squirrel_memory.extractors.work_in_progress import work_in_progress


def _fix_weight(pitfall: Pitfall) -> float:
    """How much a seen fix teaches: a setup step or the right arguments are reusable; an edit
    after a failing test is often the work itself (a test written first, then the code)."""
    if pitfall.fix in ("setup", "formatter", "variant", "folder", "rewrote"):
        return 0.2
    if pitfall.fix == "claimed":
        return 0.1
    if pitfall.fix != "edit":
        return 0.0
    use = pitfall.failed.use
    if use is not None and use.purpose == "test":
        return 0.05
    return 0.15 if pitfall.named else 0.1


#: Pitfalls whose fix was running from the repository root share one memory per folder.
FOLDER_KEY_PREFIX = "pitfall:shell-folder:"
#: A pitfall whose error was met more than once (two failed runs, in one session or in several):
#: its trigger recurs, so it earns the session start (`views.start_pitfalls`). The word an
#: instruction said again carries too (`promotion.RECURRING_TAG`).
MET_AGAIN_TAG = "recurring"


def _met_again(group: list[Pitfall]) -> str:
    """`MET_AGAIN_TAG` when the group holds more than one failed run, else ""."""
    return MET_AGAIN_TAG if len(group) >= 2 else ""


#: A commit gate's memory: every commit meets its checks again, whichever session commits.
COMMIT_GATE_TAG = "commit-gate"
#: Failures of one gate share one memory: the commit's checks, or one checker's findings.
GATE_KEY_PREFIX = "pitfall:gate:"
_GROUPED_PURPOSES = frozenset({"lint", "typecheck", "format"})
#: Failures that passed once run through the same wrapper (an environment activated, a
#: runner) share one memory: one root cause, however many commands it broke.
WRAPPER_KEY_PREFIX = "pitfall:run-with:"


def _commands(group: list[Pitfall]) -> list[str]:
    return list(dict.fromkeys(p.failed.text.splitlines()[0] for p in group if p.failed.text))


def _unwrap_single_commands(groups: dict[str, list[Pitfall]]) -> None:
    """A wrapper that fixed one command only is that command's own lesson: its pitfalls go
    back under their error signature (the key the same error has everywhere else)."""
    for key in [k for k in groups if k.startswith(WRAPPER_KEY_PREFIX)]:
        if len(_commands(groups[key])) < 2:
            for pitfall in groups.pop(key):
                groups.setdefault(fingerprint_key(pitfall.fingerprint), []).append(pitfall)


def _wrapper_finding(key: str, group: list[Pitfall], root: str) -> Finding | None:
    """One lesson for several commands that each passed once run through the same wrapper
    (None for one command, which `_unwrap_single_commands` leaves to its own lesson)."""
    commands = _commands(group)
    if len(commands) < 2:
        return None
    shown = group[-1]
    wrapper = put_before(shown)
    sessions = {p.failed.run.session_id or "" for p in group}
    seen = f" (seen in {len(sessions)} sessions)" if len(sessions) >= 2 else ""
    names = " and ".join(f"`{shown_command(relative(c, shown, root), 50)}`" for c in commands[:3])
    errors = list(dict.fromkeys(shown_error(p, root) for p in reversed(group)))[:2]
    text = (
        f"Commands here must run as `{wrapper} …`: {names} failed with "
        f"`{'` and with `'.join(errors)}`{seen}{because(shown)}; putting `{wrapper}` before "
        f"them worked (`{shown_command(relative(shown.fix_command, shown, root), 90)}`)."
    )
    importance = 0.65 + 0.05 * min(len(commands) - 2, 2) + 0.08 * min(len(sessions) - 1, 4)
    event_ids = [e for p in group for e in p.event_ids]
    return Finding(
        "pitfall",
        key,
        text,
        tuple(t for t in ("pitfall", "environment", "fix:variant", _met_again(group)) if t),
        round(min(0.9, importance), 3),
        tuple(dict.fromkeys(event_ids[-30:])),
    )


def _group_key(pitfall: Pitfall) -> str:
    """Folder slips share one memory per folder; a commit's failures one per repository part
    (the gate, whichever check failed); a lint, format or type check's failures one per tool
    (one lesson about the checker, not one per file); anything else one per error signature."""
    if pitfall.fix == "folder":
        return FOLDER_KEY_PREFIX + re.sub(r"[^a-z0-9]+", "-", pitfall.fix_command.lower())[:40]
    failed = pitfall.failed
    scope = re.sub(r"[^a-z0-9]+", "-", failed.scope.lower()).strip("-")
    wrapper = put_before(pitfall)
    if wrapper:
        slug = re.sub(r"[^a-z0-9]+", "-", wrapper.lower()).strip("-")[:40]
        return f"{WRAPPER_KEY_PREFIX}{slug}" + (f":{scope}" if scope else "")
    if is_commit(failed) and _gated(failed.run.output):
        return f"{GATE_KEY_PREFIX}commit" + (f":{scope}" if scope else "")
    use = failed.use
    if use is not None and use.purpose in _GROUPED_PURPOSES:
        return f"{GATE_KEY_PREFIX}{use.purpose}:{use.tool}" + (f":{scope}" if scope else "")
    return fingerprint_key(pitfall.fingerprint)


def _most_sessions(group: list[Pitfall]) -> int:
    """In how many sessions the most widespread error of `group` came back."""
    spread: dict[str, set[str]] = {}
    for pitfall in group:
        key = fingerprint_key(pitfall.fingerprint)  # the same error, whatever it names
        spread.setdefault(key, set()).add(pitfall.failed.run.session_id or "")
    return max((len(s) for s in spread.values()), default=0)


def _gate_checks(pitfall: Pitfall) -> list[str]:
    """The checks a commit's hook named, failing or passing, in the failed and passed runs."""
    outputs = [pitfall.failed.run.output]
    if pitfall.passed is not None and is_commit(pitfall.passed):
        outputs.append(pitfall.passed.run.output)
    return [name for output in outputs for name in hook_checks(output)]


def _gate_checks_run(key: str, group: list[Pitfall], shown: Pitfall) -> list[str]:
    """The checks a commit gate's hooks name that the session ran and passed apart between the
    stopped commit and the one that went through (`ruff check --fix`, then the commit)."""
    if not key.startswith(f"{GATE_KEY_PREFIX}commit"):
        return []
    names = " ".join(c for p in group for c in _gate_checks(p)).lower()
    found: list[str] = []
    for _purpose, command in shown.checks_run:
        use = classify_command(command)
        if use is not None and _names_tool(names, use.tool) and command not in found:
            found.append(command)
    return found[:3]


def _names_tool(names: str, tool: str) -> bool:
    """Whether a hook's check names name `tool` (`go vet` as `go vet` or `go-vet`)."""
    spellings = {tool.lower(), tool.lower().replace(" ", "-")}
    return any(re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", names) for t in spellings)


def _fold_into_gates(groups: dict[str, list[Pitfall]]) -> dict[str, list[str]]:
    """Moves a check's own failures (`lint:ruff`) into the commit gate whose hook runs that
    tool (one root cause: the gate), in the same part of the repository. Returns, per gate,
    the commands that passed those checks when run apart, as typed (what gets past it)."""
    passing: dict[str, list[str]] = {}
    gates = [k for k in groups if k.startswith(f"{GATE_KEY_PREFIX}commit")]
    for gate in gates:
        scope = gate.split(":")[3:]
        names = " ".join(c for p in groups[gate] for c in _gate_checks(p)).lower()
        for key in list(groups):
            parts = key.split(":")
            if not key.startswith(GATE_KEY_PREFIX) or key in gates or len(parts) < 4:
                continue
            if parts[4:] != scope or not _names_tool(names, parts[3]):
                continue
            folded = groups.pop(key)
            groups[gate].extend(folded)
            for pitfall in folded:
                run = pitfall.passed or pitfall.failed
                typed = run.text.splitlines()[0] if run.text else ""
                if typed and typed not in passing.setdefault(gate, []):
                    passing[gate].append(typed)
    return {gate: commands[:3] for gate, commands in passing.items()}


def _folder_finding(key: str, group: list[Pitfall], root: str) -> Finding:
    """One lesson for every path that did not resolve because the shell was in a sub-folder."""
    shown = group[-1]
    examples: dict[str, None] = {}
    for pitfall in reversed(group):
        command = pitfall.failed.text.splitlines()[0] if pitfall.failed.text else ""
        error = shown_error(pitfall, root)
        examples.setdefault(f"`{shown_command(relative(command, pitfall, root), 80)}` → `{error}`")
    sessions = {p.failed.run.session_id or "" for p in group}
    seen = f" (seen in {len(sessions)} sessions)" if len(sessions) >= 2 else ""
    text = (
        f"Paths written from the repository root do not resolve while the shell is still in "
        f"`{clip(shown.fix_command, 60)}/` after a `cd`{seen}: run commands from the root "
        f"({'; '.join(list(examples)[:2])})."
    )
    importance = 0.55 + 0.05 * min(len(group) - 1, 3) + 0.08 * min(len(sessions) - 1, 4)
    event_ids = [e for p in group for e in p.event_ids]
    return Finding(
        "pitfall",
        key,
        text,
        tuple(t for t in ("pitfall", "working-directory", "fix:folder", _met_again(group)) if t),
        round(min(0.85, importance), 3),
        tuple(dict.fromkeys(event_ids[-30:])),
    )


def pitfall_findings(pitfalls: list[Pitfall], root: str = "") -> list[Finding]:
    """One pitfall per error signature, across sessions; a fixed occurrence is preferred."""
    groups: dict[str, list[Pitfall]] = {}
    for pitfall in pitfalls:
        groups.setdefault(_group_key(pitfall), []).append(pitfall)
    _unwrap_single_commands(groups)
    direct = _fold_into_gates(groups)
    findings: list[Finding] = []
    for key, group in groups.items():
        if key.startswith(FOLDER_KEY_PREFIX):
            findings.append(_folder_finding(key, group, root))
            continue
        wrapped = _wrapper_finding(key, group, root) if key.startswith(WRAPPER_KEY_PREFIX) else None
        if wrapped is not None:
            findings.append(wrapped)
            continue
        if work_in_progress(group):
            continue  # a test failing while its code was written: the work, not a lesson
        sessions = {p.failed.run.session_id or "" for p in group}
        fixed = [p for p in group if p.fix]
        real_error = not group[0].fingerprint.endswith(": non-zero exit")
        empty = [p for p in group if ran_nothing(p)]
        policy = any(refused_by_host(p.failed) for p in group)
        if not fixed and not empty and not policy and (_most_sessions(group) < 2 or not real_error):
            continue  # a warning needs the same error again in another session
        # A gate's memory speaks of the commit, whichever of its checks was also run apart.
        commits = [p for p in group if is_commit(p.failed)]
        if key.startswith(f"{GATE_KEY_PREFIX}commit") and commits:
            shown = next((p for p in reversed(commits) if p.fix), commits[-1])
        else:
            shown = fixed[-1] if fixed else group[-1]
        # A refused `cd` is part of what failed, and a host's policy refuses the whole line it
        # was given, not one command of it: the command is shown as it was run.
        folder = folder_failed(shown.failed)
        ran = shown.failed.run.command if folder else shown.failed.text
        first = ran.splitlines()[0] if ran else ""
        command = shown_command(relative(first, shown, root), 80)
        if refused_by_host(shown.failed) and not folder:
            whole = " ".join(shown.failed.run.command.split())
            command = shown_line(relative(whole, shown, root), 160)
        subject = f"`{command}`"
        if command.startswith("hook:"):
            subject = f"The `{command[5:]}` hook"
        seen = f" (seen in {len(sessions)} sessions)" if len(sessions) >= 2 else ""
        errors = {fingerprint_key(shown.fingerprint): shown_error(shown, root)}
        for other in reversed(group):  # a gate's other findings, most recent first
            errors.setdefault(fingerprint_key(other.fingerprint), shown_error(other, root))
        error = "` and with `".join(list(errors.values())[:2])
        remedy = fix_said(shown, root) if shown.fix else "no fix was recorded"
        if not shown.fix and refused_by_host(shown.failed):
            remedy = "the host refused it, so it never ran, and no way past it was seen"
        if not shown.fix and ran_nothing(shown):
            # A selection that matched no test teaches by itself: that selection is empty here.
            chosen = " ".join(selection(shown.failed))
            remedy = (
                f"`{chosen}` selects no test in this project"
                if chosen and "`" not in chosen and len(chosen) <= 60
                else "no test was found"
            )
        # The checks a gate runs, passed apart before committing, are what gets past it.
        passed_apart = direct.get(key, []) or _gate_checks_run(key, group, shown)
        before = [f"`{shown_command(relative(c, shown, root), 60)}`" for c in passed_apart]
        if before:
            passing = f"running {', '.join(before)} before committing gets past it"
            remedy = f"{remedy}; {passing}" if shown.fix else passing
        failed_with = "ran no test with" if ran_nothing(shown) else "failed with"
        if is_warning(shown.fingerprint):
            failed_with = "printed"  # it passed with a warning the change then cleared
        # A call the host refused: its output gives the host's reason, and a reply after it
        # speaks of other work.
        why = "" if not shown.fix and refused_by_host(shown.failed) else because(shown, remedy)
        text = f"{subject} {failed_with} `{error}`{seen}{why}; {remedy}."
        if key.startswith(f"{GATE_KEY_PREFIX}commit"):
            checks = list(dict.fromkeys(c for p in group for c in _gate_checks(p)))
            if checks:
                text = f"Commits run checks that must pass first ({', '.join(checks)}): " + text
        elif checks := hooks_checks(shown.failed):
            text = f"Its hooks run checks ({', '.join(checks)}): " + text
        importance = 0.45 + _fix_weight(shown) + 0.08 * min(len(sessions) - 1, 4)
        exception = shown.fingerprint.split(":", 1)[0] if ":" in shown.fingerprint else ""
        use = shown.failed.use
        tags = (
            "pitfall",
            use.tool if use else shown.failed.program,
            exception.lower() if exception.isidentifier() else "",
            f"fix:{shown.fix}" if shown.fix else "fix:unknown",
            _met_again(group),
            # every commit meets the gate again: a standing condition (`views.start_pitfalls`)
            COMMIT_GATE_TAG if key.startswith(f"{GATE_KEY_PREFIX}commit") and commits else "",
        )
        event_ids = [e for p in group for e in p.event_ids]
        findings.append(
            Finding(
                "pitfall",
                key,
                text,
                tuple(t for t in tags if t),
                round(min(0.9, importance), 3),
                tuple(dict.fromkeys(event_ids[-30:])),
                shown.files if shown.fix == "edit" else (),
            )
        )
    return findings
