"""How the project is built, as the assistant summarised it under an architecture heading.

Having read the code, the assistant often sums up how it is built under a heading of its
reply ("## Core Architecture Patterns", "**Architecture Overview:**", "### How it works"), one
list item per point: "**Plugin Pattern**: Agents and providers are plugins, not hardcoded".
Such an item becomes a project fact when a rule can tell it states how the code is, the same
for every ecosystem:

- its heading names the architecture ("architecture", "how it works") and is not about a
  change or a proposal ("Architecture Design", "Revised Architecture", "Proposed
  Architecture", "Solution", "Plan", "Review" …: those describe what may be built);
- the item, without its bold label, is one declarative clause: it starts with a capital or a
  code span, says how something is or behaves with a present-tense verb ("are", "lives",
  "registers", "never imports", "resolves" …), speaks of no one ("I", "we", "you"), hedges
  nothing, plans nothing ("will", "should"), reports no outcome ("… load successfully!") and
  can be quoted whole; a fragment without a verb ("Complete separation between components",
  "49,000 lines of TypeScript") is not kept.

The memory says it is the assistant's summary ("How the project is built, as the assistant
summarised it: …"); three per episode at most, each once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.wording import key_slug, sentence, without_bold
from squirrel_memory.models import StoredEvent

#: Points kept per episode.
MAX_POINTS = 3
IMPORTANCE = 0.4
MIN_WORDS = 4
MAX_CHARS = 200
PREFIX = "How the project is built, as the assistant summarised it: "
KEY_PREFIX = "architecture:"

HEADING = re.compile(r"^\s*(?:#{1,6}\s+(?P<atx>.+)|\*\*(?P<bold>[^*]+)\*\*:?)\s*$")
_ARCHITECTURE = re.compile(r"\barchitecture\b|\bhow (?:it|this) works\b", re.IGNORECASE)
#: A heading about what may be built, not what is.
NOT_AS_IS = re.compile(
    r"\b(?:design|proposed|proposal|revised|new|target|future|plan(?:ned)?|solution|"
    r"implementation|changes?|fix(?:es)?|recommend\w*|options?|approach|review|suggested|"
    r"refactor\w*|migration|comparison|ideal|desired)\b",
    re.IGNORECASE,
)
ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+(?P<item>.+)$")
#: A bold label before the point: `**Plugin Pattern**: …`, `**Hooks** - …`.
LABEL = re.compile(r"^\*\*[^*]{1,60}\*\*\s*(?::|[-–—])\s*")
VERB = re.compile(
    r"\b(?:is|are|lives?|runs?|never|always|registers?|customi[sz]es?|resolves?|uses?|"
    r"handles?|owns?|calls?|imports?|reads?|writes?|stores?|loads?|defines?|keeps?|holds?|"
    r"maps?|sits?|depends?|extends?|implements?|wraps?|chains?|goes|routes?|sends?|"
    r"receives?|renders?|serves?|exposes?|delegates?|dispatches?|persists?|caches?|"
    r"flows?|passes|returns?|creates?|starts?|spawns?|mounts?)\b",
    re.IGNORECASE,
)
PERSONAL = re.compile(
    r"\b(?:i|i'm|i've|i'd|my|me|we|we're|we've|our|us|you|your|you're)\b", re.IGNORECASE
)
HEDGE_OR_PLAN = re.compile(
    r"\b(?:might|may|maybe|probably|perhaps|likely|seems?|could|would|should|will|shall|"
    r"possibly|guess|todo|successfully)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Point:
    """One point of the architecture the assistant summarised, and the reply it was in."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def point_of(item: str) -> str:
    """The statement one list item under an architecture heading makes, or ""."""
    body = without_bold(" ".join(LABEL.sub("", item.strip()).split()))
    words = body.split()
    if not len(words) >= MIN_WORDS or len(body) > MAX_CHARS or body.count("`") % 2:
        return ""
    if not (body[0].isupper() or body[0] == "`") or body.endswith(("?", ":", "!")):
        return ""
    if not VERB.search(body) or PERSONAL.search(body) or HEDGE_OR_PLAN.search(body):
        return ""
    return body


def _reply_points(text: str) -> list[str]:
    """The points listed under the architecture headings of one reply, in order."""
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
    under = False
    found: list[str] = []
    for line in prose.split("\n"):
        heading = HEADING.match(line)
        if heading:
            title = heading.group("atx") or heading.group("bold") or ""
            under = bool(_ARCHITECTURE.search(title)) and not NOT_AS_IS.search(title)
            continue
        item = ITEM.match(line)
        if under and item and (said := point_of(item.group("item"))):
            found.append(said)
    return found


def architecture_points(events: list[StoredEvent]) -> list[Point]:
    """The architecture points the assistant's replies in `events` state, at most
    `MAX_POINTS`, each once."""
    kept: dict[str, Point] = {}
    elsewhere = replies_elsewhere(events)
    for event in events:
        text = event.content.get("text")
        if event.event_type != EventType.ASSISTANT_RESPONSE or not isinstance(text, str):
            continue
        if event.id in elsewhere:
            continue  # a subagent's report on another folder it read, or its relay
        for body in _reply_points(text):
            said = sentence(f"{PREFIX}{body}")
            slug = key_slug(body)
            if not said or not slug or f"{KEY_PREFIX}{slug}" in kept:
                continue
            kept[f"{KEY_PREFIX}{slug}"] = Point(f"{KEY_PREFIX}{slug}", said, (event.id,))
            if len(kept) >= MAX_POINTS:
                return list(kept.values())
    return list(kept.values())
