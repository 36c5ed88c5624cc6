"""A working habit: what is built must work for anyone, not only on the user's own machine.

Users say it while choosing a tool or an approach: "I don't want to make it only work for me
or make assumptions about people's env", "it has to work for everyone, whatever their OS",
"let's keep it cross-platform". Every such wording is filed under one key (`PORTABLE_KEY`),
quoted in the user's words, said once a tentative instruction as the simplicity habit is
(`working_habits.py`). Only an instruction counts: a question ("does it work on Windows?"),
a report ("it only works for me after a restart") or a plain fact ("the library is
cross-platform") is not the habit.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.preferences import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.wording import strip_markdown
from squirrel_memory.extractors.working_habits import HABIT_STEP, is_question
from squirrel_memory.models import Scope

PORTABLE_KEY = "pref:works_for_anyone"
PORTABLE_TAG = "portability"
MAX_QUOTE_CHARS = 160
_LEAD = "The user wants solutions that work for anyone, without assumptions about their own machine"
_SENTENCES = re.compile(r"(?<=[.!;?])\s+|\n+")
_NOT = r"(?:don'?t|do not|doesn'?t|does not|shouldn'?t|should not|never|not|no|without)"
_OTHERS = (
    r"(?:people|users|others|other people|everyone|everybody|anyone|anybody|someone else|"
    r"the user|their|other machines|other systems)"
)
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
)


def portable_clause(text: str) -> str | None:
    """The sentence of a user message that asks for what works for anyone, or None."""
    plain = strip_markdown(re.sub(r"```.*?```", " ", text, flags=re.DOTALL))
    for raw in _SENTENCES.split(plain):
        flat = " ".join(raw.split())
        if not flat or is_question(flat):
            continue
        if any(cue.search(flat) for cue in _WORDINGS):
            return flat if len(flat) <= MAX_QUOTE_CHARS else None
    return None


def portability_habit(text: str, *, after_assistant_action: bool) -> StatedPreference | None:
    """The works-for-anyone habit a user message states, or None; tentative until it recurs."""
    clause = portable_clause(text)
    if clause is None:
        return None
    marks = (CORRECTION_TAG,) if after_assistant_action else ()
    importance = (
        TENTATIVE_IMPORTANCE + HABIT_STEP + (CORRECTION_STEP if after_assistant_action else 0.0)
    )
    return StatedPreference(
        key=PORTABLE_KEY,
        content=f"{_LEAD}, in their words: “{clause.rstrip('.!;: ')}”.",
        tags=("preference", PORTABLE_TAG, TENTATIVE_TAG, *marks),
        scope=Scope.USER,
        importance=round(importance, 3),
        correction=after_assistant_action,
    )
