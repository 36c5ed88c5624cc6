"""What a habit said in everyday words rules over: a kind of thing the work makes, told from a
thing of the moment.

"public functions", "commit messages", "new endpoints" name a kind of thing the work makes, whose
conventions a habit sets; "the tests", "it", "this file" pick things of the moment, "users" or
"orders" are the product being built, and "better", "now", "again", "that" tie a wording to the
work at hand. `kind_rules` and `standing_wishes` read their wordings with these words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from squirrel_memory.extractors.habit_forms import HabitForm
from squirrel_memory.extractors.wording import word_set

#: Words that pick one thing of the moment (or say nothing) at the start of a kind.
PICKED = word_set(
    "the this that these those it its them my your our their his her a an one another same ",
    "other old previous next first second last things stuff everything something we you they ",
    "i he she there here",
)
#: Kinds of things the work makes, whose conventions a habit sets (a rule over "every user" or
#: "all orders" is a requirement of the product being built, a task).
WORK_KINDS = word_set(
    "commit message name function method class variable file test spec comment docstring ",
    "error exception log import module package constant type interface struct enum doc ",
    "migration branch pr script hook component fixture mock assertion changelog entry title ",
    "description string identifier field column table query endpoint handler route secret ",
    "dependency version tag release crate gem library service controller model view template ",
    "header readme document config setting argument parameter option flag feature helper ",
    "file-name filename path directory folder script job workflow pipeline step check lint ",
    "snapshot benchmark example annotation hint signature macro trait protocol extension ",
    "record dto schema resource manifest chart image container dockerfile makefile target ",
    "change patch diff fix bugfix refactor",
)
#: A judgement of the work at hand rather than a rule ("errors should be handled better").
COMPARED = re.compile(
    r"\b(?:better|worse|faster|slower|cleaner|simpler|shorter|longer|smaller|bigger|clearer|"
    r"nicer|more|less|fewer)\b",
    re.IGNORECASE,
)
#: Words that tie a wording to the moment.
MOMENT = re.compile(r"\b(?:now(?! on\b)|yet|again|today|this time|at the moment)\b", re.I)
KIND = r"(?P<k>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
VAGUE_END = re.compile(r"\b(?:that|this|it|so)(?:\s+again)?$", re.IGNORECASE)


def a_kind(kind: str) -> bool:
    """ "public functions", "new endpoint": a kind named without picking one of the moment."""
    words = kind.lower().split()
    return bool(words) and words[0] not in PICKED


def work_kind(kind: str) -> bool:
    """ "public functions", "commit messages": a kind of thing the work makes (not "users")."""
    last = kind.lower().split()[-1] if kind.split() else ""
    return a_kind(kind) and (
        last in WORK_KINDS or last.removesuffix("s") in WORK_KINDS or last[:-2] in WORK_KINDS
    )


def as_sentence(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


#: A wording: the pattern that reads a clause, and what makes a habit of its match (None: the
#: match names a thing of the moment, or the product).
Wording = tuple[re.Pattern[str], Callable[[re.Match[str]], HabitForm | None]]
