"""A working habit said in many wordings: keep it simple, build on what already exists.

Users who want the least new machinery rarely say it as a rule. They say it as an instruction
inside a request or as a correction after the assistant acted: "don't overcomplicate", "keep it
simple and dependency free", "reuse the nav component", "you can set it with the library, which
is less work", "great, but there is existing logic for scanning history". Shared words cannot
tell these are one instruction, so every such wording is filed under one key (`HABIT_KEY`); the
recurrence rules then promote it to a standing instruction when it comes back in another
session, whatever the words.

Only the user's instructions and corrections count, and the memory quotes them rather than
paraphrasing them into a broader rule:
- a question is not an instruction ("could we reuse X for that?", "is there a simpler way?"):
  the user is asking, and the answer may be no;
- a plain statement ("there is existing logic for X", "that would be less work") counts only as
  a correction: right after the assistant acted, introduced as a contrast ("but", "no",
  "actually", "instead");
- a fact that mentions reuse ("the pool is reused"), an existing test, or an instruction to
  install dependencies is not the habit.
Said once, the habit is tentative, at the level of a corrected one-off (a session may open with
it, marked as said once, in the project where it was said); it leads the style view only when
it recurs.

One kind of question is the habit all the same: a doubt about the size of the work at hand
("are we over-engineering this?", "isn't this overkill?", "can you check whether we're not
overdoing it?"). It asks nothing a fact could answer; it pushes back, and is kept (tentative,
as "The user pushes back on over-engineering") when its subject is the work itself: "we" in
the present ("are we", "whether we're"), "this", "some of this", or any subject of a negative
question ("isn't a whole event bus overkill?"). A question that weighs a named tool or part
("Is Redis overkill for …?", "Is the retry logic over-engineered?"), asks about the past ("we
were"), asks how to avoid it, or sits inside quotes (a title to write) is not.
"""

from __future__ import annotations

import re
from dataclasses import replace

from squirrel_memory.extractors.firmness import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    STANDING_IMPORTANCE,
    STANDING_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.own_words import CODE_BLOCK
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.tongue_instructions import (
    instruction_language,
    tongue_instructions,
)
from squirrel_memory.extractors.wanted_conventions import wanted_convention
from squirrel_memory.extractors.wording import strip_markdown
from squirrel_memory.models import Scope

HABIT_KEY = "pref:simplest_reuse_existing"
HABIT_TAG = "simplicity"
#: An instruction on how to work (not what to build) is worth a session's opening even said
#: once, marked as said once: it sits at the level of a corrected one-off. It still comes
#: after every instruction said in several sessions.
HABIT_STEP = 0.05
MAX_QUOTE_CHARS = 120
_SENTENCES = re.compile(r"(?<=[.!;?])\s+|\n+")
#: The memory's words around the user's own: what they asked for, then their quote.
_LEAD = "The user asks for the simplest way that builds on what exists"

