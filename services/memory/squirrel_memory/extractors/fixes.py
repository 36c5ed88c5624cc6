"""Pitfalls with the fix that actually worked, keyed by error signature across sessions.

A failed command is paired with the next successful attempt at the same intent (`git push`
after `git push`, a test run covering the failed one) in the same session, within
`FIX_WINDOW`. What changed in between is the fix, and it is named for what it was:

- `edit`: files were edited (those the error names first);
- `setup`: a setup command ran in between (install, migrate, build, or any other working
  command that is not a look-around);
- `variant`: the same command re-run with changed arguments, nothing else changed.

Nothing else is claimed: an identical re-run that passes (flaky) yields no fix. Failures of
the same signature in several sessions merge into one pitfall whose importance grows; one
that recurs with no fix seen is kept as a warning that says no fix was recorded.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS
from squirrel_memory.extractors.evidence import CHECK_PURPOSES, Attempt, Finding
from squirrel_memory.extractors.evidence.attempts import command_base
from squirrel_memory.extractors.lessons import (
    Edit,
    Reply,
    argument_change,
    diagnosis,
    difference,
    explanation,
    is_progress,
    related_edit,
    telling,
)
from squirrel_memory.extractors.pitfalls import (
    error_fingerprint,
    fingerprint_key,
    first_error_line,
    normalise_line,
)

#: How long after a failure a passing attempt still counts as its fix.
FIX_WINDOW = timedelta(minutes=60)
#: Flags that change only how much a command prints; re-running with them is not a fix.
_OUTPUT_FLAGS = frozenset(
    {"-v", "-vv", "-vvv", "-q", "-qq", "-s", "-x", "--verbose", "--quiet", "--trace", "-l"}
)
_SETUP_PURPOSES = frozenset({"install", "migrate", "build"})
_LOOK_AROUND = frozenset(
    {"ls", "cat", "head", "tail", "grep", "rg", "find", "echo", "pwd", "wc", "sed", "awk", "tree"}
    | {"which", "sleep", "true", "diff", "less", "file", "stat", "jq", "git", "ps", "env"}
)
#: An interpreter given code inline (`python -c …`, `node -e …`, `ruby -e …`).
_INLINE_CODE = frozenset({"-c", "-e", "--eval", "-p", "--print", "-r"})
#: Subcommands and options that only show something (`tool profile list`, `tool --help`).
_LOOK_AROUND_VERBS = frozenset(
    {"list", "ls", "show", "status", "view", "info", "describe", "help", "version", "get"}
    | {"search", "inspect", "doctor", "whoami", "log", "logs", "diff", "print", "env"}
)
MAX_FILES_SHOWN = 4
_BANNER = re.compile(r"^[=_*#~-]{3,}.*$|^\s*$")
#: A heading that introduces what follows ("Options:", "Next steps:"): not what went wrong.
_HEADING = re.compile(r"^[\w ()/-]{1,40}:$")
#: Errors about how a command was called (a wrong path, flag or name): another spelling fixes
#: them, so a re-run of a check with other arguments is their fix.
_USAGE_ERROR = re.compile(
    r"no such file|not found|unrecognized|unknown (?:option|flag|command|argument)|usage:|"
    r"invalid (?:option|argument|choice)|no tests? (?:ran|collected|found)|does not exist",
    re.IGNORECASE,
)


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
    fix: str | None = None  # "edit", "setup", "variant" or "folder"
    fix_command: str = ""
    files: tuple[str, ...] = ()
    named: bool = False
    event_ids: tuple[str, ...] = ()
    causes: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()
    #: Passing checks of another kind between the failure and the pass: (purpose, command).
    checks_run: tuple[tuple[str, str], ...] = ()


def _args(attempt: Attempt) -> list[str]:
    return [t for t in attempt.tokens[1:] if t not in _OUTPUT_FLAGS]


def _covers(failed: Attempt, passed: Attempt) -> bool:
    """Whether a passing attempt retries the failed one: a check must run at least the same
    targets (`pytest` covers `pytest tests/a.py`, `pytest tests/b.py` does not)."""
    if failed.intent != passed.intent:
        return False
    if failed.use is None or failed.use.purpose not in CHECK_PURPOSES:
        return True
    failed_targets = {PurePosixPath(t).name for t in failed.tokens[1:] if not t.startswith("-")}
    passed_targets = {PurePosixPath(t).name for t in passed.tokens[1:] if not t.startswith("-")}
    return passed_targets <= failed_targets


def _is_setup(attempt: Attempt, failed: Attempt) -> bool:
    if not attempt.run.ok or attempt.intent == failed.intent or not attempt.tokens:
        return False
    if attempt.use is not None:
        return attempt.use.purpose in _SETUP_PURPOSES
    words = {t.lstrip("-") for t in attempt.tokens[1:4]}
    # `tool profile list`, `tool --version`: looking around, whatever the program.
    return attempt.program not in _LOOK_AROUND and not words & _LOOK_AROUND_VERBS


def _named_in(path: str, output: str) -> bool:
    name = PurePosixPath(path).name
    return bool(name) and (path in output or f"/{name}" in output or f" {name}" in output)


def find_pitfalls(
    found: list[Attempt],
    changes: list[Change],
    said: Sequence[Reply] = (),
    edited: Sequence[Edit] = (),
) -> list[Pitfall]:
    """Every failure with a known outcome, paired with the fix seen for it (or none), with the
    cause the output or the assistant's replies (`said`) give and the edits' content
    (`edited`) when known."""
    results: list[Pitfall] = []
    claimed: set[int] = set()
    for i, failed in enumerate(found):
        if failed.run.ok is not False or i in claimed or not failed.tokens:
            continue
        if failed.program in _LOOK_AROUND and failed.program != "git":
            continue  # a search or a listing that found nothing is exploration, not a pitfall
        if len(failed.tokens) > 1 and failed.tokens[1] in _INLINE_CODE:
            continue  # a one-off script given inline (`python -c …`) is a probe, not a pitfall
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
            if other.intent == failed.intent and tries[-1][1] is None:
                tries[-1] = (tries[-1][0], other.run.timestamp)
            if other.run.ok is False and other.intent == failed.intent:
                if _fingerprint(other) == fingerprint:
                    claimed.add(j)
                    tries.append((other, None))
                continue
            if other.run.ok and _covers(failed, other):
                passed_at = j
                break
        causes, cited = _causes(failed, said, tries)
        if passed_at is None:
            ids = (failed.run.event_id, *cited)
            results.append(Pitfall(failed, fingerprint, event_ids=ids, causes=causes))
            continue
        pitfall = _attribute(found, i, passed_at, changes, fingerprint)
        pitfall = replace(pitfall, event_ids=(*pitfall.event_ids, *cited))
        results.append(_with_lesson(pitfall, causes, edited))
    return results


#: How long after a failure with no pass the assistant's replies may still explain it.
UNFIXED_WINDOW = timedelta(minutes=10)
MAX_CAUSES = 2


def _causes(
    failed: Attempt, said: Sequence[Reply], tries: list[tuple[Attempt, datetime | None]]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(why the command failed, the replies that said it): the output's own explanation, else
    the assistant's diagnoses in its replies after each try of the failure and before the next
    try of the same command (a short while when none came)."""
    own = explanation(failed.run.output)
    if own:
        quoted = own.replace("`", "'")
        return (f"`{quoted}`",), ()
    found: list[str] = []
    cited: list[str] = []
    for attempt, until in tries:
        start = attempt.run.timestamp
        stop = until or start + UNFIXED_WINDOW
        for reply in said:
            if reply.session_id != attempt.run.session_id or reply.timestamp <= start:
                continue
            if reply.timestamp >= stop:
                break
            text, event_id = diagnosis([reply], reply.session_id, reply.timestamp, None)
            if text and text not in found:
                found.append(text)
                cited.append(event_id)
                break  # one diagnosis per try: the first reply that explains it
    return tuple(found[:MAX_CAUSES]), tuple(cited[:MAX_CAUSES])


