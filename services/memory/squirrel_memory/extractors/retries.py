"""What makes a run a retry of a failed command, and what a retry changed.

A passing run fixes a failure only when it is that command again: the same targets with other
options (`git push -u origin dev` after `git push`), or the same command with something put
before it (`bundle exec rspec` after `rspec: command not found`), unless the error was about
the call itself (a wrong path or name), which another target can fix. A version-control query
that only reads history (`git log`, `git show`) and failed is a probe of the repository, not a
pitfall. A run that passed with a warning an edit then cleared is known by that warning.

Which later run tries what a failed one tried is here too (`same_intent`, `covers`: a check
must run at least the same targets; `reselects`: a selection that matched nothing written
another way), whether other arguments can fix it (`variant_can_fix`, `run_differently`,
`shell_folder`: a path written from another folder), and a run's words as typed (`typed_words`,
`option_args`, `selection`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from pathlib import PurePosixPath

from squirrel_core.commands import core_tokens
from squirrel_core.shell_words import ENV_ASSIGNMENT, shell_tokens
from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS
from squirrel_memory.extractors.evidence import CHECK_PURPOSES, Attempt
from squirrel_memory.extractors.evidence.cleared_warnings import is_warning
from squirrel_memory.extractors.evidence.command_picks import TEST_PICKERS
from squirrel_memory.extractors.fix_kinds import formatter_for
from squirrel_memory.extractors.pitfalls import selected_nothing

#: Errors about how a command was called (a wrong path, flag or name): another spelling fixes
#: them, so a re-run of a check with other arguments is their fix.
USAGE_ERROR = re.compile(
    r"no such file|not found|unrecognized|unknown (?:option|flag|command|argument)|usage:|"
    r"invalid (?:option|argument|choice)|no tests? (?:ran|collected|found)|does not exist|"
    # A file given that could not be read: `error TS5083: Cannot read file '…/tsconfig.json'`.
    r"cannot (?:read|open) (?:the )?(?:config(?:uration)? )?file",
    re.IGNORECASE,
)


#: Version-control queries that only read history or state: one that fails (a commit that is
#: not in this clone, a path not in that revision) is a probe of the repository, not a pitfall.
_READ_ONLY_GIT = frozenset(
    {"log", "show", "diff", "status", "blame", "rev-parse", "merge-base", "cat-file"}
    | {"ls-files", "ls-tree", "describe", "shortlog", "reflog", "grep"}
)


def reads_history(attempt: Attempt) -> bool:
    """Whether `attempt` is a version-control query that only reads (`git log`, `git show`,
    `git branch --contains`)."""
    if attempt.program != "git":
        return False
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    if not words:
        return False
    if words[0] == "branch":
        return any(t in ("--contains", "--merged", "--no-merged", "--list") for t in attempt.tokens)
    return words[0] in _READ_ONLY_GIT


def retries(failed: Attempt, passed: Attempt, fingerprint: str) -> bool:
    """Whether the passing command is the failed one run again with other options: it keeps
    the failed command's targets (its positional words, not an option's value or free text),
    unless the error was about the call itself (a wrong path or name), which another target
    can fix. A command asking for something else (`tool check a.txt`, then `tool check b.txt`
    after a real error) is no fix of it."""
    kept = set(passed.tokens[1:])
    dropped = [t for t in _targets(failed.tokens[1:]) if t not in kept]
    return (
        not dropped
        or bool(USAGE_ERROR.search(fingerprint))
        or names_argument(failed.run.output, dropped)
    )


#: How many lines of a failed run's output are searched for an error about an argument.
_ARGUMENT_ERROR_LINES = 40


def names_argument(output: str, words: Sequence[str]) -> bool:
    """Whether a line of `output` opens with one of `words` (the run's own arguments) and then
    says what is wrong with it, as programs report an argument they could not use (`pattern
    ./...: directory prefix . does not contain modules listed in go.work`, `src: Is a
    directory`): the error is about that argument, which another can fix. A location (`a.py:12:
    …`) is a failure found in the file, not a complaint about the argument."""
    for line in output.splitlines()[:_ARGUMENT_ERROR_LINES]:
        head, colon, rest = line.strip().partition(": ")
        if not colon or not rest[:1].isalpha():
            continue
        named = head.split(" ")[-1] if head.count(" ") == 1 else head
        if named in words:
            return True
    return False


def _targets(words: Sequence[str]) -> list[str]:
    """The positional words of a command's arguments: neither an option, nor the value that
    follows one, nor free text (a prompt, a message); everything after `--` counts."""
    found: list[str] = []
    after_option = ended = False
    for word in words:
        if ended:
            found.append(word)
        elif word == "--":
            ended = True
        elif word.startswith("-"):
            after_option = "=" not in word
        elif after_option:
            after_option = False
        elif " " not in word:
            found.append(word)
    return found


def wrapper_words(before: str, after: str) -> str:
    """The words `after` puts before the same command as `before` (`uv run`, `mise exec --`,
    `source .venv/bin/activate &&`), environment assignments of both left aside; "" when
    `after` is not `before` with something put in front."""
    old, new = after_shared_steps(as_typed(before), as_typed(after))
    old, new = _without_assignments(old), _without_assignments(new)
    if not old or old == new or not new.endswith(" " + old):
        return ""
    prefix = new[: -len(old)].strip()
    return prefix if 0 < len(prefix) <= 60 and "`" not in prefix else ""


_STEP_ENDS = frozenset({"&&", ";", "||"})


def after_shared_steps(before: str, after: str) -> tuple[str, str]:
    """Two command lines without the steps both open with (`cd android && …`): what was put
    before the command is told after them."""
    old, new = before.split(" "), after.split(" ")
    shared = 0
    for k, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            break
        if a in _STEP_ENDS:
            shared = k + 1
    return " ".join(old[shared:]), " ".join(new[shared:])


def _without_assignments(text: str) -> str:
    words = text.split(" ")
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$", words[0]):
        words = words[1:]
    return " ".join(words)


def as_typed(command: str) -> str:
    """A whole command line as typed, without an enclosing subshell's parentheses."""
    text = " ".join(command.split())
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text


_FAILED_COUNT = re.compile(r"\b[1-9]\d*\s+(?:failed|failing|failures?|errors?)\b|\bFAIL", re.I)


def warning_line(output: str) -> str:
    """A tool's warning line when the run reported no failure (its summary counts none):
    the warning is then what the run taught; "" otherwise."""
    head = output[:MAX_OUTPUT_SCAN_CHARS]
    lines = [line for line in head.splitlines() if is_warning(line)]
    if not lines or _FAILED_COUNT.search(head.replace(" 0 failed", "")):
        return ""
    return lines[0].strip()


#: Flags that change only how much a command prints; re-running with them is not a fix.
_OUTPUT_FLAGS = frozenset(
    {"-v", "-vv", "-vvv", "-q", "-qq", "-s", "-x", "--verbose", "--quiet", "--trace"}
)


MAX_FOLDER_ERROR_SCAN = 1_000


def option_args(attempt: Attempt) -> list[str]:
    return [t for t in attempt.tokens[1:] if t not in _OUTPUT_FLAGS]


def typed_words(attempt: Attempt) -> tuple[str, ...]:
    """The command's words as typed, a runner's own options kept (`uv run --extra test
    pytest`): `tokens` start at the tool the runner starts."""
    words = tuple(shell_tokens(attempt.text))
    return words if words and words[-len(attempt.tokens) :] == attempt.tokens else attempt.tokens


def typed_options(attempt: Attempt) -> list[str]:
    return [t for t in typed_words(attempt)[1:] if t not in _OUTPUT_FLAGS]


def covers(failed: Attempt, passed: Attempt) -> bool:
    """Whether a passing attempt retries the failed one: a check must run at least the same
    targets (`pytest` covers `pytest tests/a.py`, `pytest tests/b.py` does not)."""
    if not same_intent(failed, passed):
        return False
    if failed.use is None or failed.use.purpose not in CHECK_PURPOSES:
        return True
    return (
        _target_names(passed) <= _target_names(failed)
        or _same_but_option_values(failed, passed)
        or argument_refused(failed, passed)
    )


#: How long an output line may be and still be read for an argument it refused.
_REFUSAL_LINE_CHARS = 400


def argument_refused(failed: Attempt, passed: Attempt) -> bool:
    """Whether the failed run said it could not use a path it was given as an option's value
    that the passing run gave otherwise (`tsc -p tsconfig.json`: "Cannot read file
    '…/tsconfig.json'", then `tsc -p tsconfig.app.json`): the same check, its argument
    corrected."""
    kept = set(typed_options(passed))
    words = typed_options(failed)
    # (an option's value, not a target: another test file is another run, not a fix)
    dropped = {
        PurePosixPath(w).name
        for before, w in pairwise(words)
        if before.startswith("-")
        and "=" not in before
        and w not in kept
        and not w.startswith("-")
        and ("/" in w or "." in w)
    }
    if not dropped:
        return False
    lines = failed.run.output[:MAX_OUTPUT_SCAN_CHARS].splitlines()
    return any(
        USAGE_ERROR.search(line) and any(name in line for name in dropped)
        for line in (whole[:_REFUSAL_LINE_CHARS] for whole in lines)
    )


#: Options whose value picks which tests run (by name, marker or tag): a target.
_PICKING = TEST_PICKERS | {"-m", "--only", "--include", "--exclude", "--tag", "--tags", "-e"}


def _target_names(attempt: Attempt) -> set[str]:
    """The words a check is given past its runner and the runner's options (`uv run --extra
    test pytest a.py` → `a.py`): what it runs on."""
    return {PurePosixPath(t).name for t in _core(attempt)[1:] if not t.startswith("-")}


def _core(attempt: Attempt) -> list[str]:
    return core_tokens(list(attempt.tokens)) or list(attempt.tokens)


def _same_but_option_values(failed: Attempt, passed: Attempt) -> bool:
    """Whether the passing run gives the same targets plus values of options it added
    (`cargo test --features sqlite`) or gave another value (`-destination 'name=B'` for
    `'name=A'`): an option set, not other targets. A value that picks tests (`-k other`) or
    names a path is a target."""
    before = _target_names(failed)
    passed_options = {option for option, _ in _option_values(passed)}
    # A value the passing run gave its option otherwise is no target it dropped.
    changed = {
        PurePosixPath(value).name
        for option, value in _option_values(failed)
        if option in passed_options
        and option not in _PICKING
        and "/" not in value
        and "." not in value
    }
    words = _core(passed)
    option = ""
    for word in words[1:]:
        if word.startswith("-"):
            option = "" if "=" in word else word
            continue
        valued, option = option, ""
        if PurePosixPath(word).name in before:
            continue
        if not valued or valued in _PICKING or "/" in word or "." in word:
            return False
    return before - changed <= _target_names(passed)


def _option_values(attempt: Attempt) -> list[tuple[str, str]]:
    """(option, value) for each word a check's option is followed by (`-scheme App`)."""
    found: list[tuple[str, str]] = []
    option = ""
    for word in _core(attempt)[1:]:
        if word.startswith("-"):
            option = "" if "=" in word else word
            continue
        if option:
            found.append((option, word))
        option = ""
    return found


#: The shell or the host refusing the `cd` a command started with: the folder failed, not the
#: command (`cd to '/tmp' was blocked`, `cd: no such file or directory: build`).
_FOLDER_ERROR = re.compile(
    r"^(?:\S+: )?(?:line \d+: )?cd(?::| to)\s[^\n]{0,120}?(?:\bblocked\b|not permitted|"
    r"denied|no such file|not a directory|does not exist)|^(?:\S+: )?(?:line \d+: )?cd: ",
    re.IGNORECASE | re.MULTILINE,
)


def same_intent(failed: Attempt, other: Attempt) -> bool:
    """Whether `other` tries what `failed` tried: the same intent, or, when the `cd` that gave
    `failed` its folder is what failed, the same command given the folder another way (its own
    option, `wget -P /tmp …` after `cd /tmp && wget …` was refused), or the command a wrapper
    could not run, run without it (`dropped_wrapper`)."""
    if other.intent == failed.intent:
        return True
    if dropped_wrapper(failed, other) or _flag_took_subcommand(failed, other):
        return True
    if swapped_program(failed, other):
        return True
    return other.intent[:2] == failed.intent[:2] and folder_failed(failed)


#: Programs that take the same words for the same job, one for another: the package managers
#: of one ecosystem (`npm install` failed, `pnpm install` worked: pnpm is the project's).
INTERCHANGEABLE = (frozenset({"npm", "pnpm", "yarn", "bun"}), frozenset({"pip", "pip3"}))


def swapped_program(failed: Attempt, other: Attempt) -> bool:
    """Whether `other` is `failed` with its program swapped for another of its kind
    (`INTERCHANGEABLE`) and the same words after it, in the same folder."""
    if failed.program == other.program or failed.scope != other.scope:
        return False
    if failed.tokens[1:] != other.tokens[1:]:
        return False
    return any({failed.program, other.program} <= kind for kind in INTERCHANGEABLE)


def _flag_took_subcommand(one: Attempt, other: Attempt) -> bool:
    """Whether the two differ in intent only because a flag put before the subcommand of one
    was read as taking it for its value (`mvn -pl api -am package` after `mvn -pl api
    package`): the same program in the same folder, one with no subcommand, the other's among
    its words, right after an option."""
    a, b = one.intent, other.intent
    if a[0] != b[0] or a[2] != b[2] or (a[1] == "") == (b[1] == ""):
        return False
    named, unnamed = (one, other) if a[1] else (other, one)
    word = named.intent[1]
    words = unnamed.tokens[1:]
    return any(w == word and words[n - 1].startswith("-") for n, w in enumerate(words) if n)


#: A program saying the word after it is none of its subcommands: "unrecognized subcommand
#: 'bun'", "Unknown command: \"lint\"", "No such command 'x'", "git: 'lg' is not a git
#: command", "invalid choice: 'x'".
_NOT_ITS_SUBCOMMAND = re.compile(
    r"(?:unrecognized|unknown|unexpected|invalid|no such)\s+(?:sub)?command:?\s+['\"‘“`]?"
    r"(?P<a>[\w.:-]+)|['\"‘`](?P<b>[\w.:-]+)['\"’`] is not an? [\w.-]+ (?:sub)?command|"
    r"invalid choice:\s+['\"](?P<c>[\w.:-]+)['\"]",
    re.IGNORECASE,
)
#: How much of a failed run's output is searched for that.
_SUBCOMMAND_ERROR_SCAN = 2_000


def dropped_wrapper(failed: Attempt, other: Attempt) -> bool:
    """Whether `other` is `failed` without its first word, a program that said the next word is
    none of its subcommands (`rtk bun run test`: "unrecognized subcommand 'bun'", then `bun run
    test`): the command it was asked to wrap, run without it."""
    words = failed.tokens
    if len(words) < 2 or tuple(other.tokens) != tuple(words[1:]) or failed.run.ok is not False:
        return False
    said = _NOT_ITS_SUBCOMMAND.search(failed.run.output[:_SUBCOMMAND_ERROR_SCAN])
    return said is not None and words[1] in said.group("a", "b", "c")


def folder_failed(failed: Attempt) -> bool:
    """Whether the `cd` that gave `failed` its folder is what failed (`_FOLDER_ERROR`)."""
    return bool(failed.scope) and bool(
        _FOLDER_ERROR.search(failed.run.output[:MAX_FOLDER_ERROR_SCAN])
    )


def reselects(failed: Attempt, other: Attempt) -> bool:
    """Whether a test run whose selection matched nothing (`swift test --filter ParserTests`:
    no tests found) is followed by the same run selecting otherwise, that ran tests: the
    selection written another way is the fix (`--filter TesseraTests.ParserTests`)."""
    use = failed.use
    if use is None or use.purpose != "test" or not same_intent(failed, other):
        return False
    if not selected_nothing(failed.run.output) or other.ran_no_test:
        return False
    picked = _target_names(other)
    return bool(picked) and picked != _target_names(failed)


def variant_can_fix(failed: Attempt, passed: Attempt, fingerprint: str) -> bool:
    """Other arguments fix any command's failure, except a check's: running other tests or
    files is not a fix, unless the error was about the call itself (a wrong path or flag) or
    the other run is the check's own formatter, or a selection that matched nothing written
    another way (`reselects`)."""
    if failed.use is None or failed.use.purpose not in CHECK_PURPOSES:
        return True
    if formatter_for(failed, passed):
        return True
    same_targets = _target_names(failed) == _target_names(passed) or _same_but_option_values(
        failed, passed
    )
    return same_targets or bool(USAGE_ERROR.search(fingerprint)) or reselects(failed, passed)


def environment_set(failed: Attempt, passed: Attempt) -> bool:
    """Whether the passing run is the failed line with environment assignments put before it
    (`OPENSSL_DIR=/opt/openssl cargo build` after `cargo build`), nothing else changed: the
    assignment, kept out of the typed command when it names one machine's path, is the fix."""
    if failed.run.event_id == passed.run.event_id:
        return False
    # (the steps both lines open with, `cd android && …`, are no part of it)
    old, new = after_shared_steps(as_typed(failed.run.command), as_typed(passed.run.command))
    before, after = shell_tokens(old), shell_tokens(new)
    set_before = before[: _assignments(before)]
    set_after = after[: _assignments(after)]
    rest_before, rest_after = before[len(set_before) :], after[len(set_after) :]
    return bool(rest_after) and rest_before == rest_after and not set(set_after) <= set(set_before)


def _assignments(words: Sequence[str]) -> int:
    """How many of `words` are the environment assignments a command starts with."""
    n = 0
    while n < len(words) and ENV_ASSIGNMENT.match(words[n]):
        n += 1
    return n


def run_differently(failed: Attempt, passed: Attempt, fingerprint: str) -> bool:
    """The passing run wraps the same command differently, and the error was about the call."""
    if failed.run.event_id == passed.run.event_id:
        return False
    before, after = as_typed(failed.run.command), as_typed(passed.run.command)
    # A flag that only changes how much the command prints (`-v`) is no other way to run it.
    if _without_output_flags(before) == _without_output_flags(after):
        return False
    return before != after and bool(USAGE_ERROR.search(fingerprint))


def _without_output_flags(command: str) -> list[str]:
    return [w for w in command.split() if w not in _OUTPUT_FLAGS]


def selection(attempt: Attempt) -> list[str]:
    """The arguments that choose what a run covers: those after its stable head (`mix test`,
    `vitest run`), output flags left out."""
    head = set(attempt.base.split())
    words = option_args(attempt)
    while words and words[0] in head:
        words = words[1:]
    return words


def shell_folder(failed: Attempt, passed: Attempt, fingerprint: str) -> str:
    """The sub-folder the shell was in when a path written from the project root did not
    resolve ("" when that is not what happened): the passing run names the same file by its
    full path, or relative to that sub-folder, and the error said the file was not found."""
    cwd = (failed.run.cwd or "").rstrip("/")
    if not cwd or not USAGE_ERROR.search(fingerprint):
        return ""
    before, after = option_args(failed), option_args(passed)
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
