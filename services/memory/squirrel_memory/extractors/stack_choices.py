"""The tools the user chooses for the project, in their own words.

At a project's start, and whenever the assistant proposes a stack, users say what they want
built with: "I want to use TestNG and Lombok and Log4J with Slf4J", "let's go with Postgres and
sqlc", "we'll use pnpm". No instruction form reads it (it is a wish, and its objects are named
things, which `wanted_ways` takes for the task at hand), yet it is what the next session must
not undo: the assistant that proposes JUnit again has forgotten the user.

What decides is the shape, the same in every ecosystem:

- **Who said it**: only the user's own sentences (`rules._preferences`); one that asks (ends
  with "?") is not read: a question about a tool is no choice.
- **A choice's lead**: a first-person wish or decision to use something ("I want to use",
  "I'd like to use", "we'll go with", "let's use", "we're going to use"). A refusal ("I
  don't want to use …") is `wanted_ways`'; an imperative ("use X instead of Y") is
  `preferences`'.
- **Named tools, nothing else**: what follows, up to the purpose ("for the tests", "to …"),
  is a list of one to `MAX_TOOLS` names joined by commas, "and", "with", "/" or "+"; each a
  word or two without a determiner, a pronoun, a path, a file, a code span or a call. At
  least one is known as a tool (the stack table's languages, runtimes, dependencies and
  platforms; the command table's programs; the libraries manifests name) or has a product's
  shape (`TestNG`, `Log4J`, `GraphQL`: a capital or a digit after its first letter); a code
  name (`userService`, `load_config`) is none. "I want to use the new endpoint" and "let's use
  a map here" name no tool.
- **Not for now**: the task's time words ("for now", "this time", "here") make it the task at
  hand.
- **Not changed later**: a later message of the user's in the episode that revisits the tools
  with a word of change ("let's use Vitest instead", "switch to JUnit 5 instead of TestNG",
  "drop Lombok", "actually, …" naming a tool) withdraws every choice said before it: which of
  the two stands is not for a rule to guess, so neither is said but the last.

The memory quotes the user (a choice is stated by what they said, not as a fact of the
project: the build may not hold it yet) and holds for this project, where it was said. It
stands until the user says otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from squirrel_core.command_table import command_table
from squirrel_memory.extractors.firmness import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    STANDING_IMPORTANCE,
    STANDING_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.instruction_keys import instruction_key, tool_words, topic
from squirrel_memory.extractors.instruction_parts import ONE_OFF
from squirrel_memory.extractors.manifests import LIBRARIES
from squirrel_memory.extractors.wanted_ways import quoted, said_sentences
from squirrel_memory.extractors.wording import word_set
from squirrel_memory.models import Scope
from squirrel_memory.repository.stack import stack_names

#: The tag of a tool the user chose for the project, and the key of a choice without a topic.
CHOICE_TAG = "stack_choice"
CHOICE_KEY = "pref:stack_choice"
#: Most names one choice lists ("TestNG and Lombok and Log4J with Slf4J" is four).
MAX_TOOLS = 6
#: Most words one name has ("Spring Boot", "GitHub Actions").
MAX_NAME_WORDS = 2

#: The choice's lead, then what is chosen.
_CHOICE = re.compile(
    r"(?:^|[,;:]\s+|\b(?:but|and|so)\s+)"
    r"(?P<lead>(?:i|we)(?:'d|\s+would)?\s+(?:really\s+|also\s+|just\s+|still\s+)?"
    r"(?:want|like|need|prefer|plan|intend)\s+(?:you\s+)?to\s+"
    r"(?:use|go with|stick with|switch to|build (?:it|this) with)"
    r"|let'?s\s+(?:just\s+|also\s+)?(?:use|go with|stick with|switch to)"
    r"|(?:i|we)(?:'ll|\s+will|\s+shall|'re going to|\s+are going to|'m going to|\s+am going to)"
    r"\s+(?:use|go with|stick with|switch to))"
    r"\s+(?P<x>.+)$",
    re.IGNORECASE,
)
#: Where the list of names ends: its purpose, its reason, the thing it replaces.
_PURPOSE = re.compile(
    r"(?<!\s)\s+(?:for|to|as|because|since|so|instead|rather|over|in|on|from|throughout|"
    r"across|everywhere|when|where|which|that)\b.*$"
    r"|(?<!\s)\s*[,;:(—-]+\s*(?:for|because|since|so|as)\b.*$",
    re.IGNORECASE,
)
#: Where the reason for a choice begins.
_REASON = re.compile(r"[,;]?\s+(?:because|since|so that|as)\b", re.IGNORECASE)
#: What joins the names of a list.
_JOIN = re.compile(r"\s*(?:,|/|\+|&)\s*(?:and\s+|with\s+)?|\s+(?:and|with|plus|or)\s+", re.I)
#: Words that make an item a thing of the task, not a tool's name.
_NOT_A_NAME = word_set(
    "the a an this that these those it its them one some any same new old my our your their ",
    "what which something everything anything here there now then me us you i we also too ",
    "latest current proper different other another more less both either all each",
)
#: One word of a name: letters, digits and the marks product names carry (`C++`, `Next.js`);
#: after its first word a version may follow (`JUnit 5`, `Python 3.12`).
_NAME_WORD = re.compile(r"[A-Za-z][\w.+#-]*")
_VERSION_WORD = re.compile(r"v?\d[\w.]*")
#: A word of change: the user revisits a choice.
_CHANGE = re.compile(
    r"\b(?:instead|switch(?:ed|ing)?|replace[ds]?|rather|drop(?:ped)?|remove[ds]?|no longer|"
    r"actually|not|don'?t|won'?t|go back|revert|move (?:to|away|off)|migrate)\b",
    re.IGNORECASE,
)
#: A product's shape: a capital or a digit after the first letter (`TestNG`, `Log4J`, `iOS`).
_PRODUCT = re.compile(r"^[A-Za-z]\w*?(?<=\w)[A-Z0-9]")
#: A code name: camelCase from a lowercase start, snake_case, a call, a file or a path.
_CODE_NAME = re.compile(r"^[a-z]+[A-Z]|_|\(|/|\.\w{1,4}$")


@cache
def _known() -> frozenset[str]:
    """Tool names in lower case: the stack table's, the command table's programs, and the
    libraries manifests name."""
    names = {n.lower() for n in stack_names()}
    names.update(pattern[0].lower() for pattern in command_table().patterns)
    for key, (_kind, display) in LIBRARIES.items():
        names.update((key.lower(), display.lower()))
    return frozenset(n for n in names if len(n) > 1)


def _names(listed: str) -> list[str] | None:
    """The names of a chosen list, or None when an item is no name."""
    items = [item.strip(" .!'\"") for item in _JOIN.split(listed.strip())]
    items = [item for item in items if item]
    if not items or len(items) > MAX_TOOLS:
        return None
    for item in items:
        words = item.split()
        if len(words) > MAX_NAME_WORDS or any(w.lower() in _NOT_A_NAME for w in words):
            return None
        head, *tail = words
        if not _NAME_WORD.fullmatch(head) or _CODE_NAME.search(head):
            return None
        if not all(
            (_NAME_WORD.fullmatch(w) and not _CODE_NAME.search(w)) or _VERSION_WORD.fullmatch(w)
            for w in tail
        ):
            return None
    return items


def _names_a_tool(name: str) -> bool:
    """Whether a name, or one of its words (`Phoenix LiveView`), is known or product-shaped."""
    return any(
        part.lower() in _known() or bool(_PRODUCT.match(part)) for part in (name, *name.split())
    )


def revisits_tools(text: str, chosen: Sequence[str] = ()) -> bool:
    """Whether a message of the user's changes a choice of tools: a word of change in a
    sentence that makes a choice (`_CHOICE`) or names a tool (`_names_a_tool`, or one of
    `chosen`)."""
    mine = {word.lower() for name in chosen for word in name.split()}
    for said in said_sentences(text):
        if not _CHANGE.search(said):
            continue
        words = [w.rstrip(".") for w in re.findall(r"[A-Za-z][\w.+#-]*", said) if len(w) > 1]
        if _CHOICE.search(said) or any(w.lower() in mine or _names_a_tool(w) for w in words):
            return True
    return False


def stack_choices(
    text: str, *, after_assistant_action: bool, later: Sequence[str] = ()
) -> list[StatedPreference]:
    """The tools the user's message chooses for the project (see the module's docstring);
    `later` holds the user's later messages of the episode."""
    found: list[StatedPreference] = []
    for said in said_sentences(text):
        match = _CHOICE.search(said)
        if match is None or "`" in match.group("x"):
            continue
        if ONE_OFF.search(_REASON.split(match.group("x"), maxsplit=1)[0]):
            continue  # "for now", "this time": the task at hand (a reason's words are not)
        listed = _PURPOSE.sub("", match.group("x"))
        names = _names(listed)
        if names is None or not any(_names_a_tool(name) for name in names):
            continue
        if any(revisits_tools(message, names) for message in later):
            continue  # changed afterwards: only the last word on the tools may stand
        quote = quoted(said[match.start("lead") :])
        if not quote:
            continue
        importance = STANDING_IMPORTANCE + (CORRECTION_STEP if after_assistant_action else 0.0)
        subject = "use " + " ".join(names)
        marks = (CORRECTION_TAG,) if after_assistant_action else ()
        found.append(
            StatedPreference(
                # one key for every choice without a tool topic: a later choice replaces an
                # earlier one rather than standing beside what it may have changed
                key=instruction_key(subject, choice=True) if tool_words(subject) else CHOICE_KEY,
                content=f"The user chose the tools for this project, in their words: “{quote}”.",
                tags=tuple(
                    t for t in ("preference", topic(subject), STANDING_TAG, CHOICE_TAG, *marks) if t
                ),
                scope=Scope.PROJECT,
                importance=round(importance, 3),
                correction=after_assistant_action,
                standing=True,
            )
        )
    return found
