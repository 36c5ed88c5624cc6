"""A note the user flags for the assistant to keep: "FYI, the staging db is read-only".

While asking for something, users hand over what they know about the project, and often flag
it as such: "FYI, the staging database is read-only", "heads up: the seed script wipes the
local database", "note that CI runs on Node 18, not 20", "keep in mind the API allows 10
requests a second", "remember we use yarn". The flag says the sentence is information to keep,
not a request. It becomes a project fact, quoted, when a rule can tell it states how the
project is, the same in every ecosystem:

- it is the user's own typed sentence (`told_layout.told_sentences`: not a paste, not taken
  back later in the session) and opens with the flag ("fyi", "note that", "note:", "heads up",
  "btw", "just so you know", "for context", "keep in mind", "bear in mind", "remember",
  "be aware");
- what follows is a statement: a subject, then a verb of the present ("the staging db is …",
  "we use yarn", "`make seed` wipes …", "you need sudo for …"). Its subject is neither the
  user ("I", "my") nor a bare pronoun ("it", "that"), and it opens on no request ("remember to
  run …" is a habit, which `preferences` reads; "btw can you …" asks);
- it says nothing of a moment: no past or future ("was", "will", "just", "already"), no
  "now", "today", "for now", "currently", and no state a fix ends ("broken", "failing",
  "down", "fixed"); it asks, hedges or supposes nothing ("?", "maybe", "I think", "if");
- it is between `MIN_WORDS` and `MAX_WORDS` words long.

A sentence whose subject is the project itself needs no flag: "this repo uses 2-space
indentation", "the project targets Python 3.9", "our codebase has no tests". What the project
is ("this repo is a CLI …") is `user_about`'s, and a sentence naming the stack `told_stack`'s.

The memory quotes the statement ("The user noted: “the staging db is read-only”."), at most
`MAX_NOTES` per episode, each once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.stack_mentions import stack_names_in
from squirrel_memory.extractors.told_layout import told_sentences
from squirrel_memory.extractors.told_stack import describes_stack
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

IMPORTANCE = 0.45
KEY_PREFIX = "told:note:"
MAX_NOTES = 3
MIN_WORDS = 3
MAX_WORDS = 30

#: The flag that hands over what follows as information.
_FLAG = re.compile(
    r"^(?:fyi|f\.y\.i\.?|note that|note|n\.?b\.?|heads[- ]up|btw|by the way|just so you know|"
    r"for context|for (?:your )?reference|keep in mind(?: that)?|bear in mind(?: that)?|"
    r"remember(?: that)?|be aware(?: that)?|important)\s*[:,—–-]?\s+",
    re.IGNORECASE,
)
#: The project itself as the subject, with what it does or has (not "is": what the project is
#: is `user_about`'s, and a stack it names `told_stack`'s).
_OF_THE_PROJECT = re.compile(
    r"^(?:this|the|our|my)\s+(?:project|repo|repository|codebase|code base|monorepo)\s+"
    r"(?:uses|has|targets|needs|requires|supports|runs|only|doesn'?t|does not|must|never|"
    r"always|keeps|follows|expects|relies)\b",
    re.IGNORECASE,
)
#: A subject, then a verb of the present: what the statement says the thing is or does.
_STATED = re.compile(
    r"^(?P<subject>(?:`[^`]+`|[\w./@-]+)(?:\s+(?:`[^`]+`|[\w./@'-]+)){0,5}?)\s+"
    r"(?:is|are|isn'?t|aren'?t|has|have|hasn'?t|uses?|runs?|lives?|needs?|requires?|must|"
    r"can'?t|cannot|can only|doesn'?t|don'?t|only|always|never|wipes?|deletes?|resets?|"
    r"overwrites?|takes?|expects?|points?|reads?|writes?|depends?|sits?|goes|belongs?|"
    r"contains?|stores?|keeps?|relies|rel[yi]|sends?|calls?|deploys?|builds?|ships?|"
    r"allows?|blocks?|rejects?|ignores?|caches?|generates?|owns?|handles?|talks?|connects?|"
    r"listens?|serves?|maps?|counts?|treats?|breaks?|loads?|returns?)\b",
    re.IGNORECASE,
)
#: Subjects that say nothing of the project: the user, a bare pronoun, a request's opening.
_NOT_A_SUBJECT = re.compile(
    r"^(?:i|i'm|i'll|i've|i'd|me|my|it|that|to|please|pls|let's|let|can|could|would|will|do|"
    r"does|did|should|shall|don't|dont|just|also|so|and|but|then|if|when)\b",
    re.IGNORECASE,
)
#: Words that tie a statement to a moment, a state a fix ends, or a doubt.
_MOMENT = re.compile(
    r"\b(?:was|were|had|been|did|just|already|yet|yesterday|earlier|last (?:week|time|night)|will|"
    r"won'?t|'ll|going to|gonna|about to|now|today|tonight|tomorrow|currently|at the moment|"
    r"for now|temporarily|still|anymore|this (?:morning|week|time)|broken|failing|fails|down|"
    r"fixed|flaky|wip|maybe|perhaps|probably|might|i think|i guess|i believe|not sure|seems?|"
    r"if|unless|suppose|should|hopefully)\b|\?",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Note:
    """A statement the user flagged as information: key, content, the message's event."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def noted(sentence: str) -> str | None:
    """The statement a flagged sentence hands over ("FYI the staging db is read-only" → "the
    staging db is read-only"), or a sentence about the project itself ("this repo uses
    2-space indentation"); None for anything else (module docstring)."""
    flag = _FLAG.match(sentence.strip())
    if flag is not None:
        said = sentence.strip()[flag.end() :].strip().rstrip(".!")
    elif _OF_THE_PROJECT.match(sentence.strip()) and not (
        stack_names_in(sentence) or describes_stack(sentence)
    ):
        said = sentence.strip().rstrip(".!")
    else:
        return None
    words = said.split()
    if not MIN_WORDS <= len(words) <= MAX_WORDS or _MOMENT.search(said):
        return None
    if _NOT_A_SUBJECT.match(said) or _STATED.match(said) is None:
        return None
    return said


def told_notes(events: list[StoredEvent]) -> list[Note]:
    """The statements the user's messages in `events` flag as information, at most
    `MAX_NOTES`."""
    kept: dict[str, Note] = {}
    for event, flat in told_sentences(events):
        said = noted(flat)
        if said is None:
            continue
        key = f"{KEY_PREFIX}{key_slug(said)}"
        if key == KEY_PREFIX or key in kept:
            continue
        kept[key] = Note(key, f"The user noted: “{said}”.", (event.id,))
        if len(kept) >= MAX_NOTES:
            break
    return list(kept.values())