def _with_lesson(pitfall: Pitfall, causes: tuple[str, ...], edited: Sequence[Edit]) -> Pitfall:
    """`pitfall` with its causes and, for an edit, the change whose content relates to the
    error or the causes (said as the difference it made) named first."""
    steps: tuple[str, ...] = ()
    # A check the causes name (a formatter run after "failing on formatting checks") is a step
    # of the fix.
    said = " ".join(causes).lower()
    named_checks = tuple(
        f"running `{_command(text, 90)}`"
        for purpose, text in pitfall.checks_run
        if any(w in said for w in _CHECK_WORDS.get(purpose, ()))
    )[:1]
    if pitfall.passed is not None and pitfall.fix in ("edit", "setup"):
        start, end = pitfall.failed.run.timestamp, pitfall.passed.run.timestamp
        window = [
            e
            for e in edited
            if e.session_id == pitfall.failed.run.session_id and start <= e.timestamp <= end
        ]
        words = telling(" ".join((pitfall.fingerprint, *causes)))
        related = related_edit(window, words)
        if related is not None:
            change = f"{difference(related)} in {related.path}"
            steps = (f"running `{_command(pitfall.fix_command, 90)}`", change)
            if pitfall.fix == "edit":
                steps = (*named_checks, change)
                # The memory's files are the one the fix changed, not the one the error named.
                pitfall = replace(pitfall, files=(related.path,), named=False)
            pitfall = replace(pitfall, event_ids=(*pitfall.event_ids, related.event_id))
    return replace(pitfall, causes=causes, steps=steps)


