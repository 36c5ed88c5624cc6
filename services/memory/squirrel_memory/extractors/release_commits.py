"""The commits and pushes of a release whose version was bumped before the session.

A version bumped before the session (an earlier session, a release tool) shows no bump; the
session still released when a passing commit of it names the tag's version (`git commit -m
"release 1.4.2"`, `jj describe -m "feat: … (v1.4.2)"`): a release word with the version, or
the tag as written where no preposition makes it a reference ("regression in 3.4.0" is not a
release). The pushes and bookmark moves after that commit are steps of the release when they
send the main line (`git push origin main`, `jj bookmark set main -r @`, `jj git push -b
main`); a feature branch's push is not. `release_steps` puts them in order with the tag.
"""

from __future__ import annotations

import re
from datetime import datetime

from squirrel_memory.extractors.activity import CommandRun, split_segments

MAX_SUBJECT_CHARS = 80
#: Words that make a commit's subject a release of the version it names.
_RELEASE_WORD = re.compile(
    r"\b(?:release[sd]?|releasing|bump(?:ed|s)?|version|publish(?:ed)?|"
    r"prepare|cut)\b",
    re.IGNORECASE,
)
#: A preposition just before a version: a reference to it ("regression in 3.4.0", "since v2").
_REFERENCE = re.compile(r"\b(?:in|since|from|before|after|until|of|on|to|than)\s*\(?$", re.I)
#: Commands that record a commit with its message.
_COMMITS = re.compile(r"(?:git|hg|sl) commit\b|jj (?:commit|describe|desc)\b")
#: The names of a project's main line.
_MAIN_LINES = frozenset({"main", "master", "trunk", "develop", "HEAD"})
#: Commands that send a commit or move the branch a push sends.
_SENDS = re.compile(r"(?:git|hg|sl) push\b|jj (?:git push|bookmark (?:set|move))\b")
_SUBJECT = (
    re.compile(r"<<-?\s*['\"]?(\w+)['\"]?\s*\n\s*(?P<subject>[^\n]+)"),
    re.compile(r"(?:(?<!\S)-[a-zA-Z]*m|--message)[\s=]+([\"'])(?P<subject>[^\n]+?)(?:\1|\n)"),
)
_REDIRECT = re.compile(r"(?<!\s)\s+\d?>>?\s*(?:&\d|/dev/null)")


def as_run(run: CommandRun) -> list[str]:
    """Each simple command of `run` as it was typed, redirections and pipes left off."""
    return [_REDIRECT.sub("", part).strip() for part in split_segments(run.command)]


def commit_subject(command: str) -> str:
    """The subject a commit command gives (`-m "…"`, a heredoc's first line), else ""."""
    for shape in _SUBJECT:
        found = shape.search(command)
        if found:
            return found.group("subject").strip()
    return ""


def records_commit(text: str) -> bool:
    """Whether a simple command records a commit with its message (`git commit`, `jj
    describe`)."""
    return bool(_COMMITS.match(text))


def releases(subject: str, word: re.Pattern[str], tag: str) -> bool:
    """Whether a commit's subject reads as the release of the version: a release word with
    the version ("Release 1.2.0", "chore: bump to 1.2.0"), or the tag as written where no
    preposition makes it a reference ("feat: rebase revset input (v0.4.5)", but not
    "regression in v3.4.0")."""
    if not subject or len(subject) > MAX_SUBJECT_CHARS or not word.search(subject):
        return False
    if _RELEASE_WORD.search(subject):
        return True
    at = subject.find(tag)
    return at >= 0 and not _REFERENCE.search(subject[:at])


def sent(runs: list[CommandRun], ids: list[str], max_chars: int) -> list[tuple[datetime, str]]:
    """The pushes and bookmark moves of the main line among the passing `runs`, as run and at
    most `max_chars` long (their events added to `ids`)."""
    found: list[tuple[datetime, str]] = []
    for run in runs:
        if run.ok is not True:
            continue
        for text in as_run(run):
            if _SENDS.match(text) and len(text) <= max_chars and to_main(text):
                found.append((run.timestamp, f"`{text}`"))
                ids.append(run.event_id)
    return found


def to_main(text: str) -> bool:
    """Whether a push or bookmark move sends the main line (`git push`, `git push origin
    main`, `jj git push -b main`, `jj bookmark set main -r @`), not another branch: a feature
    branch's push is no step of a release."""
    words = text.split()
    named = [w for n, w in enumerate(words) if n >= 2 and not w.startswith("-")]
    if words[:2] in (["jj", "bookmark"],):
        named = named[1:2]  # the bookmark; `-r @` is where it goes
    elif words[:3] == ["jj", "git", "push"]:
        named = [w for n, w in enumerate(words) if n > 0 and words[n - 1] in ("-b", "--bookmark")]
    else:
        named = named[1:]  # after the remote
    return all(w.split(":")[-1] in _MAIN_LINES for w in named if w not in ("HEAD",))
