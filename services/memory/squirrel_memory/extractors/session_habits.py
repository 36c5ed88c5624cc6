"""A way of working said in one session with the shape of a standing rule: a habit so far.

Most projects a new user brings have one session, so an instruction cannot wait for a second
one to count. What the user says once is still a one-off unless its evidence has the shape of
a rule for all later work rather than the task at hand. Two shapes are read here, the same in
every ecosystem:

- **An instruction about how the work is done, said as a correction or stressed.** A
  tentative instruction (`preferences`) whose topic is the work's process (tests, version
  control, formatting, linting, typing, comments, dependencies, naming: `topic`), said as a
  correction of what the assistant did (`correction`), with emphasis, or in two messages, is
  kept at `IMPORTANCE`: above a plain one-off, below an instruction said in several sessions
  (`recurrence`), and tagged `one_session`. A plain "don't …" said once stays a one-off: a
  session opens with it only when nothing firmer is on record (`views.core_style`). An
  instruction about the task's object ("don't change this file", "skip 5 and 7") has no such
  topic or was already dropped as one-off wording.
- **A preferred way, said as the ideal.** "ideally just rebase onto main", "if possible, squash
  the fixups": the user states how they would have the work done whenever it can be, a way of
  working rather than a request for this task, when what follows is an imperative whose topic
  is the work's process. It is kept in the user's words ("Ideally, …"), tentative, at
  `IMPORTANCE`. A wish about the product ("ideally we would see all checkpoints") is no
  imperative; a question or a quoted line never reaches this (`clauses`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.firmness import (
    CORRECTION_TAG,
    EMPHASIS_TAG,
    REPEATED_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.instruction_keys import instruction_key, topic
from squirrel_memory.extractors.instruction_scope import instruction_scope

#: Importance of a one-session habit: above a one-off (`TENTATIVE_IMPORTANCE`) and a stressed
#: one-off (0.3), below a routine asked in one session (0.45) and anything said in two.
IMPORTANCE = 0.4
TAG = "one_session"
_IDEAL = re.compile(
    r"^(?:(?:but|and|so|though)\s+)?(?:ideally|in an ideal world|if possible|where possible|"
    r"whenever possible|if you can)[,:]?\s+(?:we(?:'d| would| should)?\s+)?(?:just\s+|only\s+)?"
    r"(?P<x>[a-z][\w-]*\b.*?)[\s.!]*$",
    re.IGNORECASE,
)
#: Words that open a statement, not an imperative ("ideally it would …", "ideally there is …").
_NOT_IMPERATIVE = re.compile(
    r"^(?:it|this|that|there|they|we|i|you|he|she|the|a|an|all|every|each|no|our|my|your|"
    r"is|are|was|were|be|would|should|could|can|will|see|show|have|has)\b",
    re.IGNORECASE,
)
MAX_IDEAL_WORDS = 12


def as_session_habit(pref: StatedPreference) -> StatedPreference:
    """`pref` raised to a one-session habit when it is a tentative instruction about how the
    work is done, said as a correction, stressed or repeated; else `pref` unchanged."""
    if pref.standing or TENTATIVE_TAG not in pref.tags or topic(pref.content) is None:
        return pref
    marked = {CORRECTION_TAG, EMPHASIS_TAG, REPEATED_TAG} & set(pref.tags)
    if not marked or pref.importance >= IMPORTANCE:
        return pref
    return replace(
        pref,
        importance=IMPORTANCE,
        tags=tuple(dict.fromkeys((*pref.tags, TAG))),
    )


def preferred_ways(text: str) -> list[StatedPreference]:
    """The ways of working a user message states as the ideal ("ideally just rebase onto
    main"), each a tentative one-session habit in the user's words."""
    found: list[StatedPreference] = []
    for written, clause in clauses(text):
        match = _IDEAL.match(clause)
        if match is None or clause.rstrip().endswith("?"):
            continue
        x = match.group("x").strip(" ,;:")
        if _NOT_IMPERATIVE.match(x) or len(x.split()) > MAX_IDEAL_WORDS:
            continue
        about = topic(x)
        if about is None:
            continue
        found.append(
            StatedPreference(
                key=instruction_key(x),
                content=f"Ideally, {x}.",
                tags=("preference", about, TENTATIVE_TAG, TAG),
                scope=instruction_scope(written),
                importance=max(IMPORTANCE, TENTATIVE_IMPORTANCE),
            )
        )
    return found