#: Words a diagnosis uses for each kind of check that can change files (a formatter, a linter
#: that fixes); a test run or a type check only reports, so it is never a step of a fix.
_CHECK_WORDS = {"format": ("format",), "lint": ("lint",)}


def _variant_can_fix(failed: Attempt, passed: Attempt, fingerprint: str) -> bool:
    """Other arguments fix any command's failure, except a check's: running other tests or
    files is not a fix, unless the error was about the call itself (a wrong path or flag)."""
    if failed.use is None or failed.use.purpose not in CHECK_PURPOSES:
        return True
    same_targets = [t for t in failed.tokens[1:] if not t.startswith("-")] == [
        t for t in passed.tokens[1:] if not t.startswith("-")
    ]
    return same_targets or bool(_USAGE_ERROR.search(fingerprint))


def _as_typed(command: str) -> str:
    """A whole command line as typed, without an enclosing subshell's parentheses."""
    text = " ".join(command.split())
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text


def _run_differently(failed: Attempt, passed: Attempt, fingerprint: str) -> bool:
    """The passing run wraps the same command differently, and the error was about the call."""
    if failed.run.event_id == passed.run.event_id:
        return False
    before, after = _as_typed(failed.run.command), _as_typed(passed.run.command)
    return before != after and bool(_USAGE_ERROR.search(fingerprint))


def _fingerprint(failed: Attempt) -> str:
    """The error's fingerprint; without an error-looking line, the first line printed; without
    output, the command's head and `non-zero exit`. A run that selected no test at all is
    known by the line that says so, when no error line explains it."""
    found = error_fingerprint(failed.run.output)
    if found:
        return found
    empty = nothing_ran(failed.run.output)
    if empty:
        return normalise_line(empty)
    first = _first_line(failed.run.output)
    if first:
        return normalise_line(first)
    return f"{failed.base or failed.text[:60]}: non-zero exit"


#: A test run that selected nothing, in the words of common runners.
_NOTHING_RAN = re.compile(
    r"\bno tests? (?:ran|run|collected|found|to run|matche[sd]|was executed|were executed)\b|"
    r"\bno test files? found\b|\b0 selected\b|\bno examples? found\b|"
    r"\bno tests? found for given includes\b",
    re.IGNORECASE,
)


def nothing_ran(output: str) -> str:
    """The line of a test run's output that says no test was selected (its banner's rules
    stripped), or "" (also when an error line explains the failure better)."""
    if first_error_line(output):
        return ""
    for raw in output[:MAX_OUTPUT_SCAN_CHARS].splitlines():
        if _NOTHING_RAN.search(raw):
            line = raw.strip().strip("=").strip()
            return re.sub(r"^collecting \.\.\.\s*", "", line, flags=re.IGNORECASE)
    return ""


def _selection(attempt: Attempt) -> list[str]:
    """The arguments that choose what a run covers: those after its stable head (`mix test`,
    `vitest run`), output flags left out."""
    head = set(attempt.base.split())
    words = _args(attempt)
    while words and words[0] in head:
        words = words[1:]
    return words


def _ran_nothing(pitfall: Pitfall) -> bool:
    use = pitfall.failed.use
    return (
        use is not None and use.purpose == "test" and bool(nothing_ran(pitfall.failed.run.output))
    )


