"""The user's sentences of the studies' sessions, each labelled by its gold and marked with what
the product's rules keep of it: the data `bench/standing_rules.py` classifies.

A **group** is one habits set (`first` … `fourth`, `bench/data/habits_study/`) or the answer
key's tuning projects (`tuning`; a held-out project's key and transcripts are never read here).
A session's sentences are its user's messages as the extractors read them (`user_requests`:
the user's own voice, host text and injected context left out), cut by the product's clause
reader (`clauses`: code blocks and quoted lines left out, lead-in words taken off), each
wording once per session; a clause with fewer than two words, mostly not words, or the look of
pasted output (a path or log line, a stack frame) is skipped.

A sentence is **standing** when a gold habit of its session (habits sets) or a gold user_style
item of its project (answer key) states it (every concept of the item's `match`), a **task**
when a `must_not` entry (habits sets) or a `one_off` pattern for user_style (answer key) does
and no habit does, else **unlabelled**.

**Kept** is the product's decision: a user_style candidate of the offline rules (the rules
extractor over the session's episodes, then the project's repeated-request readers over its
events) cites the sentence's message and says most of the sentence's words.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bench import fixture_pipeline
from bench.answer_key import keyed_projects
from bench.answer_key_gold import KEY_DIR, AnswerKey, parse_key
from bench.common import SHARED_FIXTURES
from bench.habits_study import STUDIES, load_sessions
from bench.stored_events import stored
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.repeated_requests import repeated_requests
from squirrel_memory.extractors.routine_requests import routine_requests
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.session_requests import session_requests
from squirrel_memory.extractors.session_routines import session_routines
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent
from squirrel_memory.project_work import (
    request_candidates,
    routine_candidates,
    session_routine_candidates,
)

HABIT_SETS = ("first", "second", "third", "fourth")
TUNING = "tuning"
GROUPS = (*HABIT_SETS, TUNING)
#: The answer key's held-out projects: their key files and transcripts are not opened here.
HELD_OUT = frozenset(
    {
        "flowstate",
        "orpheus",
        "orva",
        "medgemma-hackathon",
        "gemini-voyager",
        "mathcomp-eulerian",
        "resting",
        "openprintkit",
        "rlm",
        "cpolar-connect",
        "moonmind",
    }
)
STANDING = "standing"
TASK = "task"
UNLABELLED = "unlabelled"

Match = Callable[[str], bool]

_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
_CONTENT_WORD = re.compile(r"[a-z][a-z0-9']{3,}")
#: A clause that reads as pasted output rather than the user's words: a stack frame, a log
#: line's level, a prompt's `$ `, a line mostly of path and punctuation.
_PASTED = re.compile(
    r"^\s*(?:at\s+\S+\s*\(|File \"|Traceback|\$ |>>>|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG)\]?[: ])"
    r"|^\S*[/\\]\S*$"
)
#: Share of a sentence's content words a kept candidate must say.
KEPT_SHARE = 0.6


@dataclass(frozen=True)
class Sentence:
    """One user sentence: where it is from, its words, its label and the product's decision."""

    group: str
    session: str
    text: str
    label: str
    kept: bool
    #: The gold items (habit notes) it states: item-level recall counts these.
    items: tuple[str, ...] = ()
    #: Where its message sits among its session's user messages: 0 the first, 1 the last.
    turn: float = 0.0
    #: Whether its message is the session's first user message (the opening request).
    first: bool = False
    #: Whether a command or tool call failed since the user's previous message.
    after_failure: bool = False
    #: Other sessions of the same source where the user says the same words again.
    recurs: int = 0


@dataclass(frozen=True)
class Source:
    """A session (a study set) or project (answer key) with its gold as predicates: each gold
    item that makes a sentence `STANDING` (by note), and each entry that makes it `TASK`."""

    group: str
    name: str
    paths: tuple[Path, ...]
    standing: tuple[tuple[str, Match], ...]
    task: tuple[Match, ...]


def sources(groups: Sequence[str] = GROUPS) -> list[Source]:
    """Every session of the habits sets and tuning project of the answer key in `groups`."""
    return sources_by_group(groups, _habit_sources, _tuning_sources)


def sources_by_group(
    groups: Sequence[str],
    of_set: Callable[[str], list[Source]],
    of_tuning: Callable[[], list[Source]],
) -> list[Source]:
    """The sources of each group in turn: a study set's from `of_set`, the tuning projects'
    from `of_tuning`."""
    found: list[Source] = []
    for group in groups:
        found.extend(of_tuning() if group == TUNING else of_set(group))
    return found


def _habit_sources(group: str) -> list[Source]:
    return [
        Source(
            group,
            session.name,
            session.paths,
            tuple((h.note, h.matches) for h in session.habits),
            tuple(m.matches for m in session.must_not),
        )
        for session in load_sessions(STUDIES[group])
    ]


def tuning_keys() -> list[AnswerKey]:
    """The answer key's tuning projects; a held-out project's file is skipped unread."""
    keys: list[AnswerKey] = []
    for path in sorted(KEY_DIR.glob("*.toml")):
        if path.stem in HELD_OUT:
            continue
        key = parse_key(tomllib.loads(path.read_text(encoding="utf-8")), path.name)
        if key.split == "tuning" and key.project not in HELD_OUT:
            keys.append(key)
    return keys


def tuning_projects() -> list[tuple[AnswerKey, tuple[Path, ...]]]:
    """Each tuning project's key and its transcripts (fixtures and `bench/data/transcripts/`)."""
    keys = {k.project: k for k in tuning_keys()}
    projects, _ = keyed_projects(
        list(keys.values()), [SHARED_FIXTURES, fixture_pipeline.PROJECT_TRANSCRIPTS]
    )
    return [(keys[name], tuple(paths)) for name, paths in projects]


