"""The project's layout or a design decision, as the user stated it in a prompt.

While asking for something the user often says how the project is organised, as a fact the
assistant should follow: "We keep one endpoint class per resource under Endpoints/, each a
static class mapped in Program.cs.", "Auth is handled by the gateway, not the services, so don't
add any permission classes here." Such a sentence becomes a project fact when a rule can tell
it states how the project is, the same for every ecosystem:

- it is the user's own message (typed, not a pasted log or an injected file) and opens one of
  two ways (an "FYI:" or "Note:" before it is allowed):
  - "we keep|put|place|store|group|organise <what> in|under|inside <path>": what it places
    is a kind of thing ("one endpoint class per resource", "all migrations", "the handlers"),
    not one thing put somewhere once ("we put a workaround in …"); the path a folder or file
    of the project that the session saw (read, listed or touched) or that exists in the
    repository, outside dependency and build folders;
  - "<what> is|are handled|done|enforced|owned|managed|checked|validated by|in the <part>,
    not (by|in) the <other part>": a design decision between two parts of the system, each a
    plain lower-case noun phrase, so that no framework, database or tool is named, and the
    subject not a pronoun;
- it is a statement: no question, hedge ("maybe", "I think", "probably"), condition ("if"),
  plan ("will", "going to"), past ("used to", "moved") or negation before the placing verb;
- the user did not take it back later in the session ("scrap that", "never mind", "we're
  moving everything to …", "actually, …": every layout stated before it goes).

The memory quotes the user's clause ("Layout the user stated: one endpoint class per resource
under `Endpoints/`, each a static class mapped in Program.cs."), scoped to the path it names;
at most `MAX_STATEMENTS` per episode, each once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.file_reads import shown_paths
from squirrel_memory.extractors.reply_sentences import sentences
from squirrel_memory.extractors.session_paths import excluded, seen_paths
from squirrel_memory.extractors.stack_mentions import stack_names_in
from squirrel_memory.extractors.wording import key_slug, sentence
from squirrel_memory.models import StoredEvent

IMPORTANCE = 0.45
KEY_PREFIX = "told:"
MAX_STATEMENTS = 3
MAX_CHARS = 220
#: A message longer than this is a paste (a file, a log, a brief), not a prompt.
MAX_MESSAGE_CHARS = 1500

_OPENER = r"^(?:(?:fyi|note|btw|heads up)[:,]?\s+)?"
_PATH = r"`?(?P<path>\.?/?[\w.@-]+(?:/[\w.@-]+)*/?)`?"
#: "We keep <what> under <path>, …".
_KEPT = re.compile(
    _OPENER + r"we (?:keep|put|place|store|group|organi[sz]e)\s+"
    r"(?P<what>[\w'’ -]{3,80}?)\s+(?P<prep>in|under|inside|within)\s+" + _PATH + r"(?P<rest>.*)$",
    re.IGNORECASE,
)
#: "Auth is handled by the gateway, not the services".
_DECIDED = re.compile(
    _OPENER + r"(?P<what>[A-Za-z][\w -]{1,40}?)\s+(?:is|are)\s+(?:handled|done|enforced|owned|"
    r"managed|checked|validated|performed|terminated)\s+(?:by|in|at)\s+"
    r"(?P<by>the [a-z][a-z -]{2,40}?)"
    r",?\s+not\s+(?:by\s+|in\s+|at\s+)?(?P<other>(?:the\s+)?[a-z][a-z -]{2,40}?)(?=[,.;]|$)",
)
_NOT_STATED = re.compile(
    r"\b(?:maybe|perhaps|probably|might|may|could|would|should|i think|i guess|i believe|"
    r"not sure|seems?|if|unless|suppose|will|won't|going to|gonna|want to|plan|let's|"
    r"used to|previously|moved|was|were|example|e\.g)\b|\?",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"\b(?:not|no|never|don'?t|doesn'?t)\b", re.IGNORECASE)
#: What a standing layout places: a kind of thing ("one endpoint class per resource", "all
#: migrations", "the handlers"), not one thing put somewhere once ("a workaround", "the fix").
_KIND = re.compile(r"\b(?:one|each|every|all)\b|[a-z]s\b$", re.IGNORECASE)
#: A subject that names nothing ("This is done by the script, not by hand").
_PRONOUN = re.compile(r"^(?:this|that|it|these|those|which|what)$", re.IGNORECASE)
#: A later message that takes back what the user said before.
_TAKEN_BACK = re.compile(
    r"\b(?:scrap|scratch|forget|ignore|disregard) (?:that|this|what i said)|\bnever ?mind\b|"
    r"\bchanged? (?:my|our) minds?\b|\bwe'?re (?:moving|switching|migrating)\b|"
    r"\bwe are (?:moving|switching|migrating)\b|\bno longer\b|\bnot anymore\b|^\s*actually\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Told:
    """A layout or design decision the user stated: key, content, the message, its path."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]