def _first_line(output: str) -> str:
    """The first line printed that is not a banner, a rule or the exit status."""
    for raw in output[:MAX_OUTPUT_SCAN_CHARS].splitlines():
        line = raw.strip()
        if (
            line
            and not line.lower().startswith("exit code")
            and not _BANNER.match(line)
            and not is_progress(line)
            and not _HEADING.match(line)
        ):
            return line
    return ""


def _relative(text: str, pitfall: Pitfall, root: str) -> str:
    """`text` with the project's and the session's own folder left out of paths, so a memory
    reads the same on every checkout (`src/app.py`, not `/Users/me/work/app/src/app.py`)."""
    folders = {f.rstrip("/") for f in (root, pitfall.failed.run.cwd or "")}
    for folder in sorted(folders, key=len, reverse=True):
        if len(folder) > 1:
            text = text.replace(folder + "/", "")
    return text


def _shown_error(pitfall: Pitfall, root: str) -> str:
    """The error as printed (project paths made relative), or the fingerprint."""
    output = pitfall.failed.run.output
    line = first_error_line(output) or nothing_ran(output) or _first_line(output)
    line = line or pitfall.fingerprint
    line = re.sub(r"^(?:E\s+|\d{1,2}[.)]\s+)", "", line)
    line = re.sub(r"\s*\[\s*\d{1,3}%\]$", "", line)  # a runner's progress, not the error
    return _clip(_relative(line, pitfall, root).replace("`", "'"), 160)


def _attribute(
    found: list[Attempt], i: int, j: int, changes: list[Change], fingerprint: str
) -> Pitfall:
    failed, passed = found[i], found[j]
    start, end = failed.run.timestamp, passed.run.timestamp
    edits = [
        c
        for c in changes
        if c.session_id == failed.run.session_id
        and start <= c.timestamp <= end
        and not c.path.startswith(("/", "~"))
    ]
    files = tuple(dict.fromkeys(c.path for c in edits))
    named = tuple(f for f in files if _named_in(f, failed.run.output))
    between = [a for a in found[i + 1 : j] if a.run.event_id != failed.run.event_id]
    setup = [a for a in between if _is_setup(a, failed)]
    changed_args = _args(failed) != _args(passed)
    ids = [failed.run.event_id]
    folder = _shell_folder(failed, passed, fingerprint)
    shown: tuple[str, ...]
    if folder:
        # The same file, named from the root in one run and from a sub-folder in the other:
        # the shell was not where the path was written from (a `cd` earlier in the session);
        # an edit in between did not make a missing path resolve.
        fix, shown, command = "folder", (), folder
    elif named:
        fix, shown, command = "edit", named, ""
        ids.extend(c.event_id for c in edits if c.path in named)
    elif setup:
        fix, shown, command = "setup", (), setup[-1].text
        ids.append(setup[-1].run.event_id)
    elif changed_args and not files and _variant_can_fix(failed, passed, fingerprint):
        fix, shown, command = "variant", (), passed.text
    elif files:
        fix, shown, command = "edit", files, ""
        ids.extend(c.event_id for c in edits)
    elif _run_differently(failed, passed, fingerprint):
        # Same command, run another way (an environment activated, a wrapper): that way is
        # the fix for an error about the call itself (`pytest: command not found`).
        fix, shown, command = "variant", (), _as_typed(passed.run.command)
    else:
        return Pitfall(failed, fingerprint, event_ids=(failed.run.event_id,))
    ids.append(passed.run.event_id)
    return Pitfall(
        failed,
        fingerprint,
        passed,
        fix,
        command,
        shown,
        named=bool(named),
        event_ids=tuple(dict.fromkeys(ids)),
        checks_run=tuple(
            dict.fromkeys(
                (a.use.purpose, a.text)
                for a in between
                if a.run.ok
                and a.intent != failed.intent
                and a.use is not None
                and a.use.purpose in CHECK_PURPOSES
                and "\n" not in a.text
            )
        ),
    )


def _shell_folder(failed: Attempt, passed: Attempt, fingerprint: str) -> str:
    """The sub-folder the shell was in when a path written from the project root did not
    resolve ("" when that is not what happened): the passing run names the same file by its
    full path, or relative to that sub-folder, and the error said the file was not found."""
    cwd = (failed.run.cwd or "").rstrip("/")
    if not cwd or not _USAGE_ERROR.search(fingerprint):
        return ""
    before, after = _args(failed), _args(passed)
    if len(before) != len(after):
        return ""
    for old, new in zip(before, after, strict=True):
        if old == new or old.startswith(("-", "/", "~")) or "/" not in old + new:
            continue
        if new.startswith("/") and new.endswith("/" + old):
            base = new[: -len(old) - 1]  # the folder the failed path was written from
            if cwd.startswith(base + "/"):
                return cwd[len(base) + 1 :]
        elif not new.startswith(("/", "~")) and old.endswith("/" + new):
            prefix = old[: -len(new) - 1]  # the sub-folder the shell was already in
            if cwd.endswith("/" + prefix):
                return prefix
    return ""


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


