"""A working habit said in many wordings: keep it simple, build on what already exists.

Users who want the least new machinery rarely say it as a rule. They say it inside a request
or as a nudge after the assistant acted: "don't overcomplicate", "keep it simple and
dependency free", "could we reuse the nav component for that?", "there is existing logic for
scanning history", "you can set it with the library, which is less work". Shared words cannot
tell these are one instruction, so every such wording is filed under one key (`HABIT_KEY`)
with one statement that quotes the user; the recurrence rules then promote it to a standing
instruction when it comes back in another session, whatever the words.

Only wordings that ask for it count: a fact that mentions reuse ("the pool is reused"), an
existing test, or an instruction to install dependencies does not.
"""

from __future__ import annotations

import re
from dataclasses import replace

from squirrel_memory.extractors.preferences import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    STANDING_IMPORTANCE,
    STANDING_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
    stated_preferences,
)
from squirrel_memory.extractors.wording import strip_markdown
from squirrel_memory.models import Scope

HABIT_KEY = "pref:simplest_reuse_existing"
HABIT_TAG = "simplicity"
#: A wording of how to work (not what to build) is worth a session's opening even said once:
#: it sits at the level of a corrected one-off.
HABIT_STEP = 0.05
MAX_QUOTE_CHARS = 120
_SENTENCES = re.compile(r"(?<=[.!;?])\s+|\n+")
_STATEMENT = (
    "Keep it simple: build on what already exists (the code's own logic, the libraries' "
    "features) instead of adding new machinery, files or dependencies"
)

_CODE_THINGS = (
    r"(?:logic|code|implementation|function|functions|helper|helpers|component|components|"
    r"method|methods|class|classes|module|modules|util|utils|utility|utilities|mechanism|"
    r"support|handling|machinery|abstraction|pattern|template|templates|partial|hook|hooks)"
)
#: Wordings of the habit; each asks for it rather than describing the code.
_CUES = (
    # don't overcomplicate / over-engineer it
    re.compile(
        r"\b(?:don'?t|do not|no need to|never|without|stop)\s+(?:\w+\s+)?"
        r"(?:over-?complicat|over-?engineer)\w*",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:too|overly) (?:complicated|complex|over-?engineered)\b", re.IGNORECASE),
    # keep it simple / keeping things simple / KISS
    re.compile(
        r"\bkeep(?:ing|s)?\s+(?:it|things|this|that|them|everything|the \w+)\s+"
        r"(?:\w+\s+){0,2}(?:simple|minimal|lean|small)\b",
        re.IGNORECASE,
    ),
    re.compile(r"\bKISS\b"),
    # a simpler way / which is less work
    re.compile(
        r"\b(?:is there|there'?s|could we|can we|can you|could you|let'?s|find|use|try)\s+"
        r"(?:a\s+|an\s+|the\s+)?(?:simpler|easier|more direct)\s+"
        r"(?:way|approach|solution|option)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:which|that|it|this)(?:'s|\s+is|\s+would be|\s+will be)\s+"
        r"(?:much\s+|a lot\s+|far\s+)?(?:less (?:work|code)|simpler)\b",
        re.IGNORECASE,
    ),
    # could we reuse X / reuse the existing X / build on the existing implementation
    re.compile(
        r"(?:^|\b(?:could|can|should|would|let'?s|let us|please|just|we|you|try to|better to|"
        r"rather)\s+)(?:we\s+|you\s+|not\s+)?re-?use\s+(?!(?:is|was|of)\b)\S",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:use|check|extend|follow|look at|build on|rely on|stick to|stick with)\s+"
        r"(?:the\s+|our\s+)?(?:existing|current)\s+" + _CODE_THINGS + r"\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bthere(?:'s|\s+is|\s+are)\s+(?:already\s+)?(?:an?\s+|some\s+)?existing\s+"
        + _CODE_THINGS
        + r"\b",
        re.IGNORECASE,
    ),
    # dependency free / no new dependencies / no build step
    re.compile(r"\bdependency[- ]free\b|\bzero[- ]dependenc", re.IGNORECASE),
    re.compile(
        r"\b(?:no|without(?:\s+adding)?|don'?t add|do not add|avoid(?:\s+adding)?)\s+"
        r"(?:any\s+)?(?:new|extra|additional|more|external|third[- ]party)\s+"
        r"(?:dependenc\w*|librar\w*|packages?)\b"
        r"(?!\s+(?:were|was|are|is|have|had|got|found|needed|required|fetched|installed)\b)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:compil(?:ation|e)|build)[- ](?:step[- ])?free\b|\b(?:no|without(?: a)?)\s+"
        r"(?:build|compil(?:e|ation)|bundl(?:er|ing))\s+step\b",
        re.IGNORECASE,
    ),
)
#: What the user's emphasis looks like here (the same signs the preference rules weigh).
_EMPHASIS = re.compile(
    r"\b(?:DON'?T|NOT|NEVER|MUST|ONLY)\b|!!|\b(?i:really|seriously|absolutely|important|crucial)\b"
)


