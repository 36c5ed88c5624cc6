"""Rules no verb form of `instruction_forms` reads, told by their shape, and the words of a
rule the user says they said before.

- An imperative clause over every future thing of a kind ("declare strict types in every new
  file", "register every new handler with its middleware") is a rule whatever its verb: it
  says how each such thing is made from now on. A clause that opens with what it is about
  ("every new test fails", "the new file is broken") states something; a task names existing
  things ("fix the imports in every file").
- A requirement that things keep a property ("the scripts must stay POSIX sh", "the public API
  must remain backwards compatible") is a rule about the code.
- A norm for a kind of thing, said of the kind (`_KIND_NORMS`): where it goes ("ctx goes first
  in every function signature", "previews go at the bottom of the file", "business logic goes
  in service objects"), what every one of it says or follows ("every commit message explains
  why"), how it is named ("async methods end in Async", "feature flags are named in
  kebab-case", "error strings are lowercase"), one of it per another ("one class per file"),
  or what it is in the codebase, by default or with an exception ("DTOs are data classes in our
  codebase", "classes are final by default", "imports are qualified except for the Prelude",
  "components are function components, no classes"). The kind is named bare, never "the
  parser", "it" or "this file", and no state is told ("memory goes up", "every test fails",
  "tests are broken except on CI"); what every one of a kind gets ("every user gets an email")
  is what the product does.
- `RESTATING`: the user saying what follows is not new ("as before", "like I asked last time",
  "Again, …", "you forgot it again"), more loosely than "as I said". Alone it makes no
  instruction: `preferences` keeps such words only as a candidate waiting to match an
  instruction the user gave before.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.instruction_parts import ONE_OFF, Found, worded
from squirrel_memory.extractors.wording import word_set

#: The user saying what follows is not new, more loosely than `_SAID_BEFORE` ("as before",
#: "like I asked last time", "Again, …", "you forgot it again"): on its own it makes no
#: instruction (a restated candidate must match one the user gave before).
RESTATING = re.compile(
    r"(?:(?:,\s*)?\b(?:as|like) (?:i )?(?:said|asked|mentioned|told you|requested|wrote|did)?"
    r"\s*(?:before|earlier|last (?:time|week|session)|previously)?\b(?=\s*[.!:,]|\s*$)|"
    r"(?:,\s*)?\b(?:as|like) i (?:said|asked|mentioned|told you|requested)\b(?: (?:before|"
    r"earlier|last (?:time|week|session)|previously))?|"
    r"^(?:you )?forgot (?:it |this |that )?again\s*[:,.-]?|^(?:and |once )?again\s*[,:]|"
    r"^remember\s*[:,-]|^(?:once more|one more time|for the (?:second|third|last|hundredth|nth) "
    r"time)\s*[:,-])\s*",
    re.IGNORECASE,
)
#: A rule over every future thing of a kind ("in every new PHP file", "for all new services"):
#: an imperative clause that names one is a rule, whatever its verb.
_EVERY_NEW = re.compile(r"\b(?:every|each|all|any) new [\w-]+", re.IGNORECASE)
#: First words of a clause that states something rather than asks for it.
_NOT_IMPERATIVE = word_set(
    "a an the this that these those it its i i'm we you they there he she every each all any ",
    "some my our your their what why how when where who which is are was were do does did ",
    "can could would should will if",
)
#: A requirement that a kind of thing keep a property ("the scripts must stay POSIX sh").
_MUST_KEEP = re.compile(
    r"^(?:the |our |all |every |each )?(?P<x>[\w`'\"./-]+(?:\s[\w`'\"./-]+){0,3})\s+must\s+"
    r"(?:always\s+)?(?:stay|remain)\s+(?P<y>[^,;.]+)",
    re.IGNORECASE,
)


#: A kind named bare: no article, pronoun or possessive first, at most three words.
_KIND = (
    r"(?!(?:the|this|that|these|those|it|its|there|here|i|we|you|he|she|they|my|our|your|his|"
    r"her|their|a|an|one|some|any|what|which|who|everything|something|nothing|memory|cpu|"
    r"traffic|load|usage|time)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?"
)
_KIND_NORMS = (
    # ctx goes first in every function signature / previews go at the bottom of the file
    re.compile(
        rf"^{_KIND}\s+(?:goes|go|belongs?|lives?|stays?)\s+(?:first|last|in|into|inside|under|"
        r"next to|alongside|on top|at the (?:top|bottom|start|end))\b\s*\S",
        re.IGNORECASE,
    ),
    # every commit message explains why the change was made
    re.compile(
        rf"^(?:every|each)\s+{_KIND}\s+(?:explains|describes|mentions|starts with|"
        r"ends with|ends in|follows|derives|declares|includes)\s+\S",
        re.IGNORECASE,
    ),
    # async methods end in Async / feature flags are named in kebab-case
    re.compile(
        rf"^{_KIND}s\s+(?:end|start)\s+(?:in|with)\s+(?!(?:a|an|the|some|errors?|failures?)\b)\S"
        rf"|^{_KIND}s\s+are\s+(?:named|prefixed|suffixed|spelled|written)\s+(?:in|with)\s+\S",
        re.IGNORECASE,
    ),
    # one class per file (said alone: not "one class per file is fine here") / error strings
    # are lowercase
    re.compile(
        r"^one\s+[a-z][\w-]*\s+per\s+(?!(?:second|minute|hour|day|week|month|year|request|user|"
        r"call)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s*(?:[,;.!]|$)"
        rf"|^{_KIND}s\s+are\s+(?:lower-?case|upper-?case|capitali[sz]ed|camel-?case|snake_case|"
        r"kebab-case|pascal-?case|immutable|final|sealed|frozen|read-?only)\b",
        re.IGNORECASE,
    ),
    # classes are final by default / imports are qualified except for the Prelude / components
    # are function components, no classes
    re.compile(
        rf"^{_KIND}s\s+are\s+[^,;]{{2,40}}?(?:\s+by default\b|\s+except\s+(?:for|in|when)\s+\S"
        # "DTOs are data classes in our codebase": the team's way for the kind
        r"|\s+in\s+(?:our|this)\s+(?:codebase|code base|repo|repository|project|code)\W*$)"
        # "…, no classes" after a noun, never a participle ("users are logged out, no …")
        rf"|^{_KIND}s\s+are\s+(?:[a-z][\w-]*\s+){{0,2}}[a-z][\w-]*(?<!ed)(?<!out)(?<!off)(?<!in)"
        r",\s+no\s+[a-z][\w-]*s\b",
        re.IGNORECASE,
    ),
)
#: How things stand, not how they are to be ("memory goes up", "tests are broken except on CI").
_STATE = re.compile(
    r"\b(?:fail\w*|break\w*|broken|crash\w*|hang\w*|flak\w*|slow|down|up|missing|wrong|stuck|"
    r"leak\w*|times? out|timing out|anymore|still|now|again|green|red|passing|"
    r"empty|null|nil|undefined|blank|stale|outdated|logged)\b",
    re.IGNORECASE,
)


def kind_norm(body: str) -> bool:
    """Whether `body` states a norm for a kind of thing (`_KIND_NORMS`), not a state."""
    text = body.strip()
    return any(p.match(text) for p in _KIND_NORMS) and not _STATE.search(text)


def rule_shape(body: str) -> Found | None:
    """A rule no verb form reads, told by its shape: an imperative clause over every future
    thing of a kind ("declare strict types in every new file"), or a requirement that things
    keep a property ("the scripts must stay POSIX sh"). Never about "it", "this …" or one
    named thing of the code."""
    text = body.strip().rstrip(".!")
    if ONE_OFF.search(text) or len(text) > 160:
        return None
    if kind_norm(text):
        return worded(text[0].upper() + text[1:], text)
    if match := _MUST_KEEP.match(text):
        said = f"{match.group('x')} must stay {match.group('y').strip()}"
        return worded(said[0].upper() + said[1:], said)
    words = text.split()
    first = words[0].lower().strip(",:") if words else ""
    if (
        _EVERY_NEW.search(text)
        and len(words) >= 4
        and first.isalpha()
        and first not in _NOT_IMPERATIVE
        and not first.endswith(("ed", "s"))
    ):
        return worded(text, text)
    return None