#: An argument longer than this (a prompt, a message) is shown as `'…'` in a long command.
_LONG_ARGUMENT = 24


def _command(text: str, limit: int) -> str:
    """A command as typed, whole when it fits; else with its long free-text arguments shown
    as `'…'` (every program, option and short value kept); else its stable head. Never cut
    in the middle: the flag that mattered may be the last word."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    try:
        words = shlex.split(flat)
    except ValueError:
        words = flat.split()
    short = " ".join(
        "'…'" if len(w) > _LONG_ARGUMENT or (" " in w and len(w) > 8) else w for w in words
    )
    return short if len(short) <= limit else command_base(flat)


def _remedy(pitfall: Pitfall, root: str = "") -> str:
    fix_command = _relative(pitfall.fix_command, pitfall, root)
    if pitfall.steps:
        steps = [_relative(s, pitfall, root) for s in pitfall.steps]
        if len(steps) == 1:
            return f"{steps[0]} fixed it"
        return f"{', then '.join(steps)} got it to pass"
    if pitfall.fix == "variant":
        passed = pitfall.passed
        change = argument_change(pitfall.failed.tokens, passed.tokens) if passed else ""
        if change:
            shown = _relative(passed.text, pitfall, root) if passed else ""
            example = f" (`{shown}`)" if len(shown) <= 90 else ""
            return f"re-running it {change} worked{example}"
        return f"re-running it as `{_command(fix_command, 120)}` worked"
    if pitfall.fix == "setup":
        return f"running `{_command(fix_command, 90)}` first fixed it"
    if pitfall.fix == "folder":
        return (
            f"the shell was still in `{_clip(pitfall.fix_command, 60)}/` after a `cd`, so the "
            "path did not resolve: run it from the repository root"
        )
    shown = ", ".join(pitfall.files[:MAX_FILES_SHOWN])
    more = " …" if len(pitfall.files) > MAX_FILES_SHOWN else ""
    if pitfall.named:
        return f"it passed after editing {shown}{more}, named in the error"
    return f"it passed after editing {shown}{more}"


def _fix_weight(pitfall: Pitfall) -> float:
    """How much a seen fix teaches: a setup step or the right arguments are reusable; an edit
    after a failing test is often the work itself (a test written first, then the code)."""
    if pitfall.fix in ("setup", "variant", "folder"):
        return 0.2
    if pitfall.fix != "edit":
        return 0.0
    use = pitfall.failed.use
    if use is not None and use.purpose == "test":
        return 0.05
    return 0.15 if pitfall.named else 0.1


#: Pitfalls whose fix was running from the repository root share one memory per folder.
FOLDER_KEY_PREFIX = "pitfall:shell-folder:"


#: Failures of one gate share one memory: the commit's checks, or one checker's findings.
GATE_KEY_PREFIX = "pitfall:gate:"
_GROUPED_PURPOSES = frozenset({"lint", "typecheck", "format"})
#: A check a commit hook reports by name: `ruff....Failed` (pre-commit), `✖ eslint --fix`,
#: `[FAILED] tsc --noEmit` (lint-staged), `name: failed` / `name (failed)` (other runners).
_HOOK_CHECK = re.compile(
    r"^\s*(?:(?P<dots>[A-Za-z][\w .:/+()-]{1,48}?)\s*\.{3,}.*?\b(?:Passed|Failed|Skipped)\b|"
    r"(?:[✖✔✓✗×]|\[(?:FAILED|STARTED|COMPLETED|SUCCESS)\])\s+"
    r"(?P<mark>[\w@./:-]+(?: [\w@./:=-]+){0,3}))",
    re.MULTILINE,
)


def _is_commit(attempt: Attempt) -> bool:
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    return attempt.program == "git" and bool(words) and words[0] == "commit"


#: Failures that passed once run through the same wrapper (an environment activated, a
#: runner) share one memory: one root cause, however many commands it broke.
WRAPPER_KEY_PREFIX = "pitfall:run-with:"


def _wrapper(pitfall: Pitfall) -> str:
    """What the passing run put before the same command (`source .venv/bin/activate &&`,
    `uv run`, `bundle exec`), or ""."""
    if pitfall.fix != "variant" or pitfall.passed is None:
        return ""
    before, after = _as_typed(pitfall.failed.run.command), pitfall.fix_command
    if before == after or not after.endswith(" " + before):
        return ""
    prefix = after[: -len(before)].strip()
    return prefix if 0 < len(prefix) <= 60 and "`" not in prefix else ""


def _wrapper_finding(key: str, group: list[Pitfall], root: str) -> Finding | None:
    """One lesson for several commands that each passed once run through the same wrapper
    (None for one command: its own lesson says it)."""
    commands = list(dict.fromkeys(p.failed.text.splitlines()[0] for p in group if p.failed.text))
    if len(commands) < 2:
        return None
    shown = group[-1]
    wrapper = _wrapper(shown)
    sessions = {p.failed.run.session_id or "" for p in group}
    seen = f" (seen in {len(sessions)} sessions)" if len(sessions) >= 2 else ""
    names = " and ".join(f"`{_command(_relative(c, shown, root), 50)}`" for c in commands[:3])
    errors = list(dict.fromkeys(_shown_error(p, root) for p in reversed(group)))[:2]
    text = (
        f"Commands here must run as `{wrapper} …`: {names} failed with "
        f"`{'` and with `'.join(errors)}`{seen}{_because(shown)}; putting `{wrapper}` before "
        f"them worked (`{_command(_relative(shown.fix_command, shown, root), 90)}`)."
    )
    importance = 0.65 + 0.05 * min(len(commands) - 2, 2) + 0.08 * min(len(sessions) - 1, 4)
    event_ids = [e for p in group for e in p.event_ids]
    return Finding(
        "pitfall",
        key,
        text,
        ("pitfall", "environment", "fix:variant"),
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
    wrapper = _wrapper(pitfall)
    if wrapper:
        slug = re.sub(r"[^a-z0-9]+", "-", wrapper.lower()).strip("-")[:40]
        return f"{WRAPPER_KEY_PREFIX}{slug}" + (f":{scope}" if scope else "")
    if _is_commit(failed) and _gated(failed.run.output):
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
    if pitfall.passed is not None and _is_commit(pitfall.passed):
        outputs.append(pitfall.passed.run.output)
    return [name for output in outputs for name in hook_checks(output)]


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


_HOOK_WORD = re.compile(r"\bhooks?\b", re.IGNORECASE)


def _gated(output: str) -> bool:
    """Whether a commit's output shows hooks running checks (not "nothing to commit")."""
    return bool(hook_checks(output)) or bool(_HOOK_WORD.search(output[:MAX_OUTPUT_SCAN_CHARS]))


