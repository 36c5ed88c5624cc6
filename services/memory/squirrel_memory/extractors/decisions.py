"""A design decision the user stated for the work to come, and the session carried out.

"let's create a web_fetch tool so that skills use that tool exclusively" settles how later
work is done, not just the task at hand: the proposal ("let's", "we will", "we should") is
tied to a lasting scope ("exclusively", "from now on", "going forward"). It is kept only when
the assistant agreed or acted on it next (changed a file), so an idea floated and dropped, a
hedge ("maybe", "not sure") or an open question is not a decision. A closing tag question
("makes sense?", "right?") asks for agreement and does not make it a question. The user's own
words are quoted, without the tag question. Standing rules phrased as "always …"/"never …"
are preferences (`preferences.py`), not decisions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import user_words
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

#: Importance of a decision the user stated and the session carried out.
IMPORTANCE = 0.6
MAX_DECISIONS = 3
MIN_WORDS, MAX_WORDS = 6, 60

_PROPOSAL = re.compile(
    r"\b(?:let['’]?s|let us|we(?:['’]ll| will| should| want to| are going to| shall))\s+\w+",
    re.IGNORECASE,
)
_LASTING = re.compile(
    r"\b(?:exclusively|from now on|going forward|from here on(?:wards?)?|henceforth|"
    r"for all (?:future|new|later) \w+|(?:in|for) (?:all )?future (?:work|code|changes))\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|might|not sure|i guess|i wonder|wondering|should we|shall we|"
    r"could we|would it|what if|do we|is it)\b",
    re.IGNORECASE,
)
_TAG_QUESTION = re.compile(
    r"[\s,;:.-]*\b(?:makes? sense|right|ok(?:ay)?|agreed?|sounds? good|good idea|yes|no|"
    r"thoughts|wdyt|what do you think)\s*\?+\s*$",
    re.IGNORECASE,
)
_AGREEMENT = re.compile(
    r"^\W*(?:makes? sense|agreed?|good (?:idea|call|point)|sounds? good|yes|yep|sure|"
    r"absolutely|exactly|great idea|will do|done|on it|got it)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: key, statement and the events that stated and carried it out."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def decision_words(text: str) -> str | None:
    """The user's message as a decision, without its tag question; None when it is none."""
    flat = " ".join(text.split())
    flat = _TAG_QUESTION.sub("", flat).strip()
    if not flat or "?" in flat or _HEDGE.search(flat) or "\n" in text.strip():
        return None
    words = flat.split()
    if not MIN_WORDS <= len(words) <= MAX_WORDS:
        return None
    if not (_PROPOSAL.search(flat) and _LASTING.search(flat)):
        return None
    return flat.rstrip(".!,;: ")


def _carried_out(events: list[StoredEvent], start: int) -> str | None:
    """The id of the event by which the session took the decision up: the assistant's next
    reply agreeing, or a file it changed before the user spoke again."""
    for event in events[start + 1 :]:
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            return None
        if event.event_type == EventType.CODE_CHANGE:
            return event.id
        if event.event_type == EventType.ASSISTANT_RESPONSE:
            text = event.content.get("text")
            if isinstance(text, str) and _AGREEMENT.match(text):
                return event.id
    return None


def decisions(events: list[StoredEvent]) -> list[Decision]:
    """The decisions the user stated in `events` that the session carried out."""
    found: list[Decision] = []
    for index, event in enumerate(events):
        if event.event_type != EventType.USER_MESSAGE or not is_user_voice(event.origin):
            continue
        words = decision_words(user_words(event) or "")
        if words is None:
            continue
        taken = _carried_out(events, index)
        if taken is None:
            continue
        content = f"A decision the user stated for later work: “{words}”."
        found.append(Decision(f"decision:{key_slug(words)}", content, (event.id, taken)))
        if len(found) >= MAX_DECISIONS:
            break
    return found
