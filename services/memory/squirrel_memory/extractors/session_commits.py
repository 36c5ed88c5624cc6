"""The commit convention seen in the `git commit -m` commands run in sessions, the
`git log --oneline` output they printed (alone, or among the output of other commands run with
it), the commits `git show` and `git log` printed in git's long format, and the recent commits
a command's injected context listed.

When a repository's history is read, its commits say how the project writes them
(`commits.py`). Without it, the commits made in sessions say the same thing on a smaller scale:
when at least `MIN_SESSION_COMMITS` distinct subjects were committed at the project (not after
a `cd` into another repository, not a failed commit) and most start with a Conventional Commits
type or a tracker id, that prefix is the project's convention; `MIN_SPREAD_COMMITS` subjects
are enough when they were made in `MIN_COMMIT_SESSIONS` sessions or more and no log of the
project's commits was printed (a prefix every session kept is the project's, not one
session's choice; a printed log says how the project's own commits read). Only the prefix is
read: the mood and capitalisation of messages an assistant wrote say more about the assistant than
about the project. A slash command's expansion (the host's words, not the user's) may list the
recent commits as `git log --oneline` prints them ("- Recent commits: eb9370f feat: …"); a run
of at least `MIN_INJECTED_SUBJECTS` such lines counts as a log the session saw. Where no prefix
holds, the logs the sessions printed (never the commits the assistant made) may show plain
subjects: `MIN_COMMITS` or more, hardly any with a prefix, most a capitalised imperative verb
("Add …", "Fix …"; a dependency bot's "Bump x from 1 to 2" left out), and that is said.

One `git show` of a pull request's squash commit is often the only history a short session
reads. In git's long format each commit is a `commit <sha>` line, its `Author:` and `Date:`
lines, then the message indented; a squash commit's subject ends with the pull request's number
(`… (#1489)`) and its body lists the subjects of the commits it squashed (`* ENG-2272 …`),
which are commits of the project too. Those subjects count as the listed ones do.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.commits import (
    CONVENTION_KEY,
    own_subjects,
    plain_convention,
    prefix_convention,
)
from squirrel_memory.extractors.evidence import Attempt, Finding
from squirrel_memory.models import StoredEvent

#: Fewest distinct commit subjects from sessions a convention is read from.
MIN_SESSION_COMMITS = 3
#: Fewest distinct subjects made in sessions when they were made in `MIN_COMMIT_SESSIONS`
#: sessions or more: a prefix every session kept is the project's, not one session's choice.
MIN_SPREAD_COMMITS = 2
MIN_COMMIT_SESSIONS = 2
#: A checkpoint commit (`wip: …`, `fixup! …`): squashed before it lands, no commit of a
#: convention.
_CHECKPOINT = re.compile(r"^(?:wip\b|fixup!|squash!|amend!)", re.IGNORECASE)
#: Prefix kinds read from sessions: a `name:` or `[name]` prefix there is as often who made the
#: commit (an agent, a teammate) as what it changes.
SESSION_PREFIXES = frozenset({"typed", "tracker"})
#: Fewest one-line log entries in a row an injected context must list to be read as a log.
MIN_INJECTED_SUBJECTS = 5
#: Commits cited by the memory (their command events), newest first.
MAX_CITED = 10

#: A line of `git log --oneline` (optionally under `--graph`, with `--decorate` refs).
_ONELINE = re.compile(r"^(?:[*|\\/ ]+\s)?[0-9a-f]{7,40}\s+(?:\([^)]*\)\s+)?(?P<subject>\S.*)$")
_ONELINE_FLAGS = frozenset({"--oneline", "--pretty=oneline", "--format=oneline"})
#: Share of a log's lines that must be one-line entries for it to be read.
MIN_ONELINE_SHARE = 0.8
#: An attempt's scope outside the project: another folder or repository.
_ELSEWHERE = ("/", "~", "..")
#: Fewest one-line entries in a row read from the output of several commands run at once.
MIN_BLOCK_ENTRIES = 2
#: The first line of a commit in git's long format (`git show`, `git log` without `--oneline`).
_LONG_HEADER = re.compile(r"^commit [0-9a-f]{7,40}\b")
#: Header lines between `commit <sha>` and the message.
_LONG_FIELDS = re.compile(r"^(?:Merge|Author|AuthorDate|Commit|CommitDate|Date):\s")
#: A squash commit's subject: it ends with the number of the pull request it merged.
_SQUASHED = re.compile(r"\s\(#\d+\)$")
#: A squashed commit's subject in a squash commit's body.
_SQUASHED_ITEM = re.compile(r"^\*\s+(?P<subject>\S.*)$")
#: Formats that are not git's long format.
_OTHER_FORMATS = ("--format", "--pretty", "--oneline", "--name-only", "--name-status", "-s")
#: A labelled first entry of an injected log ("- Recent commits: eb9370f feat: …").
_LABELLED = re.compile(r"^[-*]?\s*[A-Za-z][\w ]{0,30}:\s+(?P<entry>[0-9a-f]{7,40}\s+\S.*)$")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?[^\n]*\n(.*?)\n\s*\1\s*(?:\n|\)|$)", re.DOTALL)
_SHORT_FLAGS = re.compile(r"^-[a-zA-Z]*m$")
#: A program named before `git` that runs the git command after it (`rtk git log --oneline`,
#: `sudo git log`): a bare name. Programs that only print or describe the words after them
#: (`echo git log …`, `man git log`) run no git.
_WRAPPER = re.compile(r"[a-z][\w.-]*")
_SHOWS_ONLY = frozenset(
    {"echo", "printf", "man", "tldr", "which", "type", "whatis", "help", "info"}
)
_GIT_VALUE_OPTIONS = frozenset({"-C", "-c", "--git-dir", "--work-tree"})


def commit_message(tokens: Sequence[str]) -> str | None:
    """The message a `git commit` command line gives (`-m`, `-am`, `--message=`, a heredoc
    inside `-m "$(cat <<'EOF' … EOF)"`), or None when it gives none (an editor opens)."""
    words = list(tokens)
    if not words or words[0].rsplit("/", 1)[-1] != "git":
        return None
    at = 1
    while at < len(words) and words[at].startswith("-"):  # git's own options
        if words[at] in _GIT_VALUE_OPTIONS and at + 1 < len(words):
            if words[at] == "-C" and words[at + 1].startswith(("/", "~")):
                return None  # a commit in another repository
            at += 1
        at += 1
    if words[at : at + 1] != ["commit"]:
        return None
    options = words[at + 1 :]
    for index, word in enumerate(options):
        value: str | None = None
        if _SHORT_FLAGS.match(word) or word == "--message":
            value = options[index + 1] if index + 1 < len(options) else None
        elif word.startswith("--message="):
            value = word.split("=", 1)[1]
        if value is not None:
            heredoc = _HEREDOC.search(value)
            return heredoc.group(2) if heredoc else value
    return None


def subject_of(message: str) -> str:
    """The first non-empty line of a commit message."""
    return next((line.strip() for line in message.splitlines() if line.strip()), "")


def logged_words(tokens: Sequence[str]) -> tuple[str, ...]:
    """A command's words with the wrapper program before `git` left off (`rtk git log
    --oneline -5` reads as `git log --oneline -5`). Only a log is read this way: what it
    printed must still have a log's shape, while a commit through a wrapper may print nothing
    of git's own."""
    words = tuple(tokens)
    if (
        len(words) > 2
        and words[1] == "git"
        and words[0] not in _SHOWS_ONLY
        and words[0] != "git"
        and _WRAPPER.fullmatch(words[0])
    ):
        return words[1:]
    return words


def listed_subjects(tokens: Sequence[str], output: str, *, compound: bool = False) -> list[str]:
    """The subjects a `git log --oneline` run printed, or [] for any other command or an output
    that is not (mostly) one-line entries. When the log is one of several commands run at once
    (`compound`: `x; echo ---; git log --oneline -3`), the output holds the others' too: then
    only runs of at least `MIN_BLOCK_ENTRIES` one-line entries in a row are read."""
    words = list(tokens)
    if len(words) < 2 or words[0].rsplit("/", 1)[-1] != "git" or words[1] != "log":
        return []
    if not any(w in _ONELINE_FLAGS for w in words[2:]):
        return []
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    subjects = [m.group("subject").strip() for line in lines if (m := _ONELINE.match(line))]
    if lines and len(subjects) >= MIN_ONELINE_SHARE * len(lines):
        return subjects
    return _blocks(lines) if compound else []


def _blocks(lines: list[str]) -> list[str]:
    """The subjects of the runs of at least `MIN_BLOCK_ENTRIES` one-line log entries in a row."""
    found: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if entry := _ONELINE.match(line):
            run.append(entry.group("subject").strip())
            continue
        if len(run) >= MIN_BLOCK_ENTRIES:
            found.extend(run)
        run = []
    return found


def shown_subjects(tokens: Sequence[str], output: str) -> list[str]:
    """The commit subjects a `git show` or `git log` in git's long format printed (the
    subjects a squash commit's body lists among them), or [] for any other command. The
    commits are read by their shape (`commit <sha>`, `Author:`/`Date:`, the indented
    message), so a run of several commands may print them among other output."""
    words = list(tokens)
    if len(words) < 2 or words[0].rsplit("/", 1)[-1] != "git" or words[1] not in ("log", "show"):
        return []
    if any(w.split("=", 1)[0] in _OTHER_FORMATS for w in words[2:]):
        return []
    lines = output.splitlines()
    found: list[str] = []
    at = 0
    while at < len(lines):
        if not _LONG_HEADER.match(lines[at]):
            at += 1
            continue
        at += 1
        fields = 0
        while at < len(lines) and _LONG_FIELDS.match(lines[at]):
            fields, at = fields + 1, at + 1
        if not fields or at >= len(lines) or lines[at].strip():
            continue  # no header of a commit, or no blank line before its message
        at += 1
        message: list[str] = []
        while at < len(lines) and (lines[at].startswith("    ") or not lines[at].strip()):
            message.append(lines[at][4:].rstrip())
            at += 1
        while message and not message[-1]:
            message.pop()
        if not message or not message[0].strip():
            continue
        subject = message[0].strip()
        found.append(subject)
        if _SQUASHED.search(subject):
            found += [
                m.group("subject").strip()
                for line in message[1:]
                if (m := _SQUASHED_ITEM.match(line))
            ]
    return found


def injected_subjects(events: list[StoredEvent]) -> dict[str, str]:
    """The subjects (with their event) of the one-line logs the host injected into a session:
    runs of at least `MIN_INJECTED_SUBJECTS` `git log --oneline` lines in its context."""
    found: dict[str, str] = {}
    for event in events:
        text = event.content.get("text")
        if (
            event.event_type != EventType.USER_MESSAGE
            or event.origin != str(Origin.HARNESS)
            or not isinstance(text, str)
        ):
            continue
        run: list[str] = []
        for line in [*text.splitlines(), ""]:
            labelled = _LABELLED.match(line.strip())
            entry = _ONELINE.match(labelled.group("entry") if labelled else line.strip())
            if entry and not (labelled and run):
                run.append(entry.group("subject").strip())
                continue
            if len(run) >= MIN_INJECTED_SUBJECTS:
                found.update((subject, event.id) for subject in run if subject not in found)
            run = [entry.group("subject").strip()] if entry else []
    return found


def session_convention(
    found: list[Attempt], injected: dict[str, str] | None = None
) -> Finding | None:
    """The commit convention the commits made in sessions follow, else the one the subjects a
    `git log --oneline` at the project listed follow, else the one of the logs the host
    injected (`injected_subjects`), or None."""
    made: dict[str, str] = {}
    made_in: set[str | None] = set()
    listed: dict[str, str] = {}
    shown: dict[str, str] = {}
    per_run = Counter(attempt.run.event_id for attempt in found)
    # A run with a command in another folder prints that folder's log beside the project's,
    # unmarked: no log of it is read.
    mixed = {
        a.run.event_id
        for a in found
        if a.scope.startswith(_ELSEWHERE)
        or (
            (words := logged_words(a.tokens))[:2] == ("git", "-C")
            and words[2:3] not in ((".",), ("./",))
        )
    }
    for attempt in found:
        if attempt.run.ok is False or attempt.scope.startswith(_ELSEWHERE):
            continue
        message = commit_message(attempt.tokens)
        subject = subject_of(message) if message else ""
        if subject:
            made[subject] = attempt.run.event_id
            made_in.add(attempt.run.session_id)
        compound = per_run[attempt.run.event_id] > 1
        output = "" if attempt.run.event_id in mixed else attempt.run.output
        logged = logged_words(attempt.tokens)
        for seen in listed_subjects(logged, output, compound=compound):
            listed.setdefault(seen, attempt.run.event_id)
        for seen in shown_subjects(logged, output):
            # A squash commit's subject and its first squashed commit's are one commit.
            shown.setdefault(_SQUASHED.sub("", seen), attempt.run.event_id)
    return (
        _convention(made, "made in sessions", _made_minimum(made_in, listed or shown))
        or _convention(listed, "listed by `git log` in sessions")
        or _convention(shown, "shown by `git show` or `git log` in sessions")
        or _convention(injected or {}, "listed in the recent commits a command's context showed")
        or _plain({**(injected or {}), **shown, **listed})
    )


def _plain(logged: dict[str, str]) -> Finding | None:
    """Plain imperative subjects with no prefix, read from the logs the sessions printed (the
    project's own commits; never the ones the assistant made, whose mood is the assistant's)."""
    found = plain_convention(list(logged))
    if found is None:
        return None
    imperative, total = found
    text = (
        "Commit subjects are plain sentences in the imperative mood (“Add …”, “Fix …”) with no "
        f"Conventional Commits type prefix — {imperative} of {total} commits the sessions' "
        "logs listed start that way."
    )
    cited = tuple(reversed(list(logged.values())))[:MAX_CITED]
    return Finding("fact", CONVENTION_KEY, text, ("convention", "commits", "git"), 0.6, cited)


def _made_minimum(sessions: set[str | None], logged: dict[str, str]) -> int:
    """The fewest subjects made in sessions a convention is read from: fewer when the commits
    were made in several sessions (`MIN_SPREAD_COMMITS`) and no log the sessions printed
    (`logged`) shows how the project's own commits read."""
    known = {s for s in sessions if s}
    if logged or len(known) < MIN_COMMIT_SESSIONS:
        return MIN_SESSION_COMMITS
    return MIN_SPREAD_COMMITS


def _convention(
    subjects: dict[str, str], where: str, minimum: int = MIN_SESSION_COMMITS
) -> Finding | None:
    own = [subject for subject in own_subjects(subjects) if not _CHECKPOINT.match(subject)]
    if len(own) < minimum:
        return None
    convention = prefix_convention(own, SESSION_PREFIXES)
    if convention is None:
        return None
    phrase, count = convention
    text = f"Commit subjects {phrase} — {count} of {len(own)} commits {where} follow it."
    cited = tuple(reversed(list(subjects.values())))[:MAX_CITED]
    return Finding("fact", CONVENTION_KEY, text, ("convention", "commits", "git"), 0.6, cited)
