"""Rules said in a form only a rule takes: how short a kind of thing should be, an order of work,
how a kind of name is written.

"keep commit messages short", "keep PR descriptions to one or two sentences": how long a kind of
thing the work produces should be (a kind, not "it", "things" or "the README"). "write the tests
first, then implement", "first update the spec, then the code": an order of work whose first
step names a work product (not "fix the import first, then run it"). "Use snake_case for
function names", "name files in kebab-case", "constants should be UPPER_CASE": the naming
convention of a kind of name (plural, or "… names": never "this function" or one name), which
holds for all the code however long the task prompt that says it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: "keep commit messages short", "keep PR descriptions to one or two sentences".
_KEEP_SHORT = re.compile(
    r"^keep\s+(?P<x>(?!(?:it|this|that|them|these|those|things|everything|the|my|your|our|its|"
    r"going|working|at)\b)[\w`'./+-]+(?:\s+(?:and\s+)?[\w`'./+-]+){0,5}?)\s+"
    r"(?:(?:very\s+|really\s+)?(?:short|brief|concise|small|minimal|terse|focused|lean|atomic)|"
    r"to\s+(?:one|two|three|a few|\d+(?:-\d+)?|one or two)\s+(?:sentences?|lines?|words?|"
    r"paragraphs?|bullets?))\b",
    re.IGNORECASE,
)
#: "write the tests first, then implement", "first update the spec, then the code".
_ORDER = re.compile(
    r"^(?:first,?\s+(?P<a1>[^,;]{4,70}?)|(?P<a2>[^,;]{4,70}?)\s+first),?\s+(?:and\s+)?then\s+"
    r"(?P<b>[^;]{3,120})$",
    re.IGNORECASE,
)
_WORK_PRODUCT = re.compile(
    r"\b(?:tests?|specs?|specifications?|docs?|documentation|plans?|designs?|changelog|"
    r"interfaces?|schemas?|types?)\b",
    re.IGNORECASE,
)
MAX_ORDER_STEP_WORDS = 5
#: A naming convention by its usual name.
NAMING_CONVENTION = re.compile(
    r"\b(?:(?:screaming[_ ])?snake[_ ]case|camel[_ ]?case|pascal[_ ]?case|kebab[-_ ]case|"
    r"upper[_ ]case|lower[_ ]case)\b",
    re.IGNORECASE,
)
_CONVENTION = NAMING_CONVENTION.pattern.replace("\\b", "")
#: A kind of name, in the plural or as "… names" (`function names`, `React components`).
_NAME_KIND = (
    r"(?:(?:all|every|new)\s+)?(?:[a-z]+\s+)?(?:"
    r"functions|methods|variables|classes|types|files|folders|directories|modules|packages|"
    r"constants|components|fields|properties|columns|tables|tests|branches|structs|"
    r"interfaces|enums|hooks|routes|endpoints|identifiers|arguments|parameters|keys|"
    r"(?:function|method|variable|class|type|file|folder|module|package|constant|component|"
    r"field|column|table|test|branch|struct|enum|key)\s+names)"
)
#: "use snake_case for function names", "name files in kebab-case", "constants should be
#: UPPER_CASE".
_NAMING = re.compile(
    rf"^(?:(?:use|write|prefer)\s+`?(?P<c1>{_CONVENTION})`?\s+(?:for|in)\s+(?:the\s+)?"
    rf"(?P<k1>{_NAME_KIND})"
    rf"|name\s+(?:the\s+)?(?P<k2>{_NAME_KIND})\s+(?:in|with|using)\s+`?(?P<c2>{_CONVENTION})`?"
    rf"|(?:the\s+)?(?P<k3>{_NAME_KIND})\s+(?:should|must)\s+(?:be\s+(?:written\s+)?(?:in\s+)?|"
    rf"use\s+)`?(?P<c3>{_CONVENTION})`?)"
    r"\s*[.!]?$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class HabitForm:
    """A clause in a habit form: the rule as said, the words its key is made from, and for an
    order of work its first step (the caller checks that step starts with a verb of work)."""

    content: str
    subject: str
    first_step: str | None = None


#: "keep the commit messages short": a kind named with "the", in the plural.
_THE_KIND = re.compile(r"^(keep)\s+the\s+(?=(?:[\w`'./+-]+\s+){0,4}?[\w`'./+-]*[^s\W]s\s)", re.I)
#: "write the test first", "add a failing test first": the test before the change it tests.
_TEST_FIRST = re.compile(
    r"^(?:write|add|create)\s+(?:the\s+|a\s+)?(?:failing\s+|new\s+|unit\s+)?"
    r"(?P<x>tests?|specs?)\s+first$",
    re.IGNORECASE,
)


def habit_form(clause: str) -> HabitForm | None:
    """The habit form `clause` takes ("keep <kind of thing> short", "<work product> first,
    then …"), or None."""
    if match := _KEEP_SHORT.match(_THE_KIND.sub(r"\1 ", clause.strip())):
        return HabitForm(clause.strip(" .!,;:"), match.group("x"))
    if match := _TEST_FIRST.match(clause.strip(" .!,;:")):
        return HabitForm(clause.strip(" .!,;:"), f"{match.group('x')} first")
    if match := _NAMING.match(clause.strip()):
        kind = match.group("k1") or match.group("k2") or match.group("k3")
        convention = match.group("c1") or match.group("c2") or match.group("c3")
        return HabitForm(clause.strip(" .!,;:"), f"{kind} {convention}")
    if match := _ORDER.match(clause):
        first = match.group("a1") or match.group("a2")
        if _WORK_PRODUCT.search(first) and len(first.split()) <= MAX_ORDER_STEP_WORDS:
            return HabitForm(clause.strip(" .!,;:"), f"{first} {match.group('b')}", first)
    return None
