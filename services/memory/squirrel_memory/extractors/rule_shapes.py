"""Rules no verb form of `instruction_forms` reads, told by their shape, and the words of a
rule the user says they said before.

- An imperative clause over every future thing of a kind ("declare strict types in every new
  file", "register every new handler with its middleware") is a rule whatever its verb: it
  says how each such thing is made from now on. A clause that opens with what it is about
  ("every new test fails", "the new file is broken") states something; a task names existing
  things ("fix the imports in every file").
- A requirement that things keep a property ("the scripts must stay POSIX sh", "the public API
  must remain backwards compatible") is a rule about the code.
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


def rule_shape(body: str) -> Found | None:
    """A rule no verb form reads, told by its shape: an imperative clause over every future
    thing of a kind ("declare strict types in every new file"), or a requirement that things
    keep a property ("the scripts must stay POSIX sh"). Never about "it", "this …" or one
    named thing of the code."""
    text = body.strip().rstrip(".!")
    if ONE_OFF.search(text) or len(text) > 160:
        return None
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