def _kept(clause: str, resolve: Callable[[str], str | None]) -> tuple[str, str, str] | None:
    """(key subject, what the memory says, the path) of "we keep <what> under <path>, …"."""
    found = _KEPT.match(clause)
    what = found.group("what") if found is not None else ""
    if found is None or _NEGATED.search(what) or not _KIND.search(what):
        return None
    raw = found.group("path").rstrip(".,;")
    path = resolve(raw) if ("/" in raw or "." in raw.strip(".")) else None
    if path is None or excluded(path):
        return None
    folder = raw.endswith("/")
    rest = found.group("rest").rstrip(" .")
    shown = f"`{path}/`" if folder else f"`{path}`"
    said = f"{found.group('what')} {found.group('prep')} {shown}{rest}"
    return found.group("what"), said, path


def _decided(clause: str) -> tuple[str, str] | None:
    """(key subject, what the memory says) of "<what> is handled by the <part>, not …"."""
    found = _DECIDED.match(clause)
    if found is None or _PRONOUN.match(found.group("what")):
        return None
    said = clause[found.start("what") : found.end()]
    return found.group("what"), said[0].lower() + said[1:] if said[1:2].islower() else said


def told_sentences(events: list[StoredEvent]) -> Iterator[tuple[StoredEvent, str]]:
    """(the message, one sentence of it, on one line) for every sentence the user typed in
    `events` (not a paste longer than `MAX_MESSAGE_CHARS`) and did not take back later."""
    messages = [
        e
        for e in events
        if e.event_type == EventType.USER_MESSAGE
        and is_user_voice(e.origin)
        and isinstance(e.content.get("text"), str)
    ]
    for position, event in enumerate(messages):
        text = event.content["text"]
        if len(text) > MAX_MESSAGE_CHARS:
            continue
        later = [e.content["text"] for e in messages[position + 1 :]]
        if any(_TAKEN_BACK.search(t) for t in later):
            continue
        for line in text.splitlines():
            for whole in sentences(line.strip()):
                yield event, " ".join(whole.split())


def told_layout(events: list[StoredEvent]) -> list[Told]:
    """The layout and design decisions the user's messages in `events` state, at most
    `MAX_STATEMENTS`."""
    said_sentences = list(told_sentences(events))
    if not said_sentences:
        return []
    seen = seen_paths(events, shown_paths(events))
    kept: dict[str, Told] = {}
    for event, flat in said_sentences:
        clause = re.split(r",?\s+so\s+|;\s+", flat)[0].rstrip(" .")
        if not clause or len(clause) > MAX_CHARS or _NOT_STATED.search(clause):
            continue
        if stack_names_in(clause):
            continue  # a tool or framework named: a stack claim, not the layout
        files: tuple[str, ...] = ()
        if (placed := _kept(clause, seen.resolve)) is not None:
            subject, said, path = placed
            head, files = "Layout the user stated", (path,)
        elif (decided := _decided(clause)) is not None:
            subject, said = decided
            head = "Design decision the user stated"
        else:
            continue
        content = sentence(f"{head}: {said}")
        key = f"{KEY_PREFIX}{files[0] + ':' if files else ''}{key_slug(subject)}"
        if content is None or key in kept:
            continue
        kept[key] = Told(key, content, (event.id,), files)
        if len(kept) >= MAX_STATEMENTS:
            return list(kept.values())
    return list(kept.values())
