"""A working habit: what is built must work for anyone, not only on the user's own machine.

Users say it while choosing a tool or an approach: "I don't want to make it only work for me
or make assumptions about people's env", "it has to work for everyone, whatever their OS",
"let's keep it cross-platform", or, of what they ship to others, "we're not forcing everyone to
move to one service: it needs to be configurable if they use another". Every such wording is
filed under one key (`PORTABLE_KEY`), quoted in the user's words (around the wording when the
sentence is long), said once a tentative instruction as the simplicity habit is
(`working_habits.py`), stressed when the user wrote the people it is for or the refusal in
capitals ("not forcing EVERYONE"). Only an instruction counts: a question ("does it work on
Windows?", "should it be configurable for users?"), a report ("it only works for me after a
restart", "we force everyone to log in again") or a plain fact ("the library is
cross-platform", "the timeout is configurable") is not the habit.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.firmness import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.own_words import CODE_BLOCK
from squirrel_memory.extractors.wording import strip_markdown
from squirrel_memory.extractors.working_habits import HABIT_STEP, around, is_question
from squirrel_memory.models import Scope

PORTABLE_KEY = "pref:works_for_anyone"
PORTABLE_TAG = "portability"
MAX_QUOTE_CHARS = 160
_LEAD = "The user wants solutions that work for anyone, not only for their own machine or setup"
_SENTENCES = re.compile(r"(?<=[.!;?])\s+|\n+")
_NOT = r"(?:don'?t|do not|doesn'?t|does not|shouldn'?t|should not|never|not|no|without)"
_OTHERS = (
    r"(?:people|users|others|other people|everyone|everybody|anyone|anybody|someone else|"
    r"the user|their|other machines|other systems)"
)
#: Who a thing the project ships is for: its users, each install or deployment of it.
_AUDIENCE_WORDS = (
    r"everyone|everybody|anyone|anybody|people|users|all users|other users|others|"
    r"(?:every|each|all) (?:user|install|installation|instance|deployment|deploy|team|site)s?"
)
_AUDIENCE = f"(?:{_AUDIENCE_WORDS})"
_WORDINGS = (
    # don't want to make it only work for me / shouldn't only work on my machine
    re.compile(
        _NOT + r"\b[^.?!]{0,40}?\b(?:only|just)\s+work(?:s|ing)?\s+(?:for me|on my "
        r"(?:machine|computer|laptop|setup|system|mac|pc))\b",
        re.IGNORECASE,
    ),
    # don't make assumptions about people's env / without assuming the user's setup
    re.compile(
        _NOT + r"\b[^.?!]{0,30}?\b(?:make |making )?(?:assumptions?|assum(?:e|ing))\s+"
        r"(?:anything\s+)?about\s+" + _OTHERS,
        re.IGNORECASE,
    ),
    # it has to / must / should work for everyone / on any platform / in every browser
    re.compile(
        r"\b(?:has to|have to|must|should|needs? to|want it to)\s+work\s+(?:for|on|in|across)\s+"
        r"(?:everyone|everybody|anyone|anybody|any (?:machine|platform|os|browser|system)|"
        r"every (?:machine|platform|os|browser)|all (?:machines|platforms|browsers|systems))\b",
        re.IGNORECASE,
    ),
    # keep it / make it cross-platform (an instruction, not a fact about a library)
    re.compile(
        r"\b(?:keep|make)\s+(?:it|this|that|everything|them|the \w+)\s+"
        r"(?:\w+\s+)?cross[- ](?:platform|browser)\b",
        re.IGNORECASE,
    ),
    # we're not forcing everyone to move to X / don't force every install onto one service
    re.compile(
        r"\b(?:not|never|don'?t|do not|shouldn'?t|should not|without|avoid)\s+"
        r"(?:be\s+)?forc(?:e|es|ed|ing)\s+" + _AUDIENCE + r"\s+(?:to|onto|into|on)\b",
        re.IGNORECASE,
    ),
    # it needs to be configurable if they use … / must be optional per install
    re.compile(
        r"\b(?:needs? to|has to|have to|must|should)\s+(?:stay|be|remain)\s+"
        r"(?:configurable|optional|opt-?in|pluggable|swappable)\b[^.?!]{0,30}?\b"
        r"(?:if|for|per|by|so)\s+(?:they|them|whoever|" + _AUDIENCE_WORDS + r")\b",
        re.IGNORECASE,
    ),
)
#: The people it is for, or the refusal, written in capitals: the user stressed it.
_EMPHASIS = re.compile(
    r"\b(?:EVERYONE|EVERYBODY|ANYONE|ANYBODY|ALL|EVERY|NEVER|NOT|DON'?T|MUST|ONLY)\b"
)


def portable_clause(text: str) -> str | None:
    """The sentence of a user message that asks for what works for anyone (about
    `MAX_QUOTE_CHARS` of it around the wording when it is long), or None."""
    plain = strip_markdown(CODE_BLOCK.sub(" ", text))
    for raw in _SENTENCES.split(plain):
        flat = " ".join(raw.split())
        if not flat or is_question(flat):
            continue
        found = [m for cue in _WORDINGS if (m := cue.search(flat))]
        if found:
            first = min(found, key=lambda m: m.start())
            return around(flat, first.start(), first.end(), MAX_QUOTE_CHARS)
    return None


def portability_habit(text: str, *, after_assistant_action: bool) -> StatedPreference | None:
    """The works-for-anyone habit a user message states, or None; tentative until it recurs."""
    clause = portable_clause(text)
    if clause is None:
        return None
    emphasis = bool(_EMPHASIS.search(clause))
    marks = tuple(
        tag
        for tag, marked in ((CORRECTION_TAG, after_assistant_action), (EMPHASIS_TAG, emphasis))
        if marked
    )
    importance = (
        TENTATIVE_IMPORTANCE
        + HABIT_STEP
        + (CORRECTION_STEP if after_assistant_action else 0.0)
        + (EMPHASIS_STEP if emphasis else 0.0)
    )
    return StatedPreference(
        key=PORTABLE_KEY,
        content=f"{_LEAD}, in their words: “{clause.rstrip('.!;: ')}”.",
        tags=("preference", PORTABLE_TAG, TENTATIVE_TAG, *marks),
        scope=Scope.USER,
        importance=round(importance, 3),
        correction=after_assistant_action,
    )