def hook_checks(output: str) -> list[str]:
    """The checks a commit hook's output reports by name, in order (none when it names none)."""
    names: dict[str, None] = {}
    for match in _HOOK_CHECK.finditer(output[:MAX_OUTPUT_SCAN_CHARS]):
        name = (match.group("dots") or match.group("mark") or "").strip(" .")
        if name and "`" not in name:
            names.setdefault(name)
    return list(names)[:6]


def _because(pitfall: Pitfall) -> str:
    """ "; <why>" from the causes found for a failure, or ""."""
    if not pitfall.causes:
        return ""
    first, *rest = pitfall.causes
    if first.startswith("`"):
        return f"; the output explains {first}"
    said = "; then ".join(_lowered(c) for c in (first, *rest))
    return f"; the assistant found: {said}"


def _lowered(text: str) -> str:
    """A sentence's first letter lowered to run on after a colon (not a name or an acronym)."""
    if (
        len(text) > 1
        and text[0].isupper()
        and text[1].islower()
        and text.split(maxsplit=1)[0] != "I"
    ):
        return text[0].lower() + text[1:]
    return text


def _folder_finding(key: str, group: list[Pitfall], root: str) -> Finding:
    """One lesson for every path that did not resolve because the shell was in a sub-folder."""
    shown = group[-1]
    examples: dict[str, None] = {}
    for pitfall in reversed(group):
        command = pitfall.failed.text.splitlines()[0] if pitfall.failed.text else ""
        error = _shown_error(pitfall, root)
        examples.setdefault(f"`{_command(_relative(command, pitfall, root), 80)}` → `{error}`")
    sessions = {p.failed.run.session_id or "" for p in group}
    seen = f" (seen in {len(sessions)} sessions)" if len(sessions) >= 2 else ""
    text = (
        f"Paths written from the repository root do not resolve while the shell is still in "
        f"`{_clip(shown.fix_command, 60)}/` after a `cd`{seen}: run commands from the root "
        f"({'; '.join(list(examples)[:2])})."
    )
    importance = 0.55 + 0.05 * min(len(group) - 1, 3) + 0.08 * min(len(sessions) - 1, 4)
    event_ids = [e for p in group for e in p.event_ids]
    return Finding(
        "pitfall",
        key,
        text,
        ("pitfall", "working-directory", "fix:folder"),
        round(min(0.85, importance), 3),
        tuple(dict.fromkeys(event_ids[-30:])),
    )


