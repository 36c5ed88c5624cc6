"""A commit gate's output: the checks its hooks report by name, and whether a commit ran them."""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS
from squirrel_memory.extractors.evidence import Attempt

#: A check a commit hook reports by name: `ruff....Failed` (pre-commit), `✖ eslint --fix`,
#: `[FAILED] tsc --noEmit` (lint-staged), `name: failed` / `name (failed)` (other runners).
_HOOK_CHECK = re.compile(
    r"^[ \t]*(?:(?P<dots>[A-Za-z][\w .:/+()-]{1,48}?)[ \t]*\.{3,}[^.\n]*?"
    r"\b(?:Passed|Failed|Skipped)\b|"
    r"(?:[✖✔✓✗×]|\[(?:FAILED|STARTED|COMPLETED|SUCCESS)\])\s+"
    r"(?P<mark>[\w@./:-]+(?: [\w@./:=-]+){0,3}))",
    re.MULTILINE,
)


def is_commit(attempt: Attempt) -> bool:
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    return attempt.program == "git" and bool(words) and words[0] == "commit"


_HOOK_WORD = re.compile(r"\bhooks?\b", re.IGNORECASE)


def gated(output: str) -> bool:
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


def hooks_checks(attempt: Attempt) -> list[str]:
    """The checks a run's hooks report (`hook_checks`), when its output is hooks': a git
    command's, or one that says "hook" (a build's `✓ built in 2.31s` is no hook's check)."""
    output = attempt.run.output
    if attempt.program != "git" and not _HOOK_WORD.search(output[:MAX_OUTPUT_SCAN_CHARS]):
        return []
    return hook_checks(output)
