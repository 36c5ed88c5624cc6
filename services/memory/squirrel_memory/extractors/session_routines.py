"""Delivery steps asked for again in one session, each time after other work: a habit so far.

Most projects a new user brings have one or two sessions, so `routine_requests`, which waits for
a second session, never sees how they close their work there. Within one session, though, a
routine asked for at the end of one piece of work and again at the end of another ("commit and
push" after a test fix, "commit and push" after a refactor) already shows how the user delivers
work. It is told apart from a request of the moment by what lies between two of its messages:
the user asked for something else in between (the work moved on). The same request sent again
with nothing of the user's in between (after an interrupt, or because it was not done yet) is
one task asked twice, the reason `routine_requests` gives for waiting: a task is not a habit.

A routine is what `routine_steps` reads (every word a delivery step of version control or a
short filler, no question, no object: "commit the fix for the login bug" is none), in a whole
sentence or in the head of one whose rest moves on to the next piece of work ("commit, then
let's filter them out", "okay, let's commit", "commit this - but let's try it after"). A routine
that points at the change at hand ("commit this", "push it") is a request of the moment when
asked twice in a session: only the bare steps ("commit and push") say how the user closes any
piece of work. Asked in `MIN_POINTED_MESSAGES` messages or more, each after other work, the
same step is how this user ends each piece, whatever it points at. The memory quotes the
user's shortest wording and says it was asked in one session so far, at `IMPORTANCE` (more
when asked more often, up to `MAX_IMPORTANCE`): above a one-off instruction, below an
instruction said in several sessions; the same key as the routine's across sessions, so a
second session's pass turns it into that habit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from squirrel_memory.extractors.routine_requests import (
    routine_key,
    routine_requests,
    routine_steps,
    sentences,
    typed_requests,
)
from squirrel_memory.models import StoredEvent

#: The memory's words before the user's quote.
LEAD = "In one session so far the user asked {n} times, each after other work"
TAG = "one_session"
#: Messages of the routine, with other requests between them, that make it a habit so far.
MIN_MESSAGES = 2
#: The same, when some of them point at the change at hand ("commit this") or only open with
#: the step ("commit, then …"): each such message could be a request of the moment.
MIN_POINTED_MESSAGES = 3
#: Words a message between two of them needs to be other work ("ok", "yes" are not).
MIN_OTHER_WORDS = 3
IMPORTANCE = 0.45
STEP = 0.05
MAX_IMPORTANCE = 0.55
MAX_ROUTINES = 3

_WORD = re.compile(r"[^\W\d_]+")
#: Words that point at the change at hand.
_POINTS_AT = re.compile(r"\b(?:this|that|these|those|it|them)\b", re.IGNORECASE)
#: Where a sentence's head ends and it moves on to other work: ", then", " - but", "; ".
_MOVES_ON = re.compile(
    r"(?:(?<!\s)\s+)?(?:,\s*(?:and\s+)?then\b|,\s*but\b|\s[-–—]+\s|;)\s*", re.IGNORECASE
)
#: A lead that only proposes the step ("okay, let's commit"), left off before reading it.
_LEAD_IN = re.compile(
    r"^(?:(?:ok(?:ay)?|alright|right|great|cool|good|nice|so|and|now)\W+)*(?:let'?s|let us)\s+",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SessionRoutine:
    """Delivery steps asked for in `messages` messages of one session, other work between."""

    key: str
    wording: str
    messages: int
    event_ids: tuple[str, ...]

    #: How the memory opens ("… asked {n} times, each after other work").
    lead: ClassVar[str] = LEAD

    @property
    def content(self) -> str:
        return f"{self.lead.format(n=self.messages)}: “{self.wording}”."

    @property
    def importance(self) -> float:
        grown = IMPORTANCE + STEP * (self.messages - MIN_MESSAGES)
        return round(min(MAX_IMPORTANCE, grown), 3)


def session_routines(events: list[StoredEvent]) -> list[SessionRoutine]:
    """Routines asked for in at least `MIN_MESSAGES` messages of one session with another
    request of the user's between each two of them (`MIN_POINTED_MESSAGES` when fewer than
    `MIN_MESSAGES` of them are bare steps), the most asked first. A routine asked in several
    sessions is `routine_requests`' (its own memory, at its own weight).

    Whether other work lies between two messages is a difference of a running count
    (`_WorkBefore`), each message judged once: the time grows with the session's length, not
    with its square when a routine is asked many times along nothing but steps and "ok"."""
    typed = typed_requests(events)
    sessions_of: dict[frozenset[str], set[str]] = {}
    asked: dict[tuple[str, frozenset[str]], list[tuple[int, StoredEvent, str, bool]]] = {}
    for index, (event, text) in enumerate(typed):
        for sentence in sentences(text):
            steps, wording, plain = asked_steps(sentence)
            if steps:
                session = event.session_id or ""
                if wording == sentence:  # what `routine_requests` reads across sessions
                    sessions_of.setdefault(steps, set()).add(session)
                asked.setdefault((session, steps), []).append((index, event, wording, plain))
                break
    work_before = _WorkBefore(typed)
    # a routine some other session asks too, in any wording, is `routine_requests`' habit
    across = {r.key for r in routine_requests(events)} if asked else set()
    found: list[SessionRoutine] = []
    for (_, steps), said in asked.items():
        if len(said) < MIN_MESSAGES or len(sessions_of.get(steps, ())) > 1:
            continue
        if routine_key(steps) in across:
            continue
        # each kept message follows the previous one after at least one other request
        kept = [said[0]]
        for item in said[1:]:
            if work_before[item[0]] - work_before[kept[-1][0] + 1] > 0:
                kept.append(item)
        bare = len([item for item in kept if item[3]])
        if len(kept) < MIN_MESSAGES or (bare < MIN_MESSAGES and len(kept) < MIN_POINTED_MESSAGES):
            continue
        found.append(
            SessionRoutine(
                key=routine_key(steps),
                wording=min((w for _, _, w, _ in kept), key=len).rstrip(".!;。！；"),
                messages=len(kept),
                event_ids=tuple(dict.fromkeys(event.id for _, event, _, _ in kept)),
            )
        )
    found.sort(key=lambda r: -r.messages)
    return found[:MAX_ROUTINES]


def asked_steps(sentence: str) -> tuple[frozenset[str], str, bool]:
    """The delivery steps a sentence asks for, the words that ask them, and whether they are
    bare steps (the whole sentence, pointing at nothing): "commit and push" → bare; "commit
    this" → pointing; "commit, then let's filter them out" and "okay, let's commit" → their
    head ("commit"), not bare; a question or other words → no steps."""
    if steps := routine_steps(sentence):
        return steps, sentence, not _POINTS_AT.search(sentence)
    if "?" in sentence:
        return frozenset(), "", False
    head = _LEAD_IN.sub("", _MOVES_ON.split(sentence, maxsplit=1)[0]).strip(" ,.!")
    if head and head != sentence and (steps := routine_steps(head)):
        return steps, head, False
    return frozenset(), "", False


def _other_work(text: str) -> bool:
    """A message that asks or says something else: not a routine, not a bare acknowledgement."""
    if any(routine_steps(sentence) for sentence in sentences(text)):
        return False
    return len(_WORD.findall(text)) >= MIN_OTHER_WORDS


class _WorkBefore:
    """`self[k]`: how many of the first k typed messages are other work (`_other_work`), each
    message judged once and only as far as a routine asked again needs."""

    def __init__(self, typed: list[tuple[StoredEvent, str]]) -> None:
        self._typed = typed
        self._counts = [0]

    def __getitem__(self, k: int) -> int:
        counts = self._counts
        while len(counts) <= k:
            _, text = self._typed[len(counts) - 1]
            counts.append(counts[-1] + _other_work(text))
        return counts[k]
