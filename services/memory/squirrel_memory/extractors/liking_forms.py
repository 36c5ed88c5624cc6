"""Instructions said as the user's liking or judgement: "I prefer f-strings", "I'd rather see
iterator chains than index loops", "I like AssertJ better than the JUnit ones", "I hate when
functions use naked returns, please don't", "it doesn't make sense to commit in a broken state",
"I never asked you to push", "the overriding rule is to not get in the way". Each form's
object is cleaned and refused when it picks one thing on the table ("I prefer the second
one") or is tied to the task at hand.
"""

from __future__ import annotations

import re
from dataclasses import replace

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

_PREFER = re.compile(
    r"^(?:i|we)?\s*(?:would\s+|really\s+|generally\s+|always\s+)*(?:prefers?|'d prefer)\s+"
    r"(?P<x>.+?)(?:\s+(?:over|to|rather than|instead of)\s+(?P<y>[^,;]+))?$",
    re.IGNORECASE,
)
#: "I'd rather you use pnpm than npm", "I would rather have small commits", "I'd rather you
#: didn't add dependencies": a preference said as what the user would rather have.
_RATHER = re.compile(
    r"^(?:i|we)\s*(?:'d|’d|\s+would)\s+(?:much\s+|really\s+)?rather\s+(?:(?P<you>you|we)\s+)?"
    r"(?P<neg>not\b\s*|didn'?t\s+|did not\s+)?(?:(?:use|have|go with|stick with|keep|see)\s+)?"
    r"(?P<x>.+?)(?:\s+(?:than|over|instead of|rather than)\s+(?P<y>[^,;]+))?$",
    re.IGNORECASE,
)
#: "it doesn't make sense to commit in a broken state", "there's no point in running X twice":
#: a way of working the user rules out, said as a judgement rather than a "don't".
_NO_SENSE = re.compile(
    r"^(?:(?:it|that|this)\s+)?(?:doesn'?t|does not|wouldn'?t|would not|won'?t)\s+make\s+"
    r"(?:any\s+|much\s+)?sense\s+to\s+(?P<x>.+)$"
    r"|^there'?s\s+no\s+(?:point|sense)\s+(?:in\s+)?(?P<x2>\w+ing\b.+)$",
    re.IGNORECASE,
)
#: "I did not say commit anything", "I never asked you to push": the assistant did what the
#: user did not ask for; the rule is not to do it unasked.
_NOT_ASKED = re.compile(
    r"^i\s+(?:did\s+not|didn'?t|never)\s+(?:say|said|ask(?:ed)?(?:\s+you)?|tell\s+you|"
    r"told\s+you|want(?:ed)?\s+you)\s+"
    r"(?:to\s+)?(?P<x>.+?)(?:\s+(?:anything|at all|yet))?[\s.!]*$",
    re.IGNORECASE,
)
#: "the overriding directive is to not get in the way of the user": a principle the user
#: names as the rule that decides the rest.
_PRINCIPLE = re.compile(
    r"^(?:the|our|my)\s+(?:overriding|overarching|main|golden|guiding|general|first|key|core|"
    r"number one|most important)\s+(?:rule|principle|directive|priority|goal)\s+(?:here\s+)?"
    r"(?:is|should be)\s+(?:to\s+)?(?P<neg>not\s+(?:to\s+)?)?(?P<x>.+)$",
    re.IGNORECASE,
)
#: "I like short commit messages": a liking for a kind of thing (not "I like it", "I like the
#: new layout", "I like how …", which praise the work at hand).
_LIKE = re.compile(
    r"^(?:i|we)\s+(?:really\s+|generally\s+|always\s+)*(?:like|love)\s+"
    r"(?P<x>(?!(?:it|this|that|the|these|those|your|how|what|when|where|to see|you|him|her|"
    r"them|a lot|much)\b).+)$",
    re.IGNORECASE,
)
#: "I hate when functions use naked returns, please don't", "I hate model callbacks, put it in
#: the service instead": a dislike the user asks the work to keep clear of (the second part
#: says so; "I hate when the build is slow" alone is a complaint).
_HATE = re.compile(
    r"^(?:i|we)\s+(?:really\s+|just\s+)?(?:hate|dislike|can'?t stand|don'?t like|do not like)\s+"
    r"(?:it\s+)?(?P<when>when\s+)?(?P<x>(?!(?:it|this|that|the|these|those|you|your)\b)[^,;]+?)"
    r"\s*[,;:.-]+\s*(?P<then>.+)$",
    re.IGNORECASE,
)
_HATE_THEN = re.compile(
    r"^(?:(?:so|and|just)\s+)?(?:please\s+)?(?:(?:don'?t|do not)(?!\s+(?:worry|bother|mind)\b)|"
    r"avoid|stop|never)\b|.*\binstead\b",
    re.IGNORECASE,
)
_INSTEAD_END = re.compile(r"\binstead\W*$", re.IGNORECASE)
#: The two sides of a liked thing: "pattern matching in function heads rather than case".
_LIKED_OVER = re.compile(
    r"^(?P<x>.+?)\s+(?:better than|rather than|instead of)\s+(?P<y>.+)$", re.IGNORECASE
)
#: An object that picks one of the things on the table ("I prefer the second approach",
#: "I'd rather go with option B", "I prefer yours"): a choice for the task at hand.
_PICK = re.compile(
    r"^(?:(?:the|this|that|your|my|his|her|their)\s+(?:(?:first|second|third|fourth|last|"
    r"former|latter|other|previous|original|earlier|current|new|old)\b|(?:[\w-]+\s+)?"
    r"(?:one|option|version|variant|proposal|suggestion|approach|solution|plan|idea)s?$)|"
    r"(?:option|variant|choice|approach|plan|solution|number)\s+\w{1,3}$|"
    r"(?:yours|mine|both|neither|either|that|this|it)$|"
    # "prefer whichever is faster", "I'd prefer the shorter name": one of two on the table
    r"(?:whichever|whatever|either one|any of them)\b|"
    r"the\s+(?:shorter|longer|simpler|cleaner|faster|smaller|bigger|newer|older|clearer|safer|"
    r"easier|nicer|better)\b)",
    re.IGNORECASE,
)
#: Fewest words of a named principle ("to ship" says nothing of how).
MIN_PRINCIPLE_WORDS = 3
#: Most words of a liked thing ("I like short commit messages"); more is a story.
MAX_LIKED_WORDS = 8