_CODE_THINGS = (
    r"(?:logic|code|implementation|function|functions|helper|helpers|component|components|"
    r"method|methods|class|classes|module|modules|util|utils|utility|utilities|mechanism|"
    r"support|handling|machinery|abstraction|pattern|template|templates|partial|hook|hooks)"
)
#: Wordings of the habit said as an instruction: they count in any sentence that is not a
#: question.
_DIRECTIVES = (
    # don't overcomplicate / over-engineer it
    re.compile(
        r"\b(?:don'?t|do not|no need to|never|without|stop)\s+(?:\w+\s+)?"
        r"(?:over-?complicat|over-?engineer)\w*",
        re.IGNORECASE,
    ),
    # keep it simple / keeping things simple / KISS
    re.compile(
        # (not "keep the functions small": the size of every unit of code is a habit of its own)
        r"\bkeep(?:ing|s)?\s+(?:it|things|this|that|them|everything|"
        # "we keep dependencies minimal"
        r"(?:our\s+|the\s+)?(?:dependencies|deps)|the (?!" + _CODE_THINGS + r"\b)\w+)\s+"
        r"(?:\w+\s+){0,2}(?:simple|minimal|lean|small)\b",
        re.IGNORECASE,
    ),
    re.compile(r"\bKISS\b"),
    # let's find a simpler way / use the simpler approach
    re.compile(
        r"\b(?:let'?s|find|use|try|take|pick|go with)\s+"
        r"(?:a\s+|an\s+|the\s+)?(?:simpler|easier|more direct)\s+"
        r"(?:way|approach|solution|option)\b",
        re.IGNORECASE,
    ),
    # reuse X / just reuse the existing X / build on the existing implementation
    re.compile(
        r"(?:^|\b(?:let'?s|let us|please|just|you can|you could|you should|try to|better to|"
        r"rather)\s+)(?:not\s+)?re-?use\s+(?!(?:is|was|of)\b)\S",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:use|check|extend|follow|look at|build on|rely on|stick to|stick with)\s+"
        r"(?:the\s+|our\s+)?(?:existing|current)\s+" + _CODE_THINGS + r"\b",
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
#: Wordings that only state something ("there is existing logic for X", "which is less
#: work", "this is too complicated"): the habit only when the sentence is addressed to the
#: assistant as a suggestion ("you can …") or corrects what it just did ("but …").
_HINTS = (
    re.compile(r"\b(?:too|overly) (?:complicated|complex|over-?engineered)\b", re.IGNORECASE),
    re.compile(
        r"\bthere'?s\s+(?:a\s+|an\s+)?(?:simpler|easier|more direct)\s+"
        r"(?:way|approach|solution|option)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:which|that|it|this)(?:'s|\s+is|\s+would be|\s+will be)\s+"
        r"(?:much\s+|a lot\s+|far\s+)?(?:less (?:work|code)|simpler)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bthere(?:'s|\s+is|\s+are)\s+(?:already\s+)?(?:an?\s+|some\s+)?existing\s+"
        + _CODE_THINGS
        + r"\b",
        re.IGNORECASE,
    ),
)
_CUES = (*_DIRECTIVES, *_HINTS)
#: Doing too much, in the words of a doubt ("over-engineering", "overkill", "overdoing it").
_TOO_MUCH = (
    r"(?:over-?engineer\w*|over-?complicat\w*|overkill|overdo(?:ing|ne)?(?: it)?|"
    r"over-?built|over-?design\w*)"
)
_THIS = r"(?:this|that|it|all (?:of )?(?:this|that|it)|some of (?:this|that|it|these|them))"
#: Doubts about the size of the work at hand: they count as the habit, questions or not (the
#: module docstring).
_DOUBTS = (
    # are we over-engineering …? / aren't we overcomplicating …?
    re.compile(r"\b(?:are|aren'?t)\s+we\s+(?:not\s+)?(?:\w+\s+)?" + _TOO_MUCH, re.I),
    # (check) whether we're (not) over-engineering … / if we are overdoing it / make sure we're
    # not overcomplicating …
    re.compile(
        r"\b(?:whether|if|check|sure|ensure|confirm)\s+(?:that\s+)?we(?:'re|\s+are)\s+"
        r"(?:not\s+)?(?:\w+\s+)?" + _TOO_MUCH,
        re.I,
    ),
    # whether some of this is (not) overdoing it / if this is getting overkill
    re.compile(
        r"\b(?:whether|if)\s+" + _THIS + r"\s+(?:is|isn'?t|is not|are|aren'?t)\s+"
        r"(?:getting\s+|becoming\s+|a bit\s+|really\s+)?" + _TOO_MUCH,
        re.I,
    ),
    # isn't this overkill …? / isn't a whole event bus over-engineered here?
    re.compile(
        r"\b(?:isn'?t|aren'?t)\s+(?:" + _THIS + r"|(?:a|an|the)\s+(?:\w+\s+){0,3}?\w+)\s+"
        r"(?:\w+\s+)?" + _TOO_MUCH,
        re.I,
    ),
)
#: A positive question whose subject is the work itself ("is this getting over-engineered?").
_THIS_DOUBT = re.compile(
    r"^(?:\W*\w+\W+){0,3}?is\s+" + _THIS + r"\s+(?:getting\s+|becoming\s+|a bit\s+)?" + _TOO_MUCH,
    re.I,
)
#: A question about how or when to tell ("how do I know if we're over-engineering?") asks for
#: a method, not about the work at hand.
_ASKS_HOW = re.compile(r"^\W*(?:\w+\W+)?(?:how|when|what)\b", re.I)
#: Words in quotes are someone else's or a title to write, not the user's doubt.
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
_DOUBT_LEAD = "The user pushes back on over-engineering, wanting only the work that is needed"
#: A question asks; it does not instruct ("could we reuse X?", "is there a simpler way?").
#: A polite request with "please" ("can you please …") is an instruction all the same.
_QUESTION = re.compile(
    r"^(?:(?:ok(?:ay)?|so|and|but|hm+|hmm|well|also|great|nice|cool|thanks)\W+)*"
    r"(?:(?:could|can|should|would|shall|will|do|does|did|is|are|was|were|isn'?t|aren'?t|"
    r"wouldn'?t|shouldn'?t|couldn'?t|can'?t|why|how|what|where|which|when)\b)",
    re.IGNORECASE,
)
_POLITE = re.compile(r"\bplease\b", re.IGNORECASE)
#: A sentence that corrects the assistant by contrast, or suggests to it.
_CONTRAST = re.compile(
    r"^(?:(?:ok(?:ay)?|great|good|nice|thanks|yes|yeah|sure|fine|right|cool)\W+)*"
    r"(?:but|no|nope|actually|instead|however|though|hmm+|wait)\b",
    re.IGNORECASE,
)
_SUGGESTION = re.compile(r"^(?:you|we)\s+(?:can|could|should|might|may)\s+(?!not\b)\w+", re.I)


def is_question(sentence: str) -> bool:
    """Whether a sentence asks rather than instructs: it ends with "?" or opens with a question
    word, and is not a polite request ("could you please …")."""
    flat = sentence.strip()
    asked = flat.endswith("?") or bool(_QUESTION.match(flat))
    return asked and not _POLITE.search(flat)


#: What the user's emphasis looks like here (the same signs the preference rules weigh).
_EMPHASIS = re.compile(
    r"\b(?:DON'?T|NOT|NEVER|MUST|ONLY)\b|!!|\b(?i:really|seriously|absolutely|important|crucial)\b"
)


def habit_clause(text: str, *, after_assistant_action: bool = False) -> str | None:
    """The words around the first wording in a user message that asks for the simplest way
    (the sentence, cut to `MAX_QUOTE_CHARS` around the wording when it is long), or None.
    Long sentences count too: the habit is often said inside a long request. Questions never
    count; a plain statement counts as a suggestion to the assistant ("you can …") or as a
    correction right after it acted ("but there is existing logic …")."""
    plain = strip_markdown(CODE_BLOCK.sub(" ", text))
    for sentence_ in _SENTENCES.split(plain):
        flat = " ".join(sentence_.split())
        if not flat or is_question(flat):
            continue
        match = next((m for cue in _DIRECTIVES if (m := cue.search(flat))), None)
        if match is None and (
            _SUGGESTION.match(flat) or (after_assistant_action and _CONTRAST.match(flat))
        ):
            match = next((m for cue in _HINTS if (m := cue.search(flat))), None)
        if match is not None:
            return around(flat, match.start(), match.end())
    return None


def doubt_clause(text: str) -> str | None:
    """The words around the doubts about the size of the work at hand in a user message ("are
    we over-engineering this?"), or None (module docstring): each doubting sentence, cut around
    its doubt, all of them when together they fit in twice `MAX_QUOTE_CHARS`, else the first."""
    plain = _QUOTED.sub(" ", strip_markdown(CODE_BLOCK.sub(" ", text)))
    clauses: list[str] = []
    for sentence_ in _SENTENCES.split(plain):
        flat = " ".join(sentence_.split())
        if not flat or _ASKS_HOW.match(flat):
            continue
        match = next((m for cue in _DOUBTS if (m := cue.search(flat))), None)
        if match is None and flat.endswith("?"):
            match = _THIS_DOUBT.search(flat)
        if match is not None:
            clauses.append(around(flat, match.start(), match.end()))
    if not clauses:
        return None
    together = " ".join(clauses)
    return together if len(together) <= 2 * MAX_QUOTE_CHARS else clauses[0]


def around(flat: str, start: int, end: int, limit: int = MAX_QUOTE_CHARS) -> str:
    """`flat` when short, else about `limit` characters of it around `start:end`, cut at
    words and marked with "…" where cut."""
    if len(flat) <= limit:
        return flat.strip(" ,;:")
    room = max(0, limit - (end - start)) // 2
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
    clause = habit_clause(text, after_assistant_action=after_assistant_action)
    lead = _LEAD
    if clause is None:
        clause, lead = doubt_clause(text), _DOUBT_LEAD
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
        content=f"{lead}, in their words: “{clause.rstrip('.!;: ')}”.",
        tags=tuple(t for t in ("preference", HABIT_TAG, TENTATIVE_TAG, *marks) if t),
        scope=Scope.USER,
        importance=round(importance, 3),
        correction=after_assistant_action,
    )


