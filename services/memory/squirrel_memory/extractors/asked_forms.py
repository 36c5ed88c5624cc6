"""Corrections of the assistant asked as questions: "did you push?" → "push before calling a
task done", "why are you adding a trailer?" → "don't add a trailer", "why are we writing docs
instead of using artifacts?" → "Prefers using artifacts over writing docs".
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.instruction_keys import tool_words
from squirrel_memory.extractors.instruction_parts import (
    ONE_OFF,
    Found,
    base_form,
    clean,
    first_verb,
    usable,
    worded,
)
from squirrel_memory.extractors.wording import stem, word_set

#: "did you push?", "you forgot to run the tests": something expected before a task is done.
#: "we" is the assistant's work too, as the user sees it, when asked: "we didn't write any
#: tests?" ("we never push to main" states a practice).
_ASKED_DONE = re.compile(
    r"^(?:did you|have you|you forgot to|you (?:always|keep|constantly) forget(?:ting)? to|"
    r"you didn'?t|you did not|you never|"
    r"(?:we didn'?t|we did not)(?=.*\?\s*$)|"
    r"why didn'?t you|why did you not)\s+(?P<x>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
_WHY_DID = re.compile(r"^why (?:did|do) you\s+(?P<x>.+?)[\s?.!]*$", re.IGNORECASE)
#: "why are you adding a trailer?": what the assistant keeps doing, asked as a correction.
_WHY_ARE = re.compile(r"^why (?:are|were) you\s+(?P<x>\w+ing\b.+?)[\s?.!]*$", re.IGNORECASE)
#: "why are we writing docs instead of using artifacts?", "why not use the helper rather than
#: a new one?": the contrast says which way the user wants, asked about the work at hand.
_WHY_INSTEAD = re.compile(
    r"^why (?:(?P<not>not)\s+(?:just\s+)?|(?:are|were|do|did|would) (?:you|we)\s+)"
    r"(?P<x>.+?),?\s+(?:instead of|rather than)\s+(?P<y>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
#: A pronoun that ends a side of a contrast after "and", taking up the side's own thing
#: ("writing docs and committing them"), not one thing of the task ("changing it").
_BACK_REFERENCE = re.compile(r"(\s(?:and|then)\s+\w+)\s+(?:them|it)$", re.IGNORECASE)
#: Gerunds that only carry the means a contrast is about ("using npm instead of pnpm").
_MEANS = word_set("using running calling installing choosing picking")
#: Verbs of making or changing something, whose "why are you …ing?" objects to what is made
#: ("why are you running the tests?" may only ask).
_MAKING = word_set(
    "adding creating writing using putting including making committing pushing installing ",
    "changing deleting removing renaming moving copying generating editing",
)
#: The most words each side of a contrast asked about may have.
MAX_CONTRAST_WORDS = 8
_TRAILING_ADVERB = re.compile(r"(?<!\s)\s+(?:yet|already|too|as well|first|again)$", re.IGNORECASE)
#: Verbs whose "did you …?" asks after routine work the user expects without asking.
_ROUTINE = word_set(
    "add build bump check commit deploy document fix format lint merge open push rebase ",
    "release run sign squash tag test type-check update verify write",
)


def _contrast(match: re.Match[str]) -> Found | None:
    """ "why are we writing docs instead of using artifacts?" → "Prefers using artifacts over
    writing docs."; "why not use the helper instead of a new one?" → "Use the helper instead of
    a new one."; None when a side is one thing of the task ("it", "this") or too long."""
    x, y = clean(match.group("x")), clean(match.group("y"))
    sides = (x, y)
    # "writing docs and committing them": the pronoun takes up the side's own thing
    own = [_BACK_REFERENCE.sub(r"\1", side) for side in sides]
    if not all(usable(side) for side in sides) or any(
        ONE_OFF.search(side) or len(side.split()) > MAX_CONTRAST_WORDS for side in own
    ):
        return None
    if match.group("not"):
        return worded(f"{x} instead of {y}", f"{x} {y}") if first_verb(x) else None
    if x.split()[0].lower() not in _MAKING | _MEANS:
        return None  # "why did you use X instead of Y", "why are you reading X": other forms
    if x.split()[0].lower() in _MEANS and len(x.split()) > 1:
        # "using npm instead of using pnpm", "using npm instead of pnpm" → npm, pnpm
        x = x.split(maxsplit=1)[1]
        y = y.split(maxsplit=1)[1] if y.split()[0].lower() in _MEANS and len(y.split()) > 1 else y
    subject = " ".join(_BACK_REFERENCE.sub(r"\1", side) for side in (x, y))
    return worded(f"Prefers {y} over {x}", subject, choice=bool(tool_words(subject)))


def asked_statement(clause: str) -> Found | None:
    """A correction phrased as a question: "did you push?" → "Push before calling a task done."."""
    if match := _ASKED_DONE.match(clause):
        x = _TRAILING_ADVERB.sub("", clean(match.group("x")))
        head, _, rest = x.partition(" ")
        verb = stem(head.lower()) if stem(head.lower()) in _ROUTINE else head.lower()
        if verb not in _ROUTINE or len(x.split()) > 6 or re.search(r"\b(?:i|me|my)\b", x, re.I):
            return None
        return worded(f"{verb} {rest}".strip() + " before calling a task done", x)
    if (match := _WHY_INSTEAD.match(clause)) and (contrast := _contrast(match)):
        return contrast
    if match := _WHY_ARE.match(clause):
        said = _TRAILING_ADVERB.sub("", clean(match.group("x")))
        x = base_form(said)
        if (
            said.split()[0].lower() not in _MAKING
            or not first_verb(x)
            or not usable(x)
            or len(x.split()) > MAX_CONTRAST_WORDS
            or ONE_OFF.search(x)
        ):
            return None
        return worded(f"don't {x}", x)
    if match := _WHY_DID.match(clause):
        x = _TRAILING_ADVERB.sub("", clean(match.group("x")))
        if not first_verb(x) or not usable(x) or len(x.split()) > 8:
            return None
        return worded(f"don't {x}", x)
    return None
