"""A run that is a script of several steps: which step failed, and how a re-run changed it.

A run's exit code is its last step's (`a; b`: `b`'s), or, under `&&` or `set -e`, the first
failing step's, the last one that ran. Which step that was is told from the script's shape and
its output, or not at all:

- a step whose program the shell could not find (`bash: java: command not found`) failed (of
  several, the first);
- else the steps after the last `;` or newline (everything under `set -e`) hold the failure;
  of those joined by `&&`, one alone is it;
- a header a step printed (`echo "== tests"`, `printf '== lint\\n'`) says the steps before it
  ran, and one it did not print, that those after it did not;
- else the line of the output nearest its end that names one step alone (its program, a
  subcommand or a target no other step has: `Tasks: TOP => db:migrate`, `Unable to access
  jarfile target/app.jar`), among its error lines and its last lines;
- else it is not told (`fixes` then takes only a fix tied to one step: that check's own
  formatter, the files its error names edited, a commit's hooks); and no step at all may be
  blamed (`NO_STEP`) when the script printed nothing, or the step told only compares two
  values (`test "$a" = "$b"`), whose failure does not say which command went wrong.

Each step of a script is then read alone (`narrowed`): its run's command is that step's line,
with the steps that run no command of their own joined to it by `&&` put before it (`source
~/.sdkman/bin/sdkman-init.sh && java -version`: how it was run), so the failing step is
compared with the same step of the passing script and the lesson is worded from it, not from
the whole script. A re-run that changed several steps at once up to the failing one
(`changed_steps`; the same words put before each, or setup steps put in together, count once)
tells no one fix. A script the host's policy refused (its permission classifier, a sandbox)
never ran: no step failed, so it is read whole, one failure of the line as it was given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import PurePosixPath

from squirrel_core.shell_words import ENV_ASSIGNMENT, join_words, joined_commands
from squirrel_core.typed_commands import substituted, typed_commands
from squirrel_memory.extractors.activity import (
    MAX_OUTPUT_SCAN_CHARS,
    core_tokens,
    split_segments,
)
from squirrel_memory.extractors.evidence import Attempt
from squirrel_memory.extractors.refused_calls import host_refused

#: Programs whose step only prints (a header between steps): never the failing step.
_PRINTS = frozenset({"echo", "printf"})
#: Steps that do nothing but set the status (`|| true`, `|| exit`): never the failing step.
_NO_OPS = frozenset({"true", ":", "exit"})
#: Programs that only compare values (`test "$a" = "$b"`): their failure says no command failed.
_COMPARES = frozenset({"test", "[", "[["})
#: `set` options that stop a script at its first failing step.
_STOPS = re.compile(r"^-[a-z]*e[a-z]*$|^errexit$")
#: A line that reports an error (where a step's name is looked for), whatever the tool.
_ERROR_LINE = re.compile(
    r"error|fatal|fail|cannot|can't|could not|couldn't|unable|not found|no such|denied|"
    r"refused|forbidden|unauthori[sz]ed|invalid|missing|aborted|abort",
    re.IGNORECASE,
)
#: How many of the output's last lines count as the failing step's own, error or not.
_LAST_LINES = 3
#: How many lines, from the output's end, are searched for a step's name.
_LINES_SEARCHED = 60
#: Where a step's words and an output line are cut into the names compared: blanks, quotes,
#: brackets, `:`, `=`, `,` (a path stays whole: `src` does not name `src/app/books.py`).
_CUT = re.compile(r"[\s'\"`,()\[\]{}<>:;=]+")
#: How much of one output line is read for a step's name.
_LINE_CHARS = 2_000
#: A header's literal text: a run of characters with no format directive or variable in it.
_LITERAL = re.compile(r"[^%$\\\n]{3,}")


@dataclass(frozen=True, slots=True)
class Step:
    """One simple command of a script, as written."""

    #: Its words, environment prefix and wrappers kept (`env -u GH_TOKEN git push`), an
    #: assignment from a command substitution taken off (`x=$(gh pr view)` is `gh pr view`).
    words: tuple[str, ...]
    #: The operator that joined it to the step before: "&&", "||" or ";" ("" for the first).
    joined: str
    #: How many typed commands (`Attempt`s) it gives: 0 for a `cd`, an `export`, a `set -e`.
    attempts: int

    @property
    def program(self) -> str:
        return PurePosixPath(self.words[0]).name if self.words else ""

    @property
    def prints(self) -> bool:
        return self.program in _PRINTS

    @property
    def works(self) -> bool:
        """Whether it is a step that can fail the script: a command, not a header."""
        return self.attempts > 0 and not self.prints and self.program not in _NO_OPS

    #: Its words joined back as they were typed.
    line: str = ""


def _join(operator: str) -> str:
    if "&&" in operator:
        return "&&"
    if "||" in operator:
        return "||"
    return ";" if operator else ""


@lru_cache(maxsize=1024)
def steps(command: str) -> tuple[Step, ...]:
    """The steps of a shell line, in order, each with how it was joined and how many attempts
    it gives (`evidence.attempts` reads the line one typed command at a time)."""
    found: list[Step] = []
    for words, operator in joined_commands(command):
        own = substituted(words)
        line = join_words(own, typed=command)
        found.append(Step(tuple(own), _join(operator), len(typed_commands(line)), line))
    return tuple(found)


def is_script(command: str) -> bool:
    """Whether a run is a script of several steps that can fail (headers and `cd` aside)."""
    if "&" not in command and ";" not in command and "\n" not in command and "|" not in command:
        return False
    return sum(s.works for s in steps(command)) > 1


#: `failing_step`'s answer when no step may be blamed: a script that printed nothing, or whose
#: failing step only compared two values.
NO_STEP = -1
#: The shell saying it found no such program: `bash: line 1: java: command not found`.
_NOT_FOUND = re.compile(
    r"^(?:\S*/)?(?:ba|z|da|k)?sh: (?:line \d+: |\d+: )?(\S+): command not found", re.MULTILINE
)


def failing_step(command: str, output: str) -> int | None:
    """Which step of a failed script failed (its index in `steps(command)`); `NO_STEP` when
    none may be blamed (nothing printed, or a comparison failed), None when the script's shape
    and its output do not tell."""
    found = steps(command)
    head = output[-MAX_OUTPUT_SCAN_CHARS:]
    if not head.strip():
        return NO_STEP
    missing = _missing_program(found, head)
    if missing is not None:
        return missing
    # Under `set -e` every step joins the next as `&&` does.
    stops = False
    chain: list[int] = []
    for n, step in enumerate(found):
        if step.program == "set" and any(_STOPS.match(w) for w in step.words[1:]):
            stops = True
            continue
        if step.joined == ";" and not stops:
            chain = []  # the exit code is a later step's
        chain.append(n)
    if any(found[n].joined == "||" for n in chain[1:]):
        return None  # `a || b`: which of them set the exit code, nothing says
    chain = _within_headers(chain, found, head)
    working = [n for n in chain if found[n].works]
    told = working[0] if len(working) == 1 else _named(working, found, head) if working else None
    if told is not None and found[told].program in _COMPARES:
        return NO_STEP  # (a comparison failed: which command gave it the wrong value, unsaid)
    return told


def _missing_program(found: Sequence[Step], output: str) -> int | None:
    """The first working step whose program the shell said it could not find, or None: each
    such step failed (`java -version; gradle --version` with neither installed), and the
    first is the one a re-run must get past first."""
    named = {m.group(1) for m in _NOT_FOUND.finditer(output)}
    if not named:
        return None
    hits = [n for n, s in enumerate(found) if s.works and s.program in named]
    return hits[0] if hits else None


def _within_headers(chain: list[int], found: Sequence[Step], output: str) -> list[int]:
    """The steps of an `&&` chain between the last header it printed and the first it then did
    not print: the one that failed is among them."""
    start, end = 0, len(chain)
    seen = False
    for k, n in enumerate(chain):
        step = found[n]
        if not step.prints:
            continue
        text = _header(step)
        if not text:
            continue
        if text in output and not seen:
            start = k + 1
        elif text not in output:
            end = k
            seen = True
            break
    return chain[start:end]


def _header(step: Step) -> str:
    """The longest literal part a header prints (`== tests` of `printf '== tests\\n'`)."""
    given = [w for w in step.words[1:] if not w.startswith("-")]
    if not given:
        return ""
    parts = [p.strip() for p in _LITERAL.findall(given[0])]
    return max((p for p in parts if len(p) >= 3), key=len, default="")


def _named(working: list[int], found: Sequence[Step], output: str) -> int | None:
    """The step named alone by the output's line nearest its end that names any, among its
    error lines and its last lines; None when none does, or that line names several."""
    parts = {n: _parts(found[n]) for n in working}
    own = {
        n: {p for p in mine if not any(p in parts[m] for m in working if m != n)}
        for n, mine in parts.items()
    }
    lines = [line for line in output.splitlines() if line.strip()][-_LINES_SEARCHED:]
    for k, line in enumerate(reversed(lines)):
        if k >= _LAST_LINES and not _ERROR_LINE.search(line):
            continue
        words = _names(line)
        named = [n for n in working if own[n] & words]
        if len(named) == 1:
            return named[0]
        if named:
            return None
    return None


def _parts(step: Step) -> set[str]:
    """The names in a step's words that can name it in an output line: its program,
    subcommand, targets, option values (`-p 8080:8080` gives `8080`); assignments before it
    left out."""
    words = list(step.words)
    while words and ENV_ASSIGNMENT.match(words[0]):
        words = words[1:]
    return {name for word in words for name in _names(word)}


def _names(text: str) -> set[str]:
    """`text` cut at `_CUT`, each piece without the dashes and dots around it, lowercased."""
    pieces = (p.strip("-.!?").lower() for p in _CUT.split(text[:_LINE_CHARS]))
    return {p for p in pieces if len(p) >= 3}


def narrowed(found: list[Attempt]) -> tuple[list[Attempt], dict[str, int | None]]:
    """`found` with each attempt of a script read alone (its run's command is its own step's
    line), and, for each failed script, the index in the list of the attempt that failed
    (`NO_STEP` when none may be blamed, None when nothing tells which step did)."""
    out = list(found)
    failing: dict[str, int | None] = {}
    n = 0
    while n < len(found):
        run = found[n].run
        end = n
        while end < len(found) and found[end].run.event_id == run.event_id:
            end += 1
        if is_script(run.command) and host_refused(run.output):
            # The host's policy refused the whole line, so none of its steps ran: it is one
            # failure, read as it was given (its first attempt stands for it), no step blamed.
            failing[run.event_id] = n
        elif is_script(run.command):
            lines = _step_lines(run.command)
            if len(lines) == end - n:
                for k in range(n, end):
                    out[k] = replace(found[k], run=replace(run, command=lines[k - n]))
                if run.ok is False:
                    failing[run.event_id] = _attempt_of(run.command, run.output, n)
        n = end
    return out, failing


def _step_lines(command: str) -> list[str]:
    """The line of each attempt of a script: its step's, with the steps that give no attempt
    joined to it by `&&` put before it (`source ~/.sdkman/bin/sdkman-init.sh && java -version`:
    the environment it ran in is part of how it was run)."""
    lines: list[str] = []
    setup: list[str] = []
    for step in steps(command):
        if step.attempts == 0:
            setup = [*setup, step.line] if step.joined in ("", "&&") or not setup else [step.line]
            continue
        prefix = " && ".join(setup) + " && " if setup and step.joined == "&&" else ""
        lines.extend([prefix + step.line] * step.attempts)
        setup = []
    return lines


def _attempt_of(command: str, output: str, first: int) -> int | None:
    """The index in the attempts list of a failed script's failing step (its attempts start at
    `first`); `NO_STEP` when none may be blamed, None when which one failed is not told."""
    step = failing_step(command, output)
    if step is None or step == NO_STEP:
        return step
    found = steps(command)
    if found[step].attempts != 1:
        return None
    return first + sum(s.attempts for s in found[:step])


def changed_steps(before: str, after: str, output: str = "") -> int:
    """How many steps a re-run changed, added or dropped (headers aside) up to the step of
    `before` that failed (told from its `output`; steps after it never ran, or could not have
    fixed it); the same words put before several steps (`env -u GH_TOKEN` before `gh` and
    before `git push`) count once, and so do steps put in together (a setup: `source
    ~/.nvm/nvm.sh && nvm use 20`)."""
    listed = [n for n, s in enumerate(steps(before)) if not s.prints]
    old = [" ".join(steps(before)[n].words) for n in listed]
    new = [" ".join(s.words) for s in steps(after) if not s.prints]
    failed = failing_step(before, output) if output and is_script(before) else None
    last = listed.index(failed) if failed in listed else len(old) - 1
    count = _changes(old, new, last)
    if failed in listed and 0 < len(new) <= last:
        # A step before the one that failed ran (and, joined by `&&`, passed): a shorter re-run
        # that leaves it out (`git add x && git commit …`, then `git commit …` alone) changed
        # nothing by that, its work stays done.
        kept = [n for n, words in enumerate(old) if n >= last or words in new]
        count = min(count, _changes([old[n] for n in kept], new, kept.index(last)))
    return count


def _changes(old: list[str], new: list[str], last: int) -> int:
    """How many steps `new` changed, added or dropped against `old` up to `old[last]`."""
    count = 0
    prefixes: set[str] = set()
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal" or i1 > last:
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            for a, b in zip(old[i1:i2], new[j1:j2], strict=True):
                prefix = b[: -len(a)] if b.endswith(" " + a) else ""
                if prefix and prefix in prefixes:
                    continue
                if prefix:
                    prefixes.add(prefix)
                count += 1
            continue
        if tag == "replace" and i2 - i1 == 1 and _run_from_made(old[i1], new[j1:j2]):
            count += 1
            continue
        # Steps put in together (`source ~/.nvm/nvm.sh && nvm use 20`) are one setup.
        count += 1 if tag == "insert" else max(i2 - i1, j2 - j1)
    return count


def _run_from_made(step: str, steps: list[str]) -> bool:
    """Whether `steps` are one step that makes a folder and `step`'s words run by a program
    inside it (`pip3 install esptool`, then `python3 -m venv .venv && .venv/bin/pip install
    esptool`): an environment made to run the same command in, one change."""
    if len(steps) != 2:
        return False
    made, ran = steps[0].split(), steps[1].split()
    words = step.split()
    return len(ran) > 1 and ran[1:] == words[1:] and runs_from_made(made, ran[0])


def made_environment(command: str, program: str) -> bool:
    """Whether `program` ran in the line `command` from a folder an earlier step of the line
    made (`python3 -m venv .venv && .venv/bin/pip install x`)."""
    segments = [words for part in split_segments(command) if (words := core_tokens(part))]
    return any(
        runs_from_made(segments[n], words[0])
        for m, words in enumerate(segments)
        if PurePosixPath(words[0]).name == program
        for n in range(m)
    )


def runs_from_made(made: Sequence[str], program: str) -> bool:
    """Whether `program` is a path inside a folder the step `made` names as an argument (`venv
    .venv`, then `.venv/bin/pip`): a program of the environment that step made."""
    return "/" in program and any(
        len(w.strip("./")) > 1 and program.startswith(w.rstrip("/") + "/")
        for w in made[1:]
        if not w.startswith("-")
    )
