"""Command sequences: the checks run before commits (the quality gate), end-of-session routines."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime

from squirrel_memory.extractors.evidence.attempts import CHECK_PURPOSES, Attempt, Finding
from squirrel_memory.extractors.evidence.command_picks import OUTPUT_ONLY, after_base, whole_run
from squirrel_memory.extractors.evidence.workflows import as_run

#: Commands that only look around; they are never part of a routine.
_READ_ONLY = frozenset(
    {"ls", "cat", "head", "tail", "grep", "rg", "find", "echo", "pwd", "wc", "sed", "awk", "tree"}
    | {"which", "sleep", "true", "diff", "less", "file", "stat", "du", "df", "ps", "jq"}
)
_READ_ONLY_GIT = frozenset({"status", "diff", "log", "show", "branch", "remote", "rev-parse"})
_ROUTINE_TAIL = 6


def _is_commit(attempt: Attempt) -> bool:
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    return attempt.program == "git" and bool(words) and words[0] == "commit"


def _step(attempt: Attempt) -> str:
    """A check as a recipe step: its stable head, and its folder when not the root."""
    return f"`{attempt.base}` (in `{attempt.scope}/`)" if attempt.scope else f"`{attempt.base}`"


#: A step is shown as it was typed up to this long; longer, by its stable head.
_STEP_CHARS = 60


#: The variables a command is given before its program (`A=1 B="x y" cmd`), a quoted value
#: whole.
_VARIABLES = re.compile(r"""^(?:[A-Za-z_]\w*=(?:"[^"\n]*"|'[^'\n]*'|[^\s'"]*)[ \t]+)+""")


def step_shown(attempt: Attempt) -> str:
    """A check as a routine's step: as it was typed (`cabal test --allow-newer`, `hlint src`)
    when it ran the check whole on one short line, else its stable head (`pytest`, not `pytest
    tests/test_a.py -k slow`). The variables it was given before its program stay with it
    (`SQLX_OFFLINE=true cargo test`): the check may pass only with them."""
    given = _VARIABLES.match(attempt.text)
    if given is None:
        return _typed_step(attempt, attempt.text)
    return given.group(0) + _typed_step(attempt, attempt.text[given.end() :])


#: Options that change what a command does, not what it prints or which files it reads
#: (`ruff format --check` checks, `ruff format` rewrites): a step shown by its head keeps them.
_MODE_FLAGS = frozenset({"--check", "--diff", "--dry-run", "--fix", "--write"})


def _typed_step(attempt: Attempt, text: str) -> str:
    """`step_shown` of the command's `text` after its variables."""
    base = attempt.base
    modes = [w for w in dict.fromkeys(text.split()) if w in _MODE_FLAGS and w not in base.split()]
    head = " ".join([base, *modes])
    rest = after_base(text, base)  # `go test -tags integration ./...` under `go test ./...`
    if "\n" in text or len(text) > _STEP_CHARS or rest is None:
        return head
    if not whole_run(attempt) and not _globs_only(rest):
        return head
    extra = rest.split()
    kept = [w for w in extra if not OUTPUT_ONLY.match(w)]
    if not kept:
        return head  # `pytest -q --tb=short`: how much it prints, not how it runs
    # the output options left out where they stood: a package's place among `go` options holds
    return text if kept == extra else " ".join(w for w in text.split() if not OUTPUT_ONLY.match(w))


def _globs_only(args: str) -> bool:
    """Whether the files a step names are all patterns (`src/*.cpp`): every file of a kind."""
    files = [w for w in args.split() if not w.startswith("-")]
    return bool(files) and all("*" in w for w in files)


