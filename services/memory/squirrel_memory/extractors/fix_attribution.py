"""Which change between a failed command and its passing rerun fixed it, named for what it was.

`fixes.find_pitfalls` pairs a failure with the next run of the same intent that passed; of what
happened in between, in the same session, this names the fix:

- `edit`: files were edited (those the error names first; a tool's own configuration file
  outside the project when nothing in it changed);
- `setup`: a setup command ran in between (install, migrate, build, or any other working
  command that is not a look-around: a command that only reports state, `docker ps`, `kubectl
  get`, `terraform plan`, a health URL's `curl`, a dry run, is one, `evidence.state_looks`),
  or a working command the reply explaining the failure
  quoted (`docker compose up -d db`), whatever its purpose;
- `formatter`: a lint or format check's own formatter ran in between (`mix format` after
  `mix format --check-formatted` failed);
- `variant`: the same command re-run with changed arguments, nothing else changed (never
  when the words that passed had failed before the failed variant was tried: going back to
  them fixed nothing), or run another way (another program of its kind, a variable set, an
  environment made or activated, a wrapper);
- `folder`: the same file named from the root in one run and from a sub-folder in the other
  (the shell was elsewhere);
- `rewrote`: the run rewrote the files itself and the same command passed when run again.

A command the host or the user refused (a permission prompt declined, an auto-mode or sandbox
denial) never ran: nothing run or edited before the next try can have fixed it, so only the
same command run another way (`variant`, its targets kept) is named as its fix (what a
refusal looks like: `refused_calls`). A command run before a later try of the same intent that
failed again fixed nothing.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import split_segments
from squirrel_memory.extractors.environment_changes import environment_changed
from squirrel_memory.extractors.evidence import CHECK_PURPOSES, Attempt
from squirrel_memory.extractors.evidence.recipes import narrowed_after_failure
from squirrel_memory.extractors.evidence.state_looks import (
    LOOK_PROGRAMS,
    LOOK_VERBS,
    only_reports,
    rehearses,
)
from squirrel_memory.extractors.fix_kinds import configuration_file, formatter_for, gate_fixer
from squirrel_memory.extractors.pitfall_record import Change, Pitfall
from squirrel_memory.extractors.refused_calls import refused
from squirrel_memory.extractors.retries import (
    as_typed,
    environment_set,
    option_args,
    retries,
    run_differently,
    same_intent,
    shell_folder,
    swapped_program,
    typed_options,
    variant_can_fix,
    wrapper_words,
)
from squirrel_memory.extractors.script_steps import made_environment

_SETUP_PURPOSES = frozenset({"install", "migrate", "build"})
#: A run's output saying it rewrote files itself (pre-commit's fixing hooks, a formatter run
#: as a check that fixes as it goes): its next identical run passes.
_REWROTE = re.compile(
    r"files were modified by this hook|^[ \t]*reformatted\s+\S|\b\d+ files? reformatted\b|"
    r"^Fixing\s+\S",
    re.IGNORECASE | re.MULTILINE,
)

#: What a set-up command prints when everything was in place already, and what it prints
#: when it did something: only the first says it changed nothing.
_CHANGED_NOTHING = re.compile(
    r"\b(?:is|are) already installed\b|\balready up[ -]to[ -]date\b|^Nothing to do\b",
    re.IGNORECASE | re.MULTILINE,
)
_CHANGED = re.compile(
    r"\b(?:installed|installing|downloaded|downloading|added|updated|upgraded|removed|"
    r"compiled|created|wrote)\b(?<!already installed)",
    re.IGNORECASE,
)


def _is_setup(attempt: Attempt, failed: Attempt) -> bool:
    if not attempt.run.ok or same_intent(failed, attempt) or not attempt.tokens:
        return False
    if rehearses(attempt.tokens[1:]):
        return False  # `pip install --dry-run`: nothing installed
    if _CHANGED_NOTHING.search(attempt.run.output[:2000]) and not _CHANGED.search(
        attempt.run.output[:2000]
    ):
        return False  # `asdf install`: "… is already installed": it changed nothing
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


#: Redirections at a simple command's end (`2>&1`, `> /dev/null`).
_REDIRECTED = re.compile(r"(?:\s+\d?>>?\s*&?\S+)+$")


def _unpiped(line: str) -> str:
    """A line's simple commands joined by `&&`, without the viewers their output was piped
    into or the redirections at their ends: the commands a fix ran, not how it was shown."""
    return " && ".join(_REDIRECTED.sub("", part) for part in split_segments(line))


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


def attribute(
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
    # The passing words had failed before the failed variant was tried (`tool build`, then
    # `tool build --refresh`, both failed, then `tool build` passed): going back to them was
    # no fix; something else changed (a network joined, a service started).
    no_variant = any(
        a.text == passed.text
        and a.run.ok is False
        and a.run.session_id == failed.run.session_id
        and a.run.timestamp < start
        for a in found[:i]
    )
    # A test run that passed with words selecting some tests (`rebar3 eunit --module=m` after
    # `rebar3 eunit`) ran a part of what failed: no variant of it fixed the failure.
    no_variant = no_variant or bool(narrowed_after_failure([failed, passed]))
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
        and not no_variant
        and variant_can_fix(failed, passed, fingerprint)
        and retries(failed, passed, fingerprint)
    ):
        fix, shown, command = "variant", (), passed.text
    elif swapped_program(failed, passed) and not files and not no_variant:
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
