"""A ban the user lifts later: "Never use wildcard imports", then, a session or a message
later, "Actually, wildcard imports are fine, ignore what I said yesterday".

The earlier instruction is then no habit of the user's: its memory is retired (and a batch
that holds both drops it), as a tool the user disowned retires the instructions to use it
(`disowned_tools`). Only the user's own words count, and only a lift said as one: the thing
is called fine, OK or allowed ("X is fine", "X are OK now", "X are allowed again") in a message
that takes something back ("actually", "after all", "ignore what I said", "I was wrong",
"changed my mind", "scratch that"). "The tests are fine" alone reports the work's state.

A user_style memory is the lifted ban when it turns that very thing down: a ban word
("never", "don't", "do not", "avoid", "no") right before it, with at most a verb of use
between ("Never use wildcard imports in Kotlin files", "Avoid tabs"). "Never skip the tests"
does not ban "the tests".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from squirrel_core.events import is_user_voice
from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

#: A message that takes something back.
_TAKES_BACK = re.compile(
    r"\b(?:actually|after all|on second thought|i was wrong|my bad|changed my mind|"
    r"scratch that|i take (?:that|it) back|(?:ignore|forget|disregard) what i (?:just )?said)\b",
    re.IGNORECASE,
)
#: "X is fine", "X are OK now", "X are allowed again": the thing (one to three words) before.
_LIFTED = re.compile(
    r"(?<![\w`'.-])(?P<thing>[\w`'.-]+(?:[ \t]+[\w`'.-]+){0,2}?)[ \t]+(?:is|are)[ \t]+"
    r"(?:(?:totally|perfectly|actually|really|completely)[ \t]+)?"
    r"(?:fine|ok|okay|alright|all right|allowed|acceptable)\b",
    re.IGNORECASE,
)
#: Words a lifted thing does not start with: fillers, and what names nothing of its own.
_LEAD = re.compile(
    r"^(?:(?:actually|ok|okay|so|but|and|well|fine|yeah|yes|no|oh|the|using|use)[ \t]+)+",
    re.IGNORECASE,
)
_NOT_THINGS = frozenset(
    {
        *("it", "that", "this", "they", "these", "those", "everything", "all", "which"),
        *("what", "he", "she", "you", "we", "i", "there", "here"),
        *("tests", "test", "build", "code", "work"),
    }
)
#: A ban word right before the thing, with at most a verb of use between.
_BAN = r"\b(?:never|don'?t|do not|avoid|no)\s+(?:(?:use|using|add|adding|write|writing)\s+)?"


def lifted_since(events: list[StoredEvent]) -> dict[str, datetime]:
    """The things (lower-cased) the user called fine again in a message that takes something
    back, each with the time they last said so."""
    found: dict[str, datetime] = {}
    for event, text in user_requests(events):
        if not is_user_voice(event.origin) or not _TAKES_BACK.search(text):
            continue
        for match in _LIFTED.finditer(text):
            thing = _LEAD.sub("", match["thing"]).strip("`'.-").lower()
            if not thing or thing in _NOT_THINGS or thing.split()[-1] in _NOT_THINGS:
                continue
            found[thing] = max(found.get(thing, event.timestamp), event.timestamp)
    return found


def bans(memory_type: MemoryType, content: str, thing: str) -> bool:
    """Whether a memory is the user's instruction that turns `thing` down (see the module)."""
    if memory_type is not MemoryType.USER_STYLE:
        return False
    words = [re.escape(w) for w in thing.split()]
    # "wildcard imports" bans "wildcard import" too, and the other way round
    words[-1] = words[-1].removesuffix("s") + "s?"
    return bool(re.search(_BAN + r"\s+".join(words) + r"\b", content, re.IGNORECASE))


def lifted_after(
    candidate: MemoryCandidate, since: Mapping[str, datetime], when: Mapping[str, datetime]
) -> bool:
    """Whether `candidate` bans a thing the user lifted (`since`, as `lifted_since` gives it)
    after all of the candidate's evidence (`when`: each event's time)."""
    times = [when[i] for i in candidate.source_event_ids if i in when]
    return bool(times) and any(
        max(times) <= at and bans(candidate.type, candidate.content, thing)
        for thing, at in since.items()
    )


def without_lifted(
    found: list[MemoryCandidate], events: list[StoredEvent]
) -> list[MemoryCandidate]:
    """`found` less the user's bans that all came before the user lifted them in `events`."""
    since = lifted_since(events)
    if not since:
        return found
    when = {e.id: e.timestamp for e in events}
    return [c for c in found if not lifted_after(c, since, when)]
