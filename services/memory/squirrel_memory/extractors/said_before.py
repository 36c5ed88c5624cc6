"""The user saying they gave an instruction before: "as I said", "I already told you", "again,
never use var", "I told you not to use mocks" → "don't use mocks". The instruction quoted is a
rule when worded as one (a prohibition, a condition, a rule word, a means said again); "I asked
you to fix the login bug" is the task asked again.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.instruction_forms import habit_statement
from squirrel_memory.extractors.instruction_parts import ONE_OFF, VERBS
from squirrel_memory.extractors.standing_marks import CONDITIONED, STANDING
from squirrel_memory.extractors.wording import stem

#: The user saying they gave the instruction before: "as I said", "I already told you", "how
#: many times". ("again" alone is not one: "run the tests again" asks for a re-run; nor is "I
#: just asked you to …", a request of the moment.)
SAID_BEFORE = re.compile(
    r"\b(?:(?:as|like) i (?:said|mentioned|told you)(?: before| earlier)?|i (?:already )?told "
    r"you(?: before| already)|i already (?:said|told you|mentioned)|i(?:'ve| have) (?:already )?"
    r"(?:said|told you)|i keep (?:telling|saying|asking)|how many times|for the (?:second|third|"
    r"hundredth|nth|last) time|"
    # "you did it again. no print statements", "again with the inline styles": said before
    r"you(?:'ve| have)? (?:did|done) (?:it|that|this) again|again with (?:the|these|those|your))\b",
    re.IGNORECASE,
)
#: The user quoting their own earlier instruction: "I told you not to use mocks", "no, I said
#: run the linter before committing", "I already asked you to keep commits small", "I've said
#: this before: don't commit without the tests" (the saying named as "this", "it" or "that",
#: then a colon or comma: the instruction follows it). ("I just asked you to …" is a request
#: of the moment.) What follows is the instruction.
_TOLD = re.compile(
    r"^(?:(?:no|nope|but|and|so|again|well|ok|okay)[\s,]+)*i(?:\s+already|\s+have|['’]ve)?\s+"
    r"(?:said|told you|asked you|mentioned)\s+(?:this|that|it)(?:\s+(?:before|already|earlier|"
    r"twice|(?:many|several|a few|so many|a (?:hundred|thousand|million)) times))+\s*[,:;—–-]\s*"
    r"(?P<x2>.+)$|"
    r"^(?:(?:no|nope|but|and|so|again|well|ok|okay)[\s,]+)*i(?:\s+already|\s+have|['’]ve)?\s+"
    r"(?:said|told you|asked you|mentioned)(?:\s+(?:before|already|earlier|twice|"
    r"(?:many|several|a few) times))?(?:\s*[,:]\s*|\s+)"
    r"(?:(?P<neg>not\s+to|to\s+not|never\s+to)\s+|to\s+)?(?P<x>.+)$",
    re.IGNORECASE,
)
_TOLD_LEAD = re.compile(r"^(?:don'?t|do not|never|always|no)\b", re.IGNORECASE)
#: A means said again ("I told you to use pnpm", "I said use yarn not npm"): the thing used is a
#: bare name, not one picked for the task at hand ("use the second option", "use this file").
_MEANS = re.compile(
    r"^(?:use|prefer|stick (?:to|with))\s+(?!(?:the|this|that|these|those|it|my|your|our|a|an|"
    r"one|another|same|other|option|version|approach|first|second|third|last|previous|next)\b)"
    r"[a-z][\w.+-]*(?:,?\s+(?:not|instead of|over|rather than)\s+[a-z][\w.+-]*)?$",
    re.IGNORECASE,
)
#: A bare choice of one name over another ("pnpm, not npm"), with no verb.
_BARE_CHOICE = re.compile(
    r"^[a-z][\w.+-]*,?\s+(?:not|instead of|rather than|over)\s+[a-z][\w.+-]*$", re.IGNORECASE
)
#: "Reminder, and I mean it: …": a lead that stresses the rule after it, read without it (said
#: once, the reminder makes no rule said before of it).
REMINDER_LEAD = re.compile(
    r"^(?:(?:just\s+)?a\s+(?:friendly\s+|quick\s+)?)?reminder(?:,?\s+and\s+i\s+mean\s+it)?"
    r"\s*[,:—–-]\s*",
    re.IGNORECASE,
)
#: "Again, never use var": the rule said again, read without its lead.
AGAIN_LEAD = re.compile(
    r"^(?:(?:and|once)\s+)?again\s*[,:]\s*|^(?:once more|one more time)\s*[,:-]\s*|"
    # "As usual, run the linter before you commit": a habit said again, its marker first
    r"^(?:(?:as|like) (?:always|usual|ever)|as per usual)(?:\s*[,:-]\s*|\s+)(?:please\s+)?",
    re.IGNORECASE,
)


def told_rule(body: str) -> str | None:
    """The instruction a clause says the user gave before ("I told you not to use mocks" →
    "don't use mocks"); "" when it says so of a task asked again rather than a rule ("I asked
    you to fix the login bug": no prohibition, condition or rule word, or tied to the moment);
    None when the clause says nothing of the kind."""
    match = _TOLD.match(body)
    if match is None:
        return None
    x = (match.group("x") or match.group("x2")).strip()
    if _BARE_CHOICE.match(x):
        x = f"use {x}"  # "I told you before: pnpm, not npm": the means said again
    head = x.split(maxsplit=1)[0].lower() if x else ""
    if not (match.group("neg") or _TOLD_LEAD.match(x) or head in VERBS or stem(head) in VERBS):
        return None  # "I said that the API is slow": a statement, not an instruction
    said = f"don't {x}" if match.group("neg") else x
    ruled = (
        match.group("neg")
        or _TOLD_LEAD.match(x)
        or CONDITIONED.search(x)
        or _MEANS.match(x)
        # "I've said it a few times: keep the diffs small": a form only a rule takes
        or habit_statement(x) is not None
    )
    if not ruled or ONE_OFF.search(said):
        return ""
    return said


def rule_worded(clause: str) -> bool:
    """Whether a clause the user says they said before is worded as a rule, not a task: a
    prohibition or "always" lead, a condition, or a standing word ("for everything"), and
    nothing tying it to the moment."""
    x = SAID_BEFORE.sub(" ", clause).strip(" ,:;.!-")
    ruled = _TOLD_LEAD.match(x) or CONDITIONED.search(x) or STANDING.search(x)
    return bool(ruled) and not ONE_OFF.search(x)
