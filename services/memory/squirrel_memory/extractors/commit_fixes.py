"""A failure of the session paired with the commit that says it fixed it.

A command failed with an error naming something (an exception, an identifier, a file); a commit
made within `MAX_FIX_DELAY` after it (in the same episode, or anywhere in the project's stored
history when the processor looks project-wide) says it fixes, handles or resolves that very
thing, or fixes and changes a file the error named. The pair becomes a pitfall keyed by the
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
#: Words of error text too common to tie a commit to one error.
_COMMON = frozenset(
    str.split(
        "error errors exception failed failure fail assert assertion true false none null test "
        "tests line file files module object type value name import cannot could not found "
        "expected actual unexpected undefined missing invalid warning traceback most recent call "
        "last from with that this have does argument arguments function return"
    )
)


def _error_names(output: str) -> tuple[set[str], set[str]]:
    """(identifiers, file names) an error output mentions, in lower case."""
    lines = output[:MAX_OUTPUT_SCAN_CHARS].splitlines()[:MAX_ERROR_LINES]
    text = "\n".join(lines)
    files = {PurePosixPath(p).name.lower() for p in _PATH.findall(text)}
    names: set[str] = set()
    for quoted in _QUOTED.findall(text):
        names.add(quoted.lower().strip(".,:;()"))
    for word in _IDENTIFIER.findall(error_fingerprint(output)):
        distinctive = "_" in word or "." in word or re.search(r"[a-z][A-Z]", word)
        if len(word) >= 4 and word.lower() not in _COMMON and distinctive:
            names.add(word.lower())
    names -= _COMMON
    return {n for n in names if len(n) >= 3}, {f for f in files if f not in _COMMON}


def _fixes(commit: Commit, names: set[str], files: set[str]) -> bool:
    message = f"{commit.subject}\n{commit.body}"
    if not _FIX_WORDS.search(message):
        return False
    lowered = message.lower()
    if any(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w])", lowered) for n in names):
        return True
    changed = {PurePosixPath(f).name.lower() for f in commit.files}
    named = {f for f in files if f in lowered}
    return bool(named & changed)


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
        )
    return list(found.values())
