"""The user's sentences kept only to hear an instruction said again in a form no rule reads.

The preference rules read an instruction by its form ("always …", "from now on …", "don't …").
Said again in a later session, the same instruction often comes in a form they do not read ("No
`any` types please, type things properly" after "Don't use any, type everything properly"), and
then it never recurs: it stays a one-off said once, and no session starts with it. So every
sentence the user typed that could be a request (`repeated_requests.request_sentences`: not a
question, not pasted output, no path or id, a few content words) is an **echo**: a tentative
user_style candidate tagged `restated` and `echo` that says nothing by itself.

The recurrence rules file an echo under an instruction it says again in other words
(`paraphrases.same_instruction`: word overlap, with the two wordings' meaning beside it), where
it counts as that instruction said in one more session, in the instruction's own wording and
tags (`echo_merge`).
An echo that says again no instruction read elsewhere is dropped (`candidate_decisions`), two
echoes never make an instruction of each other (requests said again in several sessions are
`repeated_requests`'s, with its guards), an echo in the instruction's own session adds nothing,
and an echo never takes an instruction back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from squirrel_core.events import Origin
from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.candidates import candidate
from squirrel_memory.extractors.command_bodies import reads_as_command_body
from squirrel_memory.extractors.firmness import RESTATED_TAG, TENTATIVE_IMPORTANCE, TENTATIVE_TAG
from squirrel_memory.extractors.instruction_keys import instruction_key
from squirrel_memory.extractors.repeated_requests import PREFIX as REQUEST_PREFIX
from squirrel_memory.extractors.routine_requests import PREFIX as ROUTINE_PREFIX
from squirrel_memory.extractors.said_requests import request_sentences
from squirrel_memory.extractors.session_requests import PREFIX as SESSION_REQUEST_PREFIX
from squirrel_memory.models import MemoryCandidate, MemoryItem, MemoryType, StoredEvent

ECHO_TAG = "echo"
#: The user's own typing (not a slash command's arguments, not an answer to a question).
_TYPED = frozenset({str(Origin.TYPED), str(Origin.QUEUED)})
#: Content words a sentence needs ("keep PRs small" has three).
MIN_ECHO_WORDS = 3
#: The newest sentences of an episode kept as echoes (a long session's first ones say least
#: about how it ends, and each echo is compared with every instruction).
MAX_ECHOES = 120


def echo_candidates(events: Sequence[StoredEvent], episode_id: str) -> list[MemoryCandidate]:
    """An echo (see the module) for each sentence the user typed in `events` that could be a
    request, the newest `MAX_ECHOES`, credited to `episode_id`."""
    found: list[MemoryCandidate] = []
    for event, text in user_requests(list(events)):
        if event.origin not in _TYPED or event.sidechain or text.lstrip().startswith("<"):
            continue
        if reads_as_command_body(text):
            continue
        for said in request_sentences(text, MIN_ECHO_WORDS):
            content = said.rstrip(" .!;:") + "."
            found.append(
                candidate(
                    MemoryType.USER_STYLE,
                    instruction_key(said),
                    content[0].upper() + content[1:],
                    tags=("preference", TENTATIVE_TAG, RESTATED_TAG, ECHO_TAG),
                    importance=TENTATIVE_IMPORTANCE,
                    event_ids=(event.id,),
                )
            )
    return [replace(c, source_episode_id=episode_id) for c in found[-MAX_ECHOES:]]


#: Requests and routines counted over the user's sessions by their own rules, which count every
#: message themselves: an echo is never filed under one.
_COUNTED = (REQUEST_PREFIX, ROUTINE_PREFIX, SESSION_REQUEST_PREFIX)


def is_echo(cand: MemoryCandidate | MemoryItem) -> bool:
    """Whether a candidate is an echo: words kept only to tell an instruction said again."""
    return ECHO_TAG in cand.tags


def is_counted(memory: MemoryCandidate | MemoryItem) -> bool:
    """Whether a memory is a request or routine its own rule counts over the sessions (its
    words state the count: "In 3 sessions the user asked …")."""
    return memory.key.startswith(_COUNTED)


def may_hear(instruction: MemoryCandidate | MemoryItem) -> bool:
    """Whether an echo may be filed under `instruction`: one the rules read, not another echo
    nor a request or routine counted over the sessions by its own rules."""
    return not is_echo(instruction) and not is_counted(instruction)


__all__ = [
    "ECHO_TAG",
    "MAX_ECHOES",
    "MIN_ECHO_WORDS",
    "echo_candidates",
    "is_counted",
    "is_echo",
    "may_hear",
]
