"""What git recorded: the commit convention and migrations named in commit messages.

Commit events carry the message, author and files of each commit of a registered repository
(no diff). Their subjects say how this project writes commits; a share of commits following a
pattern at or above `MIN_SHARE` (over at least `MIN_COMMITS` commits, merges and reverts left
out) makes it part of the convention. Subjects that name a move between known tools or
frameworks ("Switch from npm to pnpm", "Replace MySQL with PostgreSQL") become project facts.
Every memory cites its commits: event ids in `source_event_ids`, `commit:<sha>` in
`source_refs`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from squirrel_core.events import EventType
from squirrel_memory.extractors.manifests import known_stack
from squirrel_memory.extractors.toolchain import known_tools
from squirrel_memory.extractors.wording import key_slug, sentence, stem
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

#: Fewest commits (merges and reverts left out) a convention is read from.
MIN_COMMITS = 8
#: Share of those commits that must follow a pattern for it to be part of the convention.
MIN_SHARE = 0.6
#: Commits cited by one convention memory, newest first.
MAX_CITED = 20
MAX_SUBJECT_CHARS = 200
CONVENTION_KEY = "convention:commits"

_SHA = re.compile(r"^[0-9a-f]{7,64}$")
_MERGE = re.compile(
    r"^(?:Merge (?:pull request|branch|remote-tracking branch|tag|commit)\b|Merged? \S+ into )",
    re.IGNORECASE,
)
_REVERT = re.compile(r'^Revert\b\s*"?', re.IGNORECASE)
_CONVENTIONAL_TYPES = frozenset(
    {"feat", "fix", "chore", "docs", "doc", "refactor", "test", "tests", "style", "perf"}
    | {"build", "ci", "revert", "deps", "release", "wip", "security", "i18n", "ops"}
)
_TYPED_PREFIX = re.compile(r"^(?P<type>[a-z]+)(?:\((?P<scope>[^()\s][^()]{0,40})\))?!?:\s+\S")
_COMPONENT_PREFIX = re.compile(r"^(?P<component>[\w./-]{1,40}):\s+\S")
_BRACKET_PREFIX = re.compile(r"^\[(?P<tag>[^\]]{1,30})\]:?\s*\S")
_TRACKER_PREFIX = re.compile(r"^\[?[A-Z][A-Z0-9]{1,9}-\d+\]?:?\s+(?=\S)")
_EMOJI_PREFIX = re.compile(r"^(?::[a-z0-9_+-]+:|[\U0001F300-\U0001FAFF\u2600-\u27BF])")
_ISSUE_HASH = re.compile(r"(?<![\w&/])#\d+\b")
_ISSUE_KEY = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d+\b")
_SIGN_OFF = re.compile(r"^Signed-off-by:", re.IGNORECASE | re.MULTILINE)
_LEAD_SYMBOLS = re.compile(r"^[^\w]+")
#: First words of an imperative subject ("Add …", "Fix …"); other forms are told by suffix.
_IMPERATIVE = frozenset(
    str.split(
        "add allow avoid bump change clean cleanup configure convert correct create delete "
        "deprecate disable document drop enable ensure expose extract fix handle hide ignore "
        "implement improve include increase initialize introduce keep limit log make mark merge "
        "migrate move optimize prepare prevent raise read refactor reduce release remove rename "
        "reorganize replace restore restructure return revert rework run set show simplify skip "
        "sort split start stop support switch tidy test track tweak update upgrade use validate "
        "write"
    )
)
_NOT_PAST = frozenset({"need", "embed", "feed", "speed", "seed", "shed", "red", "bed", "proceed"})
_MOVE = re.compile(
    r"\b(?:switch|migrate|move|port|convert|transition)(?:e?d|es|s|ing)?\s+"
    r"(?:(?:the\s+)?[\w-]+\s+){0,2}?from\s+(?P<old>[\w.+#-]+(?:\s[\w.+#-]+)?)\s+"
    r"(?:to|onto)\s+(?P<new>[\w.+#-]+(?:\s[\w.+#-]+)?)",
    re.IGNORECASE,
)
_REPLACE = re.compile(
    r"\breplac(?:e|ed|es|ing)\s+(?P<old>[\w.+#-]+(?:\s[\w.+#-]+)?)\s+(?:with|by)\s+"
    r"(?P<new>[\w.+#-]+(?:\s[\w.+#-]+)?)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Commit:
    """One commit event: sha, subject line, body, files changed."""

    event_id: str
    sha: str
    subject: str
    body: str
    files: tuple[str, ...]
    timestamp: datetime

    @property
    def ref(self) -> str:
        """The source reference of this commit (`commit:<sha>`)."""
        return f"commit:{self.sha}"


def commits_in(events: Iterable[StoredEvent]) -> list[Commit]:
    """The commit events among `events`, oldest first; malformed ones are skipped."""
    found: list[Commit] = []
    for event in events:
        if event.event_type != EventType.COMMIT:
            continue
        sha, message = event.content.get("sha"), event.content.get("message")
        if not isinstance(sha, str) or not _SHA.match(sha.strip().lower()):
            continue
        if not isinstance(message, str) or not message.strip():
            continue
        subject, _, body = message.strip().partition("\n")
        files = event.content.get("files_changed")
        found.append(
            Commit(
                event_id=event.id,
                sha=sha.strip().lower(),
                subject=" ".join(subject.split())[:MAX_SUBJECT_CHARS],
                body=body.strip(),
                files=tuple(f for f in files if isinstance(f, str))
                if isinstance(files, list)
                else (),
                timestamp=event.timestamp,
            )
        )
    return sorted(found, key=lambda c: (c.timestamp, c.sha))


#: Prefix kinds other than Conventional Commits: (kind, how subjects start, count wording).
_PREFIX_WORDING = (
    ("component", "start with the component they change (`component: summary`)", "name one"),
    ("tracker", "start with the tracker id (`ABC-123 summary`)", "start with one"),
    ("bracket", "start with a bracketed tag (`[tag] summary`)", "start with one"),
    ("emoji", "start with an emoji", "start with one"),
)


@dataclass(slots=True)
class _Shares:
    total: int = 0
    typed: int = 0
    scoped: int = 0
    prefixes: Counter[str] = field(default_factory=Counter)
    imperative: int = 0
    past: int = 0
    capital: int = 0
    lower: int = 0
    issue_hash: int = 0
    issue_key: int = 0
    signed_off: int = 0
    types: Counter[str] | None = None
    trackers: Counter[str] = field(default_factory=Counter)


def _summary(subject: str) -> tuple[str, str]:
    """(prefix kind, the words after any prefix) of a subject line."""
    if (match := _TYPED_PREFIX.match(subject)) and match.group("type") in _CONVENTIONAL_TYPES:
        return "typed", subject.split(":", 1)[1].strip()
    if match := _TRACKER_PREFIX.match(subject):
        return "tracker", subject[match.end() :].strip()
    if _BRACKET_PREFIX.match(subject):
        return "bracket", subject.split("]", 1)[1].lstrip(": ").strip()
    if _EMOJI_PREFIX.match(subject):
        return "emoji", _LEAD_SYMBOLS.sub("", re.sub(r"^:[a-z0-9_+-]+:", "", subject)).strip()
    if _COMPONENT_PREFIX.match(subject):
        return "component", subject.split(":", 1)[1].strip()
    return "", subject


def _mood(summary: str) -> str:
    word = summary.split(maxsplit=1)[0].lower().strip(".,:;!") if summary.split() else ""
    if not word.isalpha():
        return ""
    if word in _IMPERATIVE:
        return "imperative"
    if word.endswith("ed") and word not in _NOT_PAST and len(word) > 4:
        return "past"
    if (word.endswith("s") and stem(word) in _IMPERATIVE) or word.endswith("ing"):
        return "other"
    return ""


def _tally(commits: list[Commit]) -> _Shares:
    shares = _Shares(types=Counter())
    for commit in commits:
        shares.total += 1
        kind, summary = _summary(commit.subject)
        if kind == "typed" and (match := _TYPED_PREFIX.match(commit.subject)):
            shares.typed += 1
            shares.scoped += 1 if match.group("scope") else 0
            assert shares.types is not None
            shares.types[match.group("type")] += 1
        shares.prefixes[kind] += 1
        if kind == "tracker" and (key := _ISSUE_KEY.search(commit.subject)):
            shares.trackers[key.group().rsplit("-", 1)[0]] += 1
        mood = _mood(summary)
        shares.imperative += mood == "imperative"
        shares.past += mood == "past"
        shares.capital += summary[:1].isupper()
        shares.lower += summary[:1].islower()
        message = f"{commit.subject}\n{commit.body}"
        shares.issue_hash += bool(_ISSUE_HASH.search(message))
        shares.issue_key += bool(_ISSUE_KEY.search(message))
        shares.signed_off += bool(_SIGN_OFF.search(commit.body))
    return shares


def _share(count: int, total: int) -> bool:
    return total > 0 and count / total >= MIN_SHARE


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _prefix_convention(
    s: _Shares, kinds: frozenset[str] | None = None
) -> tuple[str, int, str] | None:
    """(how subjects start, how many do, count wording) when a prefix convention of one of
    `kinds` (all when None: `typed`, `component`, `tracker`, `bracket`, `emoji`) holds."""
    if _share(s.typed, s.total) and (kinds is None or "typed" in kinds):
        assert s.types is not None
        shape = "`type(scope): summary`" if _share(s.scoped, s.typed) else "`type: summary`"
        names = ", ".join(t for t, _ in s.types.most_common(4))
        phrase = f"start with a Conventional Commits prefix {shape} ({names})"
        return phrase, s.typed, "use the prefix"
    for kind, phrase, tail in _PREFIX_WORDING:
        if _share(s.prefixes[kind], s.total) and (kinds is None or kind in kinds):
            said = phrase
            if kind == "tracker" and s.trackers:
                # One tracker's ids in most subjects: its key is what the subjects start with.
                key, count = s.trackers.most_common(1)[0]
                if _share(count, s.prefixes[kind]):
                    said = f"start with the tracker id (`{key}-<number> summary`)"
            return said, s.prefixes[kind], tail
    return None


def own_subjects(subjects: Iterable[str]) -> list[str]:
    """The subjects of commits of their own: merges, reverts and empty subjects left out."""
    return [t for t in subjects if t.strip() and not _MERGE.match(t) and not _REVERT.match(t)]


def prefix_convention(
    subjects: list[str], kinds: frozenset[str] | None = None
) -> tuple[str, int] | None:
    """How most of `subjects` start (a Conventional Commits type, a component, a tracker id,
    a bracketed tag or an emoji; only `kinds` when given) and how many of them do, or None
    without such a prefix. Merges and reverts are left out; the caller sets a minimum count."""
    own = [" ".join(t.split())[:MAX_SUBJECT_CHARS] for t in own_subjects(subjects)]
    commits = [Commit("", "0" * 7, t, "", (), datetime.min) for t in own]
    s = _tally(commits)
    found = _prefix_convention(s, kinds)
    return (found[0], found[1]) if found else None


#: Largest share of subjects with a prefix of any kind that still reads as plain subjects.
MAX_PLAIN_PREFIXED = 0.2
#: A dependency bot's subject ("Bump lodash from 4.17.20 to 4.17.21", "Update dependency x to
#: v2"): the bot's wording, not the project's.
_BOT_SUBJECT = re.compile(
    r"^(?:Bump \S+ from \S+ to \S+|Update (?:dependency |module |rust crate )?\S+ to v?\d)"
)


def plain_convention(subjects: list[str]) -> tuple[int, int] | None:
    """(how many start with an imperative verb, how many were read) when `subjects` carry no
    prefix of any kind (at most `MAX_PLAIN_PREFIXED` of them do) and `MIN_SHARE` of them or
    more start with a capitalised imperative verb ("Add …", "Fix …"), at least `MIN_COMMITS`
    subjects (merges, reverts and a dependency bot's subjects left out); None otherwise."""
    own = [
        " ".join(t.split())[:MAX_SUBJECT_CHARS]
        for t in own_subjects(subjects)
        if not _BOT_SUBJECT.match(t)
    ]
    s = _tally([Commit("", "0" * 7, t, "", (), datetime.min) for t in own])
    if s.total < MIN_COMMITS or s.total - s.prefixes[""] > MAX_PLAIN_PREFIXED * s.total:
        return None
    if not (_share(s.imperative, s.total) and _share(s.capital, s.total)):
        return None
    return s.imperative, s.total


def convention_text(commits: list[Commit]) -> str | None:
    """The commit convention of `commits` as one sentence, or None below the thresholds."""
    own = [c for c in commits if not _MERGE.match(c.subject) and not _REVERT.match(c.subject)]
    s = _tally(own)
    if s.total < MIN_COMMITS:
        return None
    parts: list[str] = []
    prefix = _prefix_convention(s)
    lead = ""
    if prefix is not None:
        parts.append(prefix[0])
        lead = f"{prefix[1]} of {s.total} commits {prefix[2]}"
    if _share(s.imperative, s.total):
        parts.append("use the imperative mood (“Add …”, not “Added …”)")
    elif _share(s.past, s.total):
        parts.append("are written in the past tense (“Added …”)")
    if not lead and _share(s.capital, s.total):
        parts.append("start with a capital letter")
    if _share(s.issue_hash, s.total):
        parts.append("reference issues like `#123`")
    elif _share(s.issue_key, s.total) and not _share(s.prefixes["tracker"], s.total):
        parts.append("reference tracker ids like `ABC-123`")
    if _share(s.signed_off, s.total):
        parts.append("are signed off (`Signed-off-by:`)")
    if not parts:
        return None
    counted = lead or f"read from {s.total} commits"
    return sentence(f"Commit subjects {_join(parts)} — {counted}")


def _candidate(
    key: str,
    content: str,
    commits: list[Commit],
    tags: tuple[str, ...],
    importance: float,
) -> MemoryCandidate:
    return MemoryCandidate(
        type=MemoryType.PROJECT_FACT,
        key=key,
        content=content,
        tags=tags,
        importance=importance,
        file_paths=(),
        source_event_ids=tuple(c.event_id for c in commits),
        source_refs=tuple(c.ref for c in commits),
        rule="commits",
    )


def _known_names() -> dict[str, str]:
    names = dict(known_tools())
    names.update(known_stack())
    return {n: kind for n, kind in names.items() if len(n) > 1}


_NAMES = _known_names()


def _known(phrase: str) -> str | None:
    """The known tool or framework a phrase names ("PostgreSQL", "the pnpm"), or None."""
    words = phrase.lower().strip(".,;:").split()
    for size in (2, 1):
        for start in range(len(words) - size + 1):
            name = " ".join(words[start : start + size])
            if name in _NAMES:
                return name
    return None


def migrations(commits: list[Commit]) -> list[MemoryCandidate]:
    """Facts from subjects that move the project from one known tool or framework to another."""
    found: dict[str, MemoryCandidate] = {}
    for commit in commits:
        if _MERGE.match(commit.subject) or _REVERT.match(commit.subject):
            continue
        match = _MOVE.search(commit.subject) or _REPLACE.search(commit.subject)
        if match is None:
            continue
        old, new = _known(match.group("old")), _known(match.group("new"))
        if not old or not new or old == new:
            continue
        display_old = _display(match.group("old"), old)
        display_new = _display(match.group("new"), new)
        day = commit.timestamp.date().isoformat()
        text = (
            f"The project moved from {display_old} to {display_new} "
            f"(commit {commit.sha[:7]}, {day}: “{commit.subject}”)"
        )
        key = f"migration:{key_slug(old)}_to_{key_slug(new)}"
        content = sentence(text)
        if content:
            found[key] = _candidate(key, content, [commit], ("history", "commit", old, new), 0.55)
    return list(found.values())


def _display(phrase: str, name: str) -> str:
    """`name` as the commit spelled it ("PostgreSQL" rather than "postgresql")."""
    for word in phrase.split():
        if word.lower().strip(".,;:") == name or name.startswith(word.lower()):
            return word.strip(".,;:") if " " not in name else phrase.strip(".,;:")
    return name


def commit_memories(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """The convention and migration facts the commits among `events` support."""
    commits = commits_in(events)
    if not commits:
        return []
    found = migrations(commits)
    text = convention_text(commits)
    if text:
        own = [c for c in commits if not _MERGE.match(c.subject)]
        cited = list(reversed(own))[:MAX_CITED]
        found.append(_candidate(CONVENTION_KEY, text, cited, ("convention", "commits", "git"), 0.6))
    return found
