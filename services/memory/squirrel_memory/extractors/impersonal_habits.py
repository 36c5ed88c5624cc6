"""Habits said around an "it" that names nothing, which the clause-level check would take for a
thing of the moment: what the user cannot bear the assistant doing ("I hate it when you leave
TODOs", "it drives me crazy when you reformat whole files", "nothing bugs me more than unused
imports") and a requirement on every thing of a kind, stressed ("it's important that all
functions have type hints"; a learner may leave out the "it")."""

from __future__ import annotations

import re

from squirrel_memory.extractors.habit_forms import HabitForm
from squirrel_memory.extractors.habit_kinds import (
    COMPARED,
    KIND,
    MOMENT,
    PICKED,
    VAGUE_END,
    a_kind,
    work_kind,
)

#: "it's important that all functions have type hints", "is essential that every endpoint
#: has a test": a requirement on every thing of a kind, stressed (a learner may leave out "it").
_STRESSED_EVERY = re.compile(
    r"^(?:it(?:'s|’s|\s+is)\s+|is\s+)(?:very\s+|really\s+|super\s+)?(?:important|essential|"
    r"crucial|mandatory|required)\s+that\s+"
    rf"(?P<q>every|each|all)\s+(?P<new>new\s+)?{KIND}\s+"
    r"(?P<v>have|has|get|gets|include|includes|carry|carries|follow|follows)\s+"
    r"(?P<x>(?!to\b)[^,;]{2,100})$",
    re.IGNORECASE,
)
#: "I hate it when you leave TODOs", "it drives me crazy when you reformat whole files",
#: "nothing bugs me more than unused imports": what the assistant does that the user cannot bear,
#: said of the assistant or of a kind of thing (not "I hate this TODO", "it annoys me that the
#: build is slow", "my boss hates when people …").
_ANNOYED = (
    r"i\s+(?:really\s+)?(?:hate|dislike|can'?t\s+stand|don'?t\s+like)\s+(?:it\s+)?|"
    r"it\s+(?:really\s+)?(?:drives\s+me\s+(?:crazy|nuts|mad|insane|up\s+the\s+wall)|"
    r"(?:annoys|bugs|irritates|frustrates|bothers)\s+me|gets\s+on\s+my\s+nerves)\s+"
)
_ANNOYED_WHEN = re.compile(
    rf"^(?:{_ANNOYED})when(?:ever)?\s+(?P<who>you|(?:your\s+)?(?:answers|replies|responses))\s+"
    r"(?P<x>[a-z][^,;]{3,100}?)(?:\s*[,;]\s*(?:just\s+)?(?P<rest>[a-z][^;]{2,80}))?$",
    re.IGNORECASE,
)
_ANNOYED_MOST = re.compile(
    r"^nothing\s+(?:annoys|bugs|irritates|bothers|frustrates)\s+me\s+more\s+than\s+"
    r"(?P<x>[a-z][^,;]{3,80})$",
    re.IGNORECASE,
)


def _stressed_every(match: re.Match[str]) -> HabitForm | None:
    x, kind = match.group("x").strip(), match.group("k")
    if not work_kind(kind) or COMPARED.search(x) or _ONE_THING.search(x):
        return None  # "it's important that all users get an email": the product
    verb = match.group("v").lower()
    base = (
        verb
        if verb in ("have", "get", "include", "carry", "follow")
        else ("have" if verb == "has" else verb[:-3] + "y" if verb.endswith("ies") else verb[:-1])
    )
    new = "new " if match.group("new") else ""
    said = f"{match.group('q').capitalize()} {new}{kind} must {base} {x}"
    return HabitForm(said, f"every {kind} {x}")


def _annoyed_when(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    verb = x.split()[0].lower()
    if MOMENT.search(x) or _ONE_THING.search(x) or VAGUE_END.search(x):
        return None  # "… when you did that", "… when you touch this file": the moment's
    rest = match.group("rest")
    # "…, just write plain paragraphs": what to do instead, kept with it
    instead = f"; {rest.strip().rstrip('.!')}" if rest and not _ONE_THING.search(rest) else ""
    if match.group("who").lower() != "you":
        return HabitForm(f"Dislikes it when {match.group('who').lower()} {x}{instead}", x)
    if verb.endswith("ed") or verb in PICKED:
        return None  # "… when you changed …": the moment's complaint
    return HabitForm(f"Don't {x}{instead}", x)


def _annoyed_most(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    if not a_kind(x) or x.lower().startswith("when") or _ONE_THING.search(x):
        return None
    return HabitForm(f"Avoid {x}", x)


#: Words that pick one thing of the moment inside a complaint ("when you touch this file").
_ONE_THING = re.compile(
    r"\b(?:it|this|these|those|them|now|yet|again|today|that (?:one|file|function|test|change))\b",
    re.IGNORECASE,
)


def impersonal_form(clause: str) -> HabitForm | None:
    """A habit said around an "it" that names nothing: what the user cannot bear the assistant
    doing ("I hate it when you leave TODOs, finish it or tell me", "it drives me crazy when you
    reformat whole files"), a requirement stressed ("it's important that all functions have
    type hints"); no thing of the moment may follow."""
    text = clause.strip().rstrip(" .!")
    if not text or text.endswith("?") or MOMENT.search(text):
        return None
    for pattern, form in (
        (_ANNOYED_WHEN, _annoyed_when),
        (_ANNOYED_MOST, _annoyed_most),
        (_STRESSED_EVERY, _stressed_every),
    ):
        if (match := pattern.match(text)) and (found := form(match)):
            return found
    return None