def user_instructions(
    text: str, *, after_assistant_action: bool, other_languages: bool = True
) -> list[StatedPreference]:
    """The instructions of one user message: those `stated_preferences` finds, with any that
    only word the simplicity habit filed as the habit (once per message); with
    `other_languages`, also those `tongue_instructions` reads in another language than
    English."""
    found = [
        p
        for p in stated_preferences(text, after_assistant_action=after_assistant_action)
        if not refers_back_only(p.content)
    ]
    if other_languages:
        keys = {p.key for p in found}
        said = tongue_instructions(
            text, instruction_language(text), after_assistant_action=after_assistant_action
        )
        found.extend(p for p in said if p.key not in keys)
    # "automate the commits here applying conventional commits": the convention wanted
    if (wanted := wanted_convention(text)) and wanted.key not in {p.key for p in found}:
        found.append(wanted)
    habit = working_habit(text, after_assistant_action=after_assistant_action)
    if habit is None:
        return found
    kept = [p for p in found if not any(cue.search(p.content) for cue in _CUES)]
    if any(p.standing for p in found if p not in kept):
        # said as a rule ("always keep it simple"): the habit is a standing one from the start
        return [*kept, _standing(habit)]
    return [*kept, habit]


#: An instruction whose only object points back at something said before it ("make a local
#: one", "use that", "keep them"): alone, it says nothing anyone could follow.
_REFERS_BACK = re.compile(
    r"^(?:please\s+)?(?:(?:do\s+not|don'?t|never|always)\s+)?[a-z]+(?:\s+(?:a|an|the|another))?"
    r"(?:\s+(?:new|local|separate|different|other|fresh|same|proper|global|single))?"
    r"\s+(?:one|ones|it|that|this|them|those|these)(?:\s+(?:instead|again|too|then))?[.!]*$",
    re.IGNORECASE,
)


def refers_back_only(content: str) -> bool:
    """Whether an instruction's only object points back at what came before it
    (`_REFERS_BACK`): "Make a local one." kept alone is no rule."""
    return _REFERS_BACK.match(content.strip()) is not None


def _standing(habit: StatedPreference) -> StatedPreference:
    tags = tuple(STANDING_TAG if t == TENTATIVE_TAG else t for t in habit.tags)
    importance = max(STANDING_IMPORTANCE, habit.importance)
    return replace(habit, tags=tags, importance=importance, standing=True)
