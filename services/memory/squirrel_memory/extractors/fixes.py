"""Pitfalls with the fix that actually worked, keyed by error signature across sessions.

A failed command is paired with the next successful attempt at the same intent (`git push`
after `git push`, a test run covering the failed one) in the same session, within
`FIX_WINDOW`. What changed in between is the fix, and it is named for what it was:

- `edit`: files were edited (those the error names first);
- `setup`: a setup command ran in between (install, migrate, build, or any other working
  command that is not a look-around: a command that only reports state, `docker ps`, `kubectl
  get`, `terraform plan`, a health URL's `curl`, a dry run, is one, `evidence.state_looks`),
  or a working command the reply explaining the failure
  quoted (`docker compose up -d db`), whatever its purpose;
- `formatter`: a lint or format check's own formatter ran in between (`mix format` after
  `mix format --check-formatted` failed);
- `variant`: the same command re-run with changed arguments, nothing else changed;
- `claimed`: nothing seen changed, but the assistant's reply before the passing rerun says
  what it changed, naming a file or a flag (an edit made by a subagent, or lost:
  `reported_fixes.claimed_change`).

A rerun whose result never reached the transcript passed when the first reply after it says so
plainly (`reported_fixes.reported_pass`): what changed before that reply is the fix, and the
memory says the pass is the assistant's report.

A command the host or the user refused (a permission prompt declined, an auto-mode or sandbox
denial) never ran: nothing run or edited before the next try can have fixed it, so only the
same command run another way (`variant`, its targets kept) is named as its fix (what a
refusal looks like: `refused_calls`).

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
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import split_segments
from squirrel_memory.extractors.commit_gates import gated, is_commit
from squirrel_memory.extractors.differences import Edit
from squirrel_memory.extractors.environment_changes import environment_changed
from squirrel_memory.extractors.evidence import CHECK_PURPOSES, Attempt
from squirrel_memory.extractors.evidence.cleared_warnings import is_warning
from squirrel_memory.extractors.evidence.state_looks import (
    LOOK_PROGRAMS,
    LOOK_VERBS,
    only_reports,
    rehearses,
)
from squirrel_memory.extractors.evidence.test_reports import report_line
from squirrel_memory.extractors.failure_causes import failure_causes
from squirrel_memory.extractors.fix_kinds import (
    configuration_file,
    formatter_for,
    gate_fixer,
    one_per_run,
)
from squirrel_memory.extractors.fix_lessons import with_lesson
from squirrel_memory.extractors.lessons import Reply
from squirrel_memory.extractors.pitfall_record import FIX_WINDOW, Change, Pitfall
from squirrel_memory.extractors.pitfalls import (
    error_fingerprint,
    first_line,
    normalise_line,
    nothing_ran,
)
from squirrel_memory.extractors.refused_calls import refused
from squirrel_memory.extractors.reported_fixes import claimed_fix, reported_rerun
from squirrel_memory.extractors.retries import (
    as_typed,
    covers,
    environment_set,
    option_args,
    reads_history,
    reselects,
    retries,
    run_differently,
    same_intent,
    shell_folder,
    swapped_program,
    typed_options,
    variant_can_fix,
    warning_line,
    wrapper_words,
)
from squirrel_memory.extractors.script_steps import (
    changed_steps,
    is_script,
    made_environment,
    narrowed,
)

_SETUP_PURPOSES = frozenset({"install", "migrate", "build"})
_CODE_SPAN = re.compile(r"`([^`\n]{2,200})`")
#: An interpreter given code inline (`python -c …`, `node -e …`, `ruby -e …`).
_INLINE_CODE = frozenset({"-c", "-e", "--eval", "-p", "--print", "-r"})
#: A run's output saying it rewrote files itself (pre-commit's fixing hooks, a formatter run
#: as a check that fixes as it goes): its next identical run passes.
_REWROTE = re.compile(
    r"files were modified by this hook|^[ \t]*reformatted\s+\S|\b\d+ files? reformatted\b|"
    r"^Fixing\s+\S",
    re.IGNORECASE | re.MULTILINE,
)


def _is_setup(attempt: Attempt, failed: Attempt) -> bool:
    if not attempt.run.ok or same_intent(failed, attempt) or not attempt.tokens:
        return False
    if rehearses(attempt.tokens[1:]):
        return False  # `pip install --dry-run`: nothing installed
    if attempt.use is not None:
        return attempt.use.purpose in _SETUP_PURPOSES
    words = {t.lstrip("-") for t in attempt.tokens[1:4]}
    # `tool profile list`, `tool --version`, `docker ps`, `curl …/health`: looking around,
    # whatever the program.
    return (
        attempt.program not in LOOK_PROGRAMS
        and not words & LOOK_VERBS
        and not only_reports(attempt.program, attempt.tokens[1:])
    )


def _named_in(path: str, output: str) -> bool:
    name = PurePosixPath(path).name
    return bool(name) and (path in output or f"/{name}" in output or f" {name}" in output)


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
        pitfall = _attribute(
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


#: Redirections at a simple command's end (`2>&1`, `> /dev/null`).
_REDIRECTED = re.compile(r"(?:\s+\d?>>?\s*&?\S+)+$")


def _unpiped(line: str) -> str:
    """A line's simple commands joined by `&&`, without the viewers their output was piped
    into or the redirections at their ends: the commands a fix ran, not how it was shown."""
    return " && ".join(_REDIRECTED.sub("", part) for part in split_segments(line))


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


def _advised(attempt: Attempt, failed: Attempt, advised: frozenset[str]) -> bool:
    """Whether `attempt` is a working command the reply explaining the failure told to run
    ("Start it with `docker compose up -d db` first"), whatever its purpose."""
    return (
        bool(attempt.run.ok)
        and bool(attempt.tokens)
        and attempt.text in advised
        and attempt.program not in LOOK_PROGRAMS
        and not same_intent(failed, attempt)
    )


def _quoted(said: Sequence[Reply], cited: Sequence[str]) -> frozenset[str]:
    """The code spans of the replies `cited` as explaining a failure."""
    ids = set(cited)
    return frozenset(
        span.strip() for r in said if r.event_id in ids for span in _CODE_SPAN.findall(r.text)
    )


def _attribute(
    found: list[Attempt],
    i: int,
    j: int,
    changes: list[Change],
    fingerprint: str,
    *,
    advised: frozenset[str] = frozenset(),
    last_try: datetime | None = None,
    diagnosed_at: datetime | None = None,
    whole: str = "",
) -> Pitfall:
    """The fix of the failure at `i` that passed at `j`; `diagnosed_at`: when the reply that
    said why it failed came (what ran before it, with an edit after it, was a look, not a
    step of the fix); `whole`: the passing run's line, all its steps."""
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
    if refused(failed):
        # It never ran: what was edited or run before the next try did not fix it, and a
        # try that reaches other targets (another URL, host or file) did another thing.
        kept = {t for t in failed.tokens[1:] if not t.startswith("-")}
        if not kept <= {t for t in passed.tokens[1:] if not t.startswith("-")}:
            return Pitfall(failed, fingerprint, event_ids=(failed.run.event_id,))
        files, named, between = (), (), []
    # A command that also ran in the failed run (the step before it in `a && b`) changed
    # nothing between the failure and the pass.
    ran_with = {a.text for a in found if a.run.event_id == failed.run.event_id}
    # A step run before a later try that failed the same way did not fix it (`clean`, then
    # the same error again): only what ran after the last such try can be the fix.
    # A try of the same intent that failed otherwise (another error, other arguments) counts
    # too: what ran before it did not get the command to pass.
    failed_again = [
        a.run.timestamp for a in between if a.run.ok is False and same_intent(failed, a)
    ]
    if failed_again and (last_try is None or max(failed_again) > last_try):
        last_try = max(failed_again)
    late = [a for a in between if last_try is None or a.run.timestamp > last_try]
    setup = [
        a
        for a in late
        if (_is_setup(a, failed) or _advised(a, failed, advised) or gate_fixer(failed, a))
        and a.text not in ran_with
    ]
    if diagnosed_at is not None and any(c.timestamp > diagnosed_at for c in edits):
        # A command run before the assistant said why it failed, then a file changed after:
        # the command was a look (`ssh-add -l` before "not the agent after all: …"), the
        # change the fix.
        setup = [a for a in setup if a.run.timestamp > diagnosed_at]
    setup_before: tuple[str, ...] = ()
    changed_args = option_args(failed) != option_args(passed) or typed_options(
        failed
    ) != typed_options(passed)
    ids = [failed.run.event_id]
    folder = shell_folder(failed, passed, fingerprint)
    shown: tuple[str, ...]
    if folder:
        # The same file, named from the root in one run and from a sub-folder in the other:
        # the shell was not where the path was written from (a `cd` earlier in the session);
        # an edit in between did not make a missing path resolve.
        fix, shown, command = "folder", (), folder
    elif named:
        fix, shown, command = "edit", named, ""
        ids.extend(c.event_id for c in edits if c.path in named)
    elif formatter := [
        a for a in late if a.run.ok and formatter_for(failed, a) and a.text not in ran_with
    ]:
        # The check failed, its formatter rewrote the files, the same check passed.
        fix, shown, command = "formatter", (), formatter[-1].text
        ids.append(formatter[-1].run.event_id)
    elif made_environment(whole, passed.program):
        # The passing line made an environment and ran the command from it (`python3 -m venv
        # .venv && .venv/bin/pip install x`): that line is the fix, whatever ran before it.
        fix, shown, command = "variant", (), _unpiped(whole)
    elif setup:
        fix, shown, command = "setup", (), setup[-1].text
        ids.append(setup[-1].run.event_id)
        earlier = [a.text for a in setup[:-1] if a.text != command and "\n" not in a.text]
        setup_before = tuple(earlier[-1:])
    elif (
        changed_args
        and not files
        and variant_can_fix(failed, passed, fingerprint)
        and retries(failed, passed, fingerprint)
    ):
        fix, shown, command = "variant", (), passed.text
    elif swapped_program(failed, passed) and not files:
        # The same words with another program of its kind (`pnpm install` after `npm
        # install` failed): that program is the fix.
        fix, shown, command = "variant", (), passed.text
    elif files:
        fix, shown, command = "edit", files, ""
        ids.extend(c.event_id for c in edits)
    elif not changed_args and failed.text == passed.text and _REWROTE.search(failed.run.output):
        # The run rewrote the files itself (a hook or formatter that fixes what it finds and
        # fails so the change is seen): the same command passed when run again.
        fix, shown, command = "rewrote", (), passed.text
    elif not changed_args and environment_set(failed, passed):
        # The same line with a variable set before it (one machine's path, left out of the
        # typed command): that setting is the fix.
        fix, shown, command = "variant", (), as_typed(passed.run.command)
    elif environment_changed(failed, passed):
        # The same command under `env -u NAME` or `env NAME=value`: the variables it changed
        # are the fix (a token in the environment that overrides a working login).
        fix, shown, command = "variant", (), as_typed(passed.run.command)
    elif outside := tuple(
        dict.fromkeys(
            c.path
            for c in changes
            if c.session_id == failed.run.session_id
            and start <= c.timestamp <= end
            and c.path.startswith(("/", "~"))
            and configuration_file(c.path)
            and not (failed.run.cwd and c.path.startswith(failed.run.cwd.rstrip("/") + "/"))
        )
    ):
        # Nothing in the project changed, but a tool's own configuration outside it did
        # (`~/.config/nix/nix.conf`): that change is the fix. A file in the folder the run
        # itself was in outside the project is that other folder's, as the run is.
        fix, shown, command = "edit", outside, ""
        ids.extend(c.event_id for c in changes if c.path in outside)
    elif run_differently(failed, passed, fingerprint):
        # Same command, run another way (an environment activated, a wrapper): that way is
        # the fix for an error about the call itself (`pytest: command not found`).
        # The passing command itself when the line ran others too (a loop, a chain): the
        # words put before it are the difference, not the line around it.
        wrapped = bool(wrapper_words(failed.text, passed.text))
        typed = passed.text if wrapped else as_typed(passed.run.command)
        fix, shown, command = "variant", (), typed
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
        setup_before=setup_before,
        checks_run=tuple(
            dict.fromkeys(
                (a.use.purpose, a.text)
                for a in between
                if a.run.ok
                and not same_intent(failed, a)
                and a.use is not None
                and a.use.purpose in CHECK_PURPOSES
                and "\n" not in a.text
            )
        ),
    )