def _common_steps(sequences: list[list[str]]) -> list[str]:
    """Steps present in at least half of the sequences (two at least), in their usual order."""
    presence: Counter[str] = Counter()
    positions: dict[str, list[float]] = {}
    for sequence in sequences:
        for index, step in enumerate(sequence):
            presence[step] += 1
            positions.setdefault(step, []).append(index / max(1, len(sequence) - 1))
    needed = max(2, (len(sequences) + 1) // 2)
    steps = [s for s, n in presence.items() if n >= needed]
    return sorted(steps, key=lambda s: (sum(positions[s]) / len(positions[s]), s))


def quality_gate(found: list[Attempt], edit_times: list[datetime]) -> Finding | None:
    """The checks run (and passed) after the last edit before commits, in their usual order.

    With several commits, the steps seen before at least half of them; with one, its checks
    when there are two or more.
    """
    sequences: list[list[str]] = []
    ids: dict[str, list[str]] = {}
    latest: dict[str, Attempt] = {}
    window: list[Attempt] = []
    last_session: str | None = None
    for attempt in found:
        if attempt.run.session_id != last_session:
            window, last_session = [], attempt.run.session_id
        if _is_commit(attempt):
            if attempt.run.ok is not False:
                latest_edit = max(
                    (t for t in edit_times if t <= attempt.run.timestamp), default=None
                )
                checks = [
                    a
                    for a in window
                    if a.run.ok and (latest_edit is None or a.run.timestamp >= latest_edit)
                ]
                # Each check where it last ran: the final pass before the commit is the gate.
                last = {_step(a): i for i, a in enumerate(checks)}
                for a in checks:
                    latest[_step(a)] = a
                if last:
                    sequences.append(sorted(last, key=lambda step: last[step]))
                for a in checks:
                    ids.setdefault(_step(a), []).append(a.run.event_id)
            window = []
        elif (
            attempt.use is not None
            and attempt.use.purpose in CHECK_PURPOSES
            and not attempt.scope.startswith("/")
        ):
            window.append(attempt)
    if not sequences:
        return None
    steps = _common_steps(sequences) if len(sequences) >= 2 else sequences[0]
    if len(steps) < 2 and len(sequences) < 2:
        return None
    if not steps:
        return None
    times = sum(1 for seq in sequences if set(steps) <= set(seq))
    seen = f" (before {times} commits)" if times >= 2 else ""
    return Finding(
        "recipe",
        "recipe:verify",
        f"Before committing, run: {' → '.join(_shown_steps(steps[:6], latest))}{seen}.",
        ("recipe", "verify", "commit", "quality-gate"),
        round(min(0.8, 0.5 + 0.05 * times), 3),
        tuple(e for step in steps[:6] for e in ids.get(step, [])[-5:]),
    )


def _shown_steps(steps: list[str], latest: dict[str, Attempt]) -> list[str]:
    """Each step as its last run typed it (`step_shown`), its folder kept."""
    shown: list[str] = []
    for step in steps:
        attempt = latest.get(step)
        if attempt is None or attempt.scope:
            shown.append(step)
        else:
            shown.append(f"`{step_shown(attempt)}`")
    return list(dict.fromkeys(shown))


def finishing_checks(found: list[Attempt]) -> Finding | None:
    """Without commits: the longest run of passing checks with no failure in between (of two
    as long, the later: the project may have moved on, `npm test` → `npm run lint` before a
    switch to pnpm)."""
    streak: list[Attempt] = []
    best: list[Attempt] = []
    for attempt in found:
        use = attempt.use
        if use is not None and use.purpose in CHECK_PURPOSES and attempt.run.ok:
            streak.append(attempt)
        elif attempt.run.ok is False or use is not None:
            streak = []
        purposes = len({a.use.purpose for a in streak if a.use})
        held = len({a.use.purpose for a in best if a.use})
        # A later run of checks as long takes the place of an earlier one (not of itself).
        if purposes > held or (purposes == held >= 2 and streak[:1] != best[:1]):
            best = list(streak)
    if len({a.use.purpose for a in best if a.use}) < 2:
        return None
    last: dict[str, Attempt] = {}
    for attempt in best:
        last.pop(_finishing_step(attempt), None)
        last[_finishing_step(attempt)] = attempt
    # Each step as it was run (`cargo fmt --check`, not `cargo fmt`) when the session typed it
    # that way twice or more; its stable head when every run chose other files or tests.
    typed: dict[str, Counter[str]] = {}
    for attempt in found:
        if attempt.run.ok and attempt.use is not None and attempt.use.purpose in CHECK_PURPOSES:
            typed.setdefault(_finishing_step(attempt), Counter())[attempt.text] += 1
    steps: list[str] = []
    for key, attempt in last.items():
        text, count = typed[key].most_common(1)[0] if key in typed else ("", 0)
        shown = text if count >= 2 and "\n" not in text and len(text) <= 80 else ""
        shown = shown or step_shown(attempt)
        steps.append(f"`{shown}`")
    steps = list(dict.fromkeys(steps))
    return Finding(
        "recipe",
        "recipe:verify",
        f"Before finishing a change: {' → '.join(steps[:5])}.",
        ("recipe", "verify", *dict.fromkeys(a.use.purpose for a in best if a.use)),
        0.55,
        tuple(a.run.event_id for a in best),
    )


def _finishing_step(attempt: Attempt) -> str:
    """A check's step in a finishing routine: a formatter and its own check (`zig fmt src`,
    then `zig fmt --check src`) are one step, where it last ran."""
    use = attempt.use
    return (f"format:{use.tool}" if use is not None and use.purpose == "format" else "") or (
        attempt.base
    )


def _routine_step(attempt: Attempt) -> bool:
    if not attempt.base or attempt.program in _READ_ONLY or attempt.scope.startswith("/"):
        return False
    if attempt.use is not None and attempt.use.purpose in CHECK_PURPOSES:
        return False
    if attempt.use is not None and attempt.use.purpose == "migrate":
        # Applying migrations follows the migration a session wrote (generate, review,
        # migrate): a step of that change, not of how every session ends.
        return False
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    return not (attempt.program == "git" and (not words or words[0] in _READ_ONLY_GIT))


def _file_run(attempt: Attempt) -> str:
    """The file a run gave its program: the launched script itself once the interpreter is
    dropped (`Rscript scripts/a.R` reads as `scripts/a.R`), else the first argument."""
    words = [t for t in attempt.tokens if not t.startswith("-")]
    if words and words[0] != attempt.program and ("/" in words[0] or "." in words[0].strip(".")):
        return words[0]
    return words[1] if len(words) > 1 else ""


def _other_scripts(attempts: list[Attempt]) -> bool:
    """Whether the runs of one step gave its program different files to run."""
    files = {_file_run(a) for a in attempts}
    return len(files) > 1 and all("/" in f or "." in f.strip(".") for f in files)


def _other_verbs(attempts: list[Attempt], step: str) -> bool:
    """Whether a step known only by its program (`tool`) gathers runs that gave it different
    first words (`tool ~compile`, `tool "pkg/testOnly X"`): other commands, no one step."""
    if " " in step.strip("`"):
        return False
    firsts = {next((t for t in a.tokens[1:] if not t.startswith("-")), "") for a in attempts}
    return len(firsts) > 1


def _fix_steps(attempts: list[Attempt]) -> set[str]:
    """The runs (event ids) made between a failed check and the next run of that check that
    passed: what got the check past its failure (`go mod tidy` after a missing `go.sum` entry),
    a fix of that moment rather than a step every session ends with."""
    fixing: set[str] = set()
    for index, failed in enumerate(attempts):
        if failed.run.ok is not False or failed.use is None:
            continue
        if failed.use.purpose not in CHECK_PURPOSES:
            continue
        between: list[str] = []
        for later in attempts[index + 1 :]:
            if later.base == failed.base:
                if later.run.ok:
                    fixing.update(between)
                break
            between.append(later.run.event_id)
    return fixing


def routine(found: list[Attempt], edit_times: list[datetime]) -> Finding | None:
    """Commands repeated after the last edit of several sessions (commit, push, deploy …); a
    run that got a failed check past its failure is that moment's fix, not a routine step."""
    by_session: dict[str, list[Attempt]] = {}
    for attempt in found:
        by_session.setdefault(attempt.run.session_id or "", []).append(attempt)
    tails: list[list[Attempt]] = []
    for session_attempts in by_session.values():
        end = session_attempts[-1].run.timestamp
        start = session_attempts[0].run.timestamp
        last_edit = max((t for t in edit_times if start <= t <= end), default=None)
        fixing = _fix_steps(session_attempts)
        tail = [
            a
            for a in session_attempts
            if a.run.ok is not False
            and _routine_step(a)
            and a.run.event_id not in fixing
            and (last_edit is None or a.run.timestamp >= last_edit)
        ][-_ROUTINE_TAIL:]
        if tail:
            tails.append(tail)
    if len(tails) < 2:
        return None
    ids: dict[str, list[str]] = {}
    runs: dict[str, list[Attempt]] = {}
    sequences: list[list[str]] = []
    for tail in tails:
        sequence = list(dict.fromkeys(f"`{a.base}`" for a in tail))
        sequences.append(sequence)
        for attempt in tail:
            ids.setdefault(f"`{attempt.base}`", []).append(attempt.run.event_id)
            runs.setdefault(f"`{attempt.base}`", []).append(attempt)
    # An interpreter running another script each time (`Rscript scripts/<name>.R`) is no step.
    steps = [
        step
        for step in _common_steps(sequences)
        if not _other_scripts(runs[step]) and not _other_verbs(runs[step], step)
    ]
    if not steps:
        return None
    sessions = min(sum(1 for seq in sequences if step in seq) for step in steps)
    # Each step as it was run (`git commit -m "<text>"`), its stable head when it cannot be.
    shown = [f"`{as_run(runs[step], step.strip('`'))}`" for step in steps[:5]]
    return Finding(
        "recipe",
        "recipe:routine",
        f"At the end of a session: {' → '.join(shown)} (done in {sessions} sessions).",
        ("recipe", "routine", "workflow"),
        round(min(0.7, 0.4 + 0.05 * sessions), 3),
        tuple(e for step in steps[:5] for e in ids[step][-5:]),
    )