def _tuning_sources() -> list[Source]:
    found = []
    for key, paths in tuning_projects():
        standing = tuple(
            (item.id, item_match(item.concepts)) for item in key.items if item.kind == "user_style"
        )
        task = tuple(
            pattern_match(p.regex) for p in key.one_off if not p.types or "user_style" in p.types
        )
        found.append(Source(TUNING, key.project, paths, standing, task))
    return found


def item_match(concepts: tuple[tuple[re.Pattern[str], ...], ...]) -> Match:
    return lambda text: all(any(p.search(text) for p in c) for c in concepts)


def pattern_match(regex: re.Pattern[str]) -> Match:
    return lambda text: bool(regex.search(text))


def labelled(source: Source, body: str) -> tuple[tuple[str, ...], str]:
    """The notes of the gold items that state `body`, and its label: `STANDING` when one does,
    else `TASK` when a task entry does, else `UNLABELLED`."""
    items = tuple(note for note, match in source.standing if match(body))
    label = STANDING if items else TASK if any(m(body) for m in source.task) else UNLABELLED
    return items, label


def read(source: Source) -> list[Sentence]:
    """The source's user sentences, labelled, each with the product's decision."""
    events = stored(
        fixture_pipeline.parse(list(source.paths), f"/nonexistent/standing/{source.name}"),
        f"/nonexistent/standing/{source.name}",
        source.name,
    )
    styles = kept_styles(events)
    requests = user_requests(events)
    places = session_places(events, [event for event, _ in requests])
    said = [
        (event.session_id or "", body)
        for event, message in requests
        for _, body in clauses(message)
        if usable(body)
    ]
    found: list[Sentence] = []
    seen: set[str] = set()
    for event, message in requests:
        cited = [c.content for c in styles if event.id in c.source_event_ids]
        for _, body in clauses(message):
            if not usable(body) or body.lower() in seen:
                continue
            seen.add(body.lower())
            recurs = _recurs(body, event.session_id or "", said)
            found.append(sentence(source, body, cited, places[event.id], recurs))
    return found


def sentence(
    source: Source,
    body: str,
    cited: Sequence[str],
    place: tuple[float, bool, bool],
    recurs: int,
) -> Sentence:
    """`body` as the data: labelled by `source`'s gold (`labelled`), kept when a candidate
    citing its message says it (`cited`: their contents), at its `place` in its session (turn,
    first, after a failure, as `session_places` gives it), said again in `recurs` other
    sessions."""
    items, label = labelled(source, body)
    turn, first, after_failure = place
    kept = any(says(content, body) for content in cited)
    return Sentence(
        source.group, source.name, body, label, kept, items, turn, first, after_failure, recurs
    )


def session_places(
    events: Sequence[StoredEvent], requests: Sequence[StoredEvent]
) -> dict[str, tuple[float, bool, bool]]:
    """Per message of `requests` (the user's, or the assistant's replies): its place among its
    session's such messages (0 first, 1 last), whether it is the first, and whether a command or
    tool call failed since the previous one."""
    order: dict[str, list[str]] = {}
    for event in requests:
        order.setdefault(event.session_id or "", []).append(event.id)
    asked = {event.id for event in requests}
    failed: dict[str, bool] = {}
    after: dict[str, bool] = {}
    for event in events:
        session = event.session_id or ""
        if event.id in asked:
            after[event.id] = failed.get(session, False)
            failed[session] = False
        elif failed_event(event):
            failed[session] = True
    places: dict[str, tuple[float, bool, bool]] = {}
    for ids in order.values():
        for i, event_id in enumerate(ids):
            places[event_id] = (
                i / (len(ids) - 1) if len(ids) > 1 else 0.0,
                i == 0,
                after[event_id],
            )
    return places


def failed_event(event: StoredEvent) -> bool:
    """A command, test or tool result that reports a failure (non-zero exit or an error)."""
    if event.event_type not in ("command_run", "test_run", "tool_result"):
        return False
    code = event.content.get("exit_code")
    if isinstance(code, int) and not isinstance(code, bool):
        return code != 0
    return event.content.get("is_error") is True


def _recurs(body: str, session: str, said: Sequence[tuple[str, str]]) -> int:
    """Other sessions where a sentence says most of `body`'s words and `body` says most of it."""
    return len(
        {
            other
            for other, text in said
            if other != session and says(text, body) and says(body, text)
        }
    )


def usable(body: str) -> bool:
    """A clause worth classifying: two words or more, mostly words, not pasted output."""
    words = _WORD.findall(body)
    if len(words) < 2 or _PASTED.search(body):
        return False
    return sum(len(w) for w in words) >= 0.5 * len(body.replace(" ", ""))


def says(content: str, sentence: str) -> bool:
    """Whether a memory's `content` says most of `sentence`'s content words."""
    wanted = set(_CONTENT_WORD.findall(sentence.lower()))
    if not wanted:
        return sentence.lower() in content.lower()
    have = set(_CONTENT_WORD.findall(content.lower()))
    return len(wanted & have) >= KEPT_SHARE * len(wanted)


def kept_styles(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """The user_style candidates the offline rules make of the events: per episode, then the
    project's repeated requests and routines (as the processor reads them after a pass)."""
    rules = RulesExtractor()
    found: list[MemoryCandidate] = []
    for episode in segment_episodes(events, now=datetime.now(UTC)):
        found.extend(rules.extract_sync(episode, events))
    found.extend(
        request_candidates(repeated_requests(events))
        + routine_candidates(routine_requests(events))
        + session_routine_candidates(session_routines(events))
        + session_routine_candidates(session_requests(events))
    )
    return [c for c in found if c.type is MemoryType.USER_STYLE]
