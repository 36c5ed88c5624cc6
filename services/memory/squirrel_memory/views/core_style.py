"""The core style view's choice: which of the user's instructions a session starts with.

Standing rules first; then at most a couple the user stressed or corrected but has not said in
another session yet, marked as noted once (or as noted in one session so far, when the user said
it there more than once): what Squirrel noted, not a count of what the user said, since a
wording the rules did not read as the same instruction is not counted. Beside a standing rule
only those that are a way of working follow (a habit so far, an instruction said in several
messages of its session, the wish for the simplest way, a workflow habit, a state of the
repository said to be deliberate); a plain one-off waits to be asked for (search, the
per-prompt context, full mode). The language to reply in is no such rule: beside it alone, an
instruction said once still opens a session. In the foresight replay the plain
one-offs a session started with beside a standing rule ("Performance is crucial") were never said
again by the user nor seen followed, while the user's standing rules are what every session
needs. Rules only read from an instruction file the host loads itself are left to that file unless
nothing else is on record. In the view, what the user said more than once (in several sessions, or
again after a break) leads (`said_again_first`): a rule stated once, however firmly, comes after
the instructions the user keeps giving.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

from squirrel_core.host_files import SKILL_TAG, WRITTEN_TAG
from squirrel_memory.extractors.firmness import REPEATED_TAG
from squirrel_memory.extractors.reply_language import KEY as REPLY_LANGUAGE_KEY
from squirrel_memory.extractors.session_habits import TAG as HABIT_SO_FAR_TAG
from squirrel_memory.extractors.wanted_ways import DELIBERATE_TAG
from squirrel_memory.extractors.workflow_habits import WORKFLOW_TAG
from squirrel_memory.extractors.working_habits import HABIT_TAG as SIMPLICITY_TAG
from squirrel_memory.models import MemoryItem
from squirrel_memory.promotion import RECURRING_TAG, is_tentative

#: Instructions not yet said in another session that a session may start with, when the user
#: stressed or corrected them (importance at least `SAID_ONCE_MIN_IMPORTANCE`); beside a
#: standing rule, only a way of working (`_HABITS`).
SAID_ONCE_ITEMS = 2
SAID_ONCE_MIN_IMPORTANCE = 0.3
SAID_ONCE_PREFIX = "Noted once so far: "
#: The mark of an instruction said in several messages of one session, not yet in another.
SAID_IN_SESSION_PREFIX = "Noted in one session so far: "
#: The words that open a memory already saying so (a routine asked in one session): no mark.
SAYS_ONE_SESSION = "In one session so far"
#: What marks an instruction not yet said in another session as a way of working rather than a
#: one-off: said in several messages of its session (`repeated`), a habit so far
#: (`one_session`: a process instruction stressed or said as a correction), the wish for the
#: simplest way, or a workflow habit (how far to carry a batch, what done means). Those may
#: follow a standing rule at a session's opening; a plain one-off waits to be asked for.
_HABITS = frozenset({REPEATED_TAG, HABIT_SO_FAR_TAG, SIMPLICITY_TAG, WORKFLOW_TAG})
#: How long the assistant's own replies should be ("keep your console outputs terse", "answer
#: briefly", "no wall of text"): said once, it is still about every reply of every session, so
#: it is a way of working, not a one-off. The length of code, names, files or commit messages
#: is not.
_REPLIES = r"(?:answers?|responses?|repl(?:y|ies)|your(?:\W+\w+){0,2}?\W+outputs?)"
_SHORT = r"(?:terse|concise|brief|short|shorter)"
_REPLY_LENGTH = re.compile(
    rf"\bwalls? of text\b"
    rf"|\b{_SHORT}\b(?:\W+\w+){{0,3}}?\W+{_REPLIES}\b"
    rf"|\b{_REPLIES}\b(?:\W+\w+){{0,3}}?\W+{_SHORT}\b"
    rf"|\b(?:answer|reply|respond)\s+(?:briefly|tersely|concisely)\b",
    re.IGNORECASE,
)


def core_style(memories: Sequence[MemoryItem]) -> list[MemoryItem]:
    """What a session starts with: the standing rules (those said in several sessions rank
    first by their importance), then at most `SAID_ONCE_ITEMS` instructions not yet said in
    another session that the user stressed or corrected, marked as said once (or in one session
    so far); beside a standing rule, only those that are a way of working. Other
    one-off wording still waiting to recur stays out (full mode and search still show it)
    unless nothing else is there: a user with instructions on record never starts a session
    told that none are. Rules only read from an instruction file in a session (tagged
    `written`: the host of that file loads it itself) are left to the file, unless the user
    has no other instruction on record; a skill's rules (`skill`) are left to the skill, which
    the host loads whenever it runs, the only time they hold."""
    from_files = [m for m in memories if _only_written(m) and SKILL_TAG not in m.tags]
    said = [m for m in memories if not _only_written(m)]
    firm = sorted((m for m in said if not is_tentative(m.tags)), key=lambda m: -m.importance)
    once = sorted((m for m in said if is_tentative(m.tags)), key=lambda m: -m.importance)
    stressed = [m for m in once if m.importance >= SAID_ONCE_MIN_IMPORTANCE]
    # The language to reply in is how to talk, not a rule of the work: beside it alone, the
    # user's one instruction about the work still has its place.
    work = [m for m in firm if m.key != REPLY_LANGUAGE_KEY]
    if not work and not stressed:
        stressed = once
    if work:
        # Beside a standing rule only a way of working follows; a one-off waits to be asked for.
        stressed = [m for m in stressed if _a_way_of_working(m)]
    said_once = [replace(m, content=_marked(m.content, m.tags)) for m in stressed]
    return firm + said_once[:SAID_ONCE_ITEMS] or from_files


def _a_way_of_working(memory: MemoryItem) -> bool:
    """Whether an instruction not yet said in another session is a way of working (`_HABITS`,
    a routine asked several times in one session: "In one session so far the user asked 3
    times …", or how long the assistant's replies should be: `_REPLY_LENGTH`) rather than a
    one-off."""
    return (
        bool(_HABITS & set(memory.tags))
        or memory.content.startswith(SAYS_ONE_SESSION)
        or _REPLY_LENGTH.search(memory.content) is not None
        # A state of the repository the user said is deliberate when the assistant went to
        # change it ("`.claude/*` is ignored on purpose, not to be undone"): the next session
        # would otherwise undo it again. Other corrections said once still wait.
        or DELIBERATE_TAG in memory.tags
    )


def _marked(content: str, tags: Sequence[str]) -> str:
    """An instruction still waiting to recur, marked with how often it was said so far."""
    if content.startswith(SAYS_ONE_SESSION):
        return content
    return (SAID_IN_SESSION_PREFIX if REPEATED_TAG in tags else SAID_ONCE_PREFIX) + content


class _Tagged(Protocol):
    @property
    def tags(self) -> Sequence[str]: ...


_T = TypeVar("_T", bound=_Tagged)


def said_again_first(items: Sequence[_T]) -> list[_T]:
    """`items` (already in the view's order) with those the user said more than once
    (`recurring`: in several sessions, again after a break, or "as I said") before the rest,
    each part in its order: the instruction said most often opens the view, ahead of a rule
    stated once with more emphasis (recurrence and stress already order the recurring ones)."""
    return sorted(items, key=lambda item: RECURRING_TAG not in item.tags)


def _only_written(memory: MemoryItem) -> bool:
    """A rule read from a file in a session, which the user never said again in a prompt."""
    return WRITTEN_TAG in memory.tags and RECURRING_TAG not in memory.tags


__all__ = [
    "SAID_IN_SESSION_PREFIX",
    "SAID_ONCE_ITEMS",
    "SAID_ONCE_MIN_IMPORTANCE",
    "SAID_ONCE_PREFIX",
    "core_style",
    "said_again_first",
]
