"""How firm a stated instruction is: standing or tentative, a correction, the user's emphasis,
said before or repeated, as its tags and importance, and the record that carries them
(`StatedPreference`). What a message's words make of an instruction is `preferences`'."""

from __future__ import annotations

from dataclasses import dataclass

from squirrel_memory.extractors.instruction_keys import instruction_key, topic
from squirrel_memory.extractors.instruction_parts import Found
from squirrel_memory.extractors.instruction_scope import instruction_scope
from squirrel_memory.models import Scope

#: Importance of an instruction phrased as a general rule, and of a one-off (tentative) one.
STANDING_IMPORTANCE = 0.7
CHOICE_IMPORTANCE = 0.75
TENTATIVE_IMPORTANCE = 0.25
#: What the user's emphasis ("NEVER", "!!", "it's important") and a correction add.
EMPHASIS_STEP = 0.1
CORRECTION_STEP = 0.05
#: The most a stated instruction's emphasis can lift it to (recurrence alone goes further).
MAX_STATED_IMPORTANCE = 0.85
#: Importance of an instruction the user says they gave before ("as I said, …").
REPEATED_IMPORTANCE = 0.7
#: Tags that say how an instruction was found; `recurrence` promotes `tentative` ones.
STANDING_TAG = "standing"
TENTATIVE_TAG = "tentative"
CORRECTION_TAG = "correction"
EMPHASIS_TAG = "emphasis"
#: The tag `recurrence` gives an instruction seen again; a message saying "I told you" is one.
SAID_BEFORE_TAG = "recurring"
#: The tag of an instruction said in two or more messages of one episode (and of a routine
#: asked after each of two pieces of work in one session): repeated, not yet in another session.
REPEATED_TAG = "repeated"
#: The tag of a rule kept whole with the reason the project gives for it (`reasoned_rules`).
REASONED_TAG = "reasoned"
#: The tag of words the user says they said before that no form reads as an instruction
#: ("as I said before: constructor injection, no field injection"): kept only where they say
#: again an instruction the user gave (`candidate_decisions`), whose wording stays.
RESTATED_TAG = "restated"


@dataclass(frozen=True, slots=True)
class StatedPreference:
    """An instruction found in one clause: key, clean statement, scope and how firm it is."""

    key: str
    content: str
    tags: tuple[str, ...]
    scope: Scope
    importance: float
    correction: bool = False
    standing: bool = False


def preference(
    found: Found,
    clause: str,
    standing: bool,
    correction: bool,
    *,
    emphasis: bool = False,
    said_before: bool = False,
) -> StatedPreference:
    """The instruction with its tags and importance: a rule outranks a one-off; the user's
    emphasis and a correction add weight; "as I said" makes it a rule said before."""
    standing = standing or said_before
    kind = STANDING_TAG if standing else TENTATIVE_TAG
    marks = (
        CORRECTION_TAG if correction else None,
        EMPHASIS_TAG if emphasis else None,
        SAID_BEFORE_TAG if said_before else None,
    )
    tags = tuple(t for t in ("preference", topic(found.subject), kind, *marks) if t)
    if not standing:
        importance = TENTATIVE_IMPORTANCE + (CORRECTION_STEP if correction else 0.0)
    elif said_before:
        importance = REPEATED_IMPORTANCE
    else:
        importance = CHOICE_IMPORTANCE if found.choice else STANDING_IMPORTANCE
    importance = round(
        min(MAX_STATED_IMPORTANCE, importance + (EMPHASIS_STEP if emphasis else 0.0)), 3
    )
    scope = instruction_scope(clause)
    return StatedPreference(
        key=instruction_key(found.subject, choice=found.choice),
        content=found.content,
        tags=tags,
        scope=scope,
        importance=importance,
        correction=correction,
        standing=standing,
    )
