"""Commands that only report the state of something: a look, whatever program runs it.

A subcommand that lists, shows or plans (`docker ps`, `kubectl get pods`, `gh pr checks 57`,
`terraform plan`, `helm template`, `systemctl status x`) and any command given a rehearsal
option (`--dry-run`, `--check`, `--what-if`) change nothing; neither does a fetch of a URL
that sends no data and writes no file but `/dev/null` (`curl -s localhost:8000/health`).
Such a command run between a failure and its pass fixed nothing, and one run when the user
asked for a routine (run the tests) is not how the routine is done.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Subcommands that only show what is there, in any program's words.
_REPORTING = frozenset(
    {"ps", "get", "describe", "list", "ls", "show", "status", "view", "info", "inspect"}
    | {"logs", "log", "top", "stats", "images", "events", "history", "checks", "plan"}
    | {"template", "output", "outputs", "whoami", "version", "diff", "explain", "doctor"}
)
#: Options of any program that rehearse rather than do.
_REHEARSAL = re.compile(
    r"^(?:--dry-?run(?:=\S*)?|--dry|--what-?if|--noop|--check-only|--plan)$", re.IGNORECASE
)
#: Programs that fetch a URL and print it (wget saves it unless told otherwise), and the words
#: that make a fetch change something: data or a method sent, a file uploaded or written.
_FETCHERS = frozenset({"curl", "http", "https", "xh"})
_SENDS = re.compile(
    r"^(?:-[A-Za-z]*[dFTX]\S*|--data\S*|--form\S*|--json|--upload-file|--request|--post-\S+|"
    r"--method\S*|POST|PUT|PATCH|DELETE|[\w-]+:?=\S*)$"
)
_WRITES = re.compile(r"^(?:-[A-Za-z]*[oO]|--output|--remote-name\S*|--download|-d)$")
_DISCARDED = frozenset({"/dev/null", "-"})
_WGET_LOOKS = frozenset({"--spider", "-qO-", "-O-"})


def rehearses(words: Sequence[str]) -> bool:
    """Whether a command's words hold a rehearsal option (`--dry-run`): it changes nothing."""
    return any(_REHEARSAL.match(w) for w in words)


def only_reports(program: str, words: Sequence[str]) -> bool:
    """Whether `program` given `words` (the words after it) only reports state: a rehearsal,
    a fetch that reads, or a reporting subcommand among its first two (`gh pr checks`)."""
    if rehearses(words):
        return True
    if program in _FETCHERS:
        return _fetch_only_reads(words)
    if program == "wget":
        return any(w in _WGET_LOOKS for w in words) or _discards(words, ("-O", "-qO"))
    positional = [w.lower() for w in words if not w.startswith("-")]
    return any(w in _REPORTING for w in positional[:2])


def _fetch_only_reads(words: Sequence[str]) -> bool:
    for i, word in enumerate(words):
        if _WRITES.match(word):
            if i + 1 < len(words) and words[i + 1] in _DISCARDED:
                continue
            return False
        if _SENDS.match(word):
            return False
    return True


def _discards(words: Sequence[str], options: tuple[str, ...]) -> bool:
    return any(
        w in options and i + 1 < len(words) and words[i + 1] in _DISCARDED
        for i, w in enumerate(words)
    )
