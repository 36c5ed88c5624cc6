"""A failure of the session paired with the commit that says it fixed it.

A command failed with an error naming something (an exception, an identifier, a file); a commit
made within `MAX_FIX_DELAY` after it (in the same episode, or anywhere in the project's stored
history when the processor looks project-wide) says it fixes, handles or resolves that very
thing, or fixes and changes a file the error named — on one line of its message, so a list of
changes where one line fixes something else and another names the error claims nothing. The
pair becomes a pitfall keyed by the
error's fingerprint, so it merges with the pitfall of the same error found in other ways, and
cites the commit (`commit:<sha>`). Only what the commit message says is claimed.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS, CommandRun
from squirrel_memory.extractors.commits import Commit, commits_in
from squirrel_memory.extractors.pitfalls import error_fingerprint, fingerprint_key
from squirrel_memory.extractors.wording import sentence
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

#: A commit counts as the fix of a failure only within this long after it.
MAX_FIX_DELAY = timedelta(days=2)
#: Lines of a failed command's output searched for the names an error mentions.
MAX_ERROR_LINES = 40
_FIX_WORDS = re.compile(
    r"\b(?:fix(?:e[sd])?|resolve[sd]?|handle[sd]?|correct(?:s|ed)?|repair(?:s|ed)?|"
    r"prevent(?:s|ed)?|avoid(?:s|ed)?|work ?around|close[sd]?)\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"[`'\"‘“]([^`'\"’”\s]{3,80})[`'\"’”]")
_IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\b")
_PATH = re.compile(r"(?:[\w.~-]*/)+[\w.@-]+\.[A-Za-z0-9]{1,8}\b|\b[\w-]+\.[a-z]{1,5}\b")
#: A run of the characters a path is made of: a path never spans two runs, and a run longer
#: than a path can be is no path (reading it from each of its characters would take long).
_PATH_RUN = re.compile(r"[\w.~/@-]+")
_MAX_PATH_CHARS = 512
#: Words of error text too common to tie a commit to one error.
_COMMON = frozenset(
    str.split(
        "error errors exception failed failure fail assert assertion true false none null test "
        "tests line file files module object type value name import cannot could not found "
        "expected actual unexpected undefined missing invalid warning traceback most recent call "
        "last from with that this have does argument arguments function return"
    )
)


def _distinctive(word: str) -> bool:
    """A name only code would use: `snake_case`, `dotted.name`, `camelCase`, `kebab-case`, a
    path or one with digits."""
    return bool(re.search(r"[_./\\-]|\d|[a-z][A-Z]", word))


def _error_names(output: str) -> tuple[set[str], set[str]]:
    """(identifiers, file names) an error output mentions, in lower case."""
    lines = output[:MAX_OUTPUT_SCAN_CHARS].splitlines()[:MAX_ERROR_LINES]
    text = "\n".join(lines)
    files = {
        PurePosixPath(p).name.lower()
        for run in _PATH_RUN.findall(text)
        if len(run) <= _MAX_PATH_CHARS
        for p in _PATH.findall(run)
    }
    names: set[str] = set()
    for quoted in _QUOTED.findall(text):
        name = quoted.strip(".,:;()")
        # A plain word in quotes ('data', 'origin') names too many things to tie a commit to.
        if _distinctive(name) or len(name) >= 8:
            names.add(name.lower())
    for word in _IDENTIFIER.findall(error_fingerprint(output)):
        if len(word) >= 4 and word.lower() not in _COMMON and _distinctive(word):
            names.add(word.lower())
    names -= _COMMON
    return {n for n in names if len(n) >= 3}, {f for f in files if f not in _COMMON}


def _fixes(commit: Commit, names: set[str], files: set[str]) -> bool:
    """Whether one line of the commit message says it fixes a name of the error, or fixes a
    file the error named that the commit changes: a fix word on one line of a list of changes
    and the name on another ("Fix typo in README" / "Add user_id") is no claim."""
    changed = {PurePosixPath(f).name.lower() for f in commit.files}
    for line in f"{commit.subject}\n{commit.body}".splitlines():
        if not _FIX_WORDS.search(line):
            continue
        lowered = line.lower()
        if any(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w])", lowered) for n in names):
            return True
        if {f for f in files if f in lowered} & changed:
            return True
    return False


def commit_fixes(events: list[StoredEvent], runs: list[CommandRun]) -> list[MemoryCandidate]:
    """Pitfalls whose fix is a later commit of the same events that names the error."""
    commits = commits_in(events)
    if not commits:
        return []
    found: dict[str, MemoryCandidate] = {}
    for run in runs:
        if run.ok is not False:
            continue
        fingerprint = error_fingerprint(run.output)
        key = fingerprint_key(fingerprint) if fingerprint else ""
        if not fingerprint or key in found:
            continue
        names, files = _error_names(run.output)
        later = [
            c for c in commits if run.timestamp <= c.timestamp <= run.timestamp + MAX_FIX_DELAY
        ]
        commit = next((c for c in later if _fixes(c, names, files)), None)
        if commit is None:
            continue
        command = " ".join(run.command.splitlines()[0].split())[:80]
        content = sentence(
            f"`{command}` failed with `{fingerprint}`; commit {commit.sha[:7]} fixed it "
            f"(“{commit.subject}”)"
        )
        if content is None:
            continue
        touched = tuple(f for f in commit.files if PurePosixPath(f).name.lower() in files)
        found[key] = MemoryCandidate(
            type=MemoryType.PITFALL,
            key=key,
            content=content,
            tags=("pitfall", "commit"),
            importance=0.6,
            file_paths=touched or commit.files[:4],
            source_event_ids=(run.event_id, commit.event_id),
            source_refs=(commit.ref,),
            rule="commit_fixes",
        )
    return list(found.values())