def liking_statement(clause: str) -> tuple[bool, Found | None]:
    """Whether a liking form reads `clause`, and the instruction it states (None when the
    form reads it but refuses its object: no other form may read it then)."""
    if match := _PREFER.match(clause):
        x, y = clean(match.group("x")), clean(match.group("y") or "")
        if x.lower() == "not":  # "I prefer not to use mocks": a way ruled out
            ok = usable(y) and first_verb(y) and not ONE_OFF.search(y)
            return True, worded(f"don't {y}", y) if ok else None
        if not usable(x) or ONE_OFF.match(x) or _PICK.match(x):
            return True, None
        text = f"Prefers {x} over {y}" if y else f"Prefers {x}"
        return True, worded(text, f"{x} {y}", choice=bool(tool_words(f"{x} {y}")))
    if match := _RATHER.match(clause):
        x, y = clean(match.group("x")), clean(match.group("y") or "")
        negative = bool(match.group("neg")) or x.lower() == "not"
        x = "" if x.lower() == "not" else x
        if not usable(x) or ONE_OFF.match(x) or _PICK.match(x) or len(x.split()) > MAX_LIKED_WORDS:
            return True, None
        if negative:
            return True, worded(f"don't {x}", x) if first_verb(x) else None
        text = f"Prefers {x} over {y}" if y else f"Prefers {x}"
        found = worded(text, f"{x} {y}", choice=bool(y) and bool(tool_words(f"{x} {y}")))
        if found and y and first_verb(x) and match.group("you"):
            # "I'd rather you ask than guess": one way of working over another, for all work
            return True, replace(found, standing=True)
        return True, found
    if match := _NO_SENSE.match(clause):
        x = clean(match.group("x") or base_form(match.group("x2")))
        return True, worded(f"don't {x}", x) if usable(x) and first_verb(x) else None
    if match := _NOT_ASKED.match(clause):
        x = clean(match.group("x"))
        if not usable(x) or not first_verb(x) or len(x.split()) > MAX_LIKED_WORDS:
            return True, None
        return True, worded(f"don't {x} unless the user asks for it", x)
    if match := _PRINCIPLE.match(clause):
        x = clean(match.group("x"))
        if not usable(x) or len(x.split()) < MIN_PRINCIPLE_WORDS:
            return True, None
        return True, worded(f"don't {x}" if match.group("neg") else x, x)
    if (match := _HATE.match(clause)) and _HATE_THEN.match(match.group("then")):
        # "I hate when functions use naked returns, please don't": a thing to avoid
        x = clean(match.group("x"))
        if not usable(x) or ONE_OFF.search(x) or len(x.split()) > MAX_LIKED_WORDS:
            return True, None
        said = f"Dislikes it when {x}" if match.group("when") else f"Dislikes {x}"
        instead = match.group("then") if _INSTEAD_END.search(match.group("then")) else ""
        return True, worded(f"{said}; {clean(instead)}" if instead else said, x)
    if match := _LIKE.match(clause):
        x = clean(match.group("x"))
        if (sides := _LIKED_OVER.match(x)) and not any(
            ONE_OFF.search(side) or len(side.split()) > MAX_LIKED_WORDS for side in sides.groups()
        ):
            # "I like AssertJ assertions better than the JUnit ones": one thing over another
            x, y = (clean(side) for side in sides.groups())
            both = f"{x} {y}"
            return True, worded(f"Prefers {x} over {y}", both, choice=bool(tool_words(both)))
        if not usable(x) or ONE_OFF.search(x) or len(x.split()) > MAX_LIKED_WORDS:
            return True, None
        # "I like small focused commits": a kind of thing liked, for all later work
        found = worded(f"Prefers {x}", x, choice=bool(tool_words(x)))
        return True, replace(found, standing=True) if found else None
    return False, None
