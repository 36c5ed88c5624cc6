"""What makes a run a retry of a failed command, and what a retry changed.

A passing run fixes a failure only when it is that command again: the same targets with other
options (`git push -u origin dev` after `git push`), or the same command with something put
before it (`bundle exec rspec` after `rspec: command not found`), unless the error was about
the call itself (a wrong path or name), which another target can fix. A version-control query
that only reads history (`git log`, `git show`) and failed is a probe of the repository, not a
pitfall. A run that passed with a warning an edit then cleared is known by that warning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS
from squirrel_memory.extractors.evidence import Attempt
from squirrel_memory.extractors.evidence.cleared_warnings import is_warning

#: Errors about how a command was called (a wrong path, flag or name): another spelling fixes
#: them, so a re-run of a check with other arguments is their fix.
USAGE_ERROR = re.compile(
    r"no such file|not found|unrecognized|unknown (?:option|flag|command|argument)|usage:|"
    r"invalid (?:option|argument|choice)|no tests? (?:ran|collected|found)|does not exist",
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
    return all(t in kept for t in _targets(failed.tokens[1:])) or bool(
        USAGE_ERROR.search(fingerprint)
    )


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
    old, new = _without_assignments(as_typed(before)), _without_assignments(as_typed(after))
    if not old or old == new or not new.endswith(" " + old):
        return ""
    prefix = new[: -len(old)].strip()
    return prefix if 0 < len(prefix) <= 60 and "`" not in prefix else ""


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