def habit_clause(text: str) -> str | None:
    """The words around the first wording in a user message that asks for the simplest way
    (the sentence, cut to `MAX_QUOTE_CHARS` around the wording when it is long), or None.
    Long sentences count too: the habit is often said inside a long request."""
    plain = strip_markdown(re.sub(r"```.*?```", " ", text, flags=re.DOTALL))
    for sentence_ in _SENTENCES.split(plain):
        flat = " ".join(sentence_.split())
        match = next((m for cue in _CUES if (m := cue.search(flat))), None)
        if match is not None:
            return _around(flat, match.start(), match.end())
    return None


def _around(flat: str, start: int, end: int) -> str:
    """`flat` when short, else about `MAX_QUOTE_CHARS` of it around `start:end`, cut at
    words and marked with "…" where cut."""
    if len(flat) <= MAX_QUOTE_CHARS:
        return flat.strip(" ,;:")
    room = max(0, MAX_QUOTE_CHARS - (end - start)) // 2
    left, right = max(0, start - room), min(len(flat), end + room)
    while 0 < left < start and not flat[left - 1].isspace():
        left += 1
    while end < right < len(flat) and not flat[right].isspace():
        right -= 1
    piece = flat[left:right].strip(" ,;:")
    return ("… " if left > 0 else "") + piece + (" …" if right < len(flat) else "")


def working_habit(text: str, *, after_assistant_action: bool) -> StatedPreference | None:
    """The simplicity habit a user message states, or None: tentative until it recurs, a
    nudge after the assistant acted counts as a correction."""
    clause = habit_clause(text)
    if clause is None:
        return None
    emphasis = bool(_EMPHASIS.search(clause))
    marks = (
        CORRECTION_TAG if after_assistant_action else None,
        EMPHASIS_TAG if emphasis else None,
    )
    importance = (
        TENTATIVE_IMPORTANCE
        + HABIT_STEP
        + (CORRECTION_STEP if after_assistant_action else 0.0)
        + (EMPHASIS_STEP if emphasis else 0.0)
    )
    return StatedPreference(
        key=HABIT_KEY,
        content=f"{_STATEMENT} (in the user's words: “{clause}”).",
        tags=tuple(t for t in ("preference", HABIT_TAG, TENTATIVE_TAG, *marks) if t),
        scope=Scope.USER,
        importance=round(importance, 3),
        correction=after_assistant_action,
    )


def user_instructions(text: str, *, after_assistant_action: bool) -> list[StatedPreference]:
    """The instructions of one user message: those `stated_preferences` finds, with any that
    only word the simplicity habit filed as the habit (once per message)."""
    found = stated_preferences(text, after_assistant_action=after_assistant_action)
    habit = working_habit(text, after_assistant_action=after_assistant_action)
    if habit is None:
        return found
    kept = [p for p in found if not any(cue.search(p.content) for cue in _CUES)]
    if any(p.standing for p in found if p not in kept):
        # said as a rule ("always keep it simple"): the habit is a standing one from the start
        return [*kept, _standing(habit)]
    return [*kept, habit]


def _standing(habit: StatedPreference) -> StatedPreference:
    tags = tuple(STANDING_TAG if t == TENTATIVE_TAG else t for t in habit.tags)
    importance = max(STANDING_IMPORTANCE, habit.importance)
    return replace(habit, tags=tags, importance=importance, standing=True)