def pitfall_findings(pitfalls: list[Pitfall], root: str = "") -> list[Finding]:
    """One pitfall per error signature, across sessions; a fixed occurrence is preferred."""
    groups: dict[str, list[Pitfall]] = {}
    for pitfall in pitfalls:
        groups.setdefault(_group_key(pitfall), []).append(pitfall)
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
        sessions = {p.failed.run.session_id or "" for p in group}
        fixed = [p for p in group if p.fix]
        real_error = not group[0].fingerprint.endswith(": non-zero exit")
        empty = [p for p in group if _ran_nothing(p)]
        if not fixed and not empty and (_most_sessions(group) < 2 or not real_error):
            continue  # a warning needs the same error again in another session
        # A gate's memory speaks of the commit, whichever of its checks was also run apart.
        commits = [p for p in group if _is_commit(p.failed)]
        if key.startswith(f"{GATE_KEY_PREFIX}commit") and commits:
            shown = next((p for p in reversed(commits) if p.fix), commits[-1])
        else:
            shown = fixed[-1] if fixed else group[-1]
        first = shown.failed.text.splitlines()[0] if shown.failed.text else ""
        command = _command(_relative(first, shown, root), 80)
        subject = f"`{command}`"
        if command.startswith("hook:"):
            subject = f"The `{command[5:]}` hook"
        seen = f" (seen in {len(sessions)} sessions)" if len(sessions) >= 2 else ""
        errors = {fingerprint_key(shown.fingerprint): _shown_error(shown, root)}
        for other in reversed(group):  # a gate's other findings, most recent first
            errors.setdefault(fingerprint_key(other.fingerprint), _shown_error(other, root))
        error = "` and with `".join(list(errors.values())[:2])
        remedy = _remedy(shown, root) if shown.fix else "no fix was recorded"
        if not shown.fix and _ran_nothing(shown):
            # A selection that matched no test teaches by itself: that selection is empty here.
            selection = " ".join(_selection(shown.failed))
            remedy = (
                f"`{selection}` selects no test in this project"
                if selection and "`" not in selection and len(selection) <= 60
                else "no test was found"
            )
        # The checks a gate runs, passed apart before committing, are what gets past it.
        before = [f"`{_command(_relative(c, shown, root), 60)}`" for c in direct.get(key, [])]
        if before:
            passing = f"running {', '.join(before)} before committing gets past it"
            remedy = f"{remedy}; {passing}" if shown.fix else passing
        failed_with = "ran no test" if _ran_nothing(shown) else "failed"
        text = f"{subject} {failed_with} with `{error}`{seen}{_because(shown)}; {remedy}."
        if key.startswith(f"{GATE_KEY_PREFIX}commit"):
            checks = list(dict.fromkeys(c for p in group for c in _gate_checks(p)))
            if checks:
                text = f"Commits run checks that must pass first ({', '.join(checks)}): " + text
        importance = 0.45 + _fix_weight(shown) + 0.08 * min(len(sessions) - 1, 4)
        exception = shown.fingerprint.split(":", 1)[0] if ":" in shown.fingerprint else ""
        use = shown.failed.use
        tags = (
            "pitfall",
            use.tool if use else shown.failed.program,
            exception.lower() if exception.isidentifier() else "",
            f"fix:{shown.fix}" if shown.fix else "fix:unknown",
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
