"""Habits said in a developer's shorthand: under a topic label, or as a bare command with the
step of work it goes before.

A topic label ("Errors: always wrap with %w", "Kotlin: prefer val over var everywhere") names
what the rule after it is about; the rule is read without it and told with it. A style label
("Style: start pipelines with a raw value") names what follows as the way code is written here,
a rule even without a rule word. A label naming a state of things ("Bug: …", "Output: …",
"Step 2: …") sets off no rule.

A habit in brackets after a task ("Add the eviction loop (I prefer the plain testing package
over testify)") is a clause of its own: the task is not the habit.

One thing over another with no verb, said after a marker for all later work ("Going forward,
async/await instead of completion handlers") is the choice of the first: its two sides are a
few words each, neither a verb's start nor a thing of the task at hand.

A way of working the user or their team states ("we …", "our …"), then asks to be kept ("we
follow PSR-12, please keep to it", "our handlers return JSON errors, stick to that") is a rule
as said.

A bare command before a step of work that comes back ("bundle exec rubocop -a before
committing", "./gradlew spotlessApply before every commit") is the routine "run it before …".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.instruction_parts import ONE_OFF, VERBS
from squirrel_memory.extractors.tool_names import known_tool
from squirrel_memory.extractors.wording import stem

#: A label of one to three words before a colon or a spaced dash, then the words it sets off.
_LABEL = re.compile(
    r"^(?P<label>[A-Za-z][\w#+./]*(?:[ -][A-Za-z][\w#+./]*){0,2})\s*(?::|\s[-–—])\s+"
    r"(?P<rest>\S.*)$"
)
#: Labels that name the way code is written: what follows is a rule as it stands.
_STYLE = re.compile(
    r"^(?:(?:code|coding|house|our|team|naming|formatting)\s+)?(?:style|conventions?|"
    r"naming|formatting)$",
    re.IGNORECASE,
)
#: Labels that name how every one of a kind of write-up is written ("commit messages: …",
#: "branch names: …"): what follows is a rule as it stands, though the label opens on a verb's
#: word. One write-up ("commit message: fix the typo") is that write-up itself.
_WRITE_UPS = re.compile(
    r"^(?:git\s+)?(?:commit|branch|pr|pull\s+request|merge\s+request|tag)\s+"
    r"(?:messages|names|titles|subjects|descriptions)$",
    re.IGNORECASE,
)
#: Words after such a label that tell or ask something of the write-ups at hand ("commit
#: messages: the last three are wrong", "PR titles: I will fix them later"), no property.
_TOLD = re.compile(
    r"^(?:the|this|that|these|those|it|its|i|we|you|he|she|they|my|our|your|some|which|what|"
    r"can|could|would|will|please)\b|\b(?:is|are|was|were|will|did|does|do|have|has|had)\b|"
    r"'(?:ll|re|ve|s|d)\b|[?]",
    re.IGNORECASE,
)
#: Labels that set off a state of things, a plan or an output, not a rule.
_NOT_TOPIC = re.compile(
    r"^(?:bug|issue|problem|question|todo|task|step(?:\s+\d+)?|update|status|result|output|"
    r"log|logs|context|background|plan|goal|summary|error|warning|traceback|expected|actual|"
    r"edit|fix|done|next|then|now|today|here|also|ps|p\.s|re|example|e\.g|i\.e|eg|ie|"
    r"q|a|tl;?dr|update \d+|note|nb|fyi|reminder|important|heads up|edit \d+)$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Labelled:
    """A clause's topic label, the words after it, and whether the label names a style."""

    label: str
    rest: str
    style: bool


def topic_label(clause: str) -> Labelled | None:
    """ "Errors: always wrap with %w" → ("Errors", "always wrap with %w", False); None when the
    clause opens with no label, or with one naming no topic ("Bug: …", "Step 2: …")."""
    match = _LABEL.match(clause.strip())
    if match is None:
        return None
    label = match.group("label")
    words = label.lower().split()
    rest = match.group("rest").strip()
    if _WRITE_UPS.match(label) and not _TOLD.search(rest) and not ONE_OFF.search(rest):
        return Labelled(label, rest, True)  # "commit messages: lowercase, under 72 chars"
    if (
        _NOT_TOPIC.match(label)
        or label.lower().startswith(("http", "www"))
        or words[0] in VERBS
        or stem(words[0]) in VERBS  # "Add the tests: …": a task, then what follows
        or _NOT_COMMAND.match(label)
    ):
        return None
    return Labelled(label, match.group("rest").strip(), bool(_STYLE.match(label)))


def with_label(label: str, content: str) -> str:
    """ "Errors" + "Always wrap with %w." → "Errors: always wrap with %w."; "house style" +
    "Thiserror for library errors." → "House style: thiserror for library errors."."""
    if not content or content.lower().startswith(f"{label.lower()}:"):
        return content  # "Commit messages: imperative mood.": read whole, its label in it
    head = content.split(maxsplit=1)[0]
    lowered = content if head.isupper() and len(head) > 1 else content[0].lower() + content[1:]
    return f"{label[0].upper()}{label[1:]}: {lowered}"


#: A bare command, then the step of work it goes before or after, again and again.
_BARE_ROUTINE = re.compile(
    r"^(?P<cmd>[`./\w][^,;]{0,60}?)\s+(?:(?:before|after)\s+(?:(?:every|each)\s+)?(?:you\s+)?"
    r"(?:commit(?:ting|s)?|push(?:ing|es)?|(?:you(?:'re| are)\s+)?done|finishing|"
    r"hand(?:ing)?\s+it\s+(?:back|over)|open(?:ing)?\s+(?:a\s+)?(?:pr|pull request)s?|"
    r"merg(?:e|ing)|releas(?:e|ing))|"
    # "black + isort on every file you touch": the tools over each file the work changes
    r"(?:on|over|for)\s+(?:every|each|any|all)\s+(?:new\s+)?(?:files?|modules?|changes?)\s+"
    r"(?:that\s+)?you\s+(?:touch|change|edit|write|create|add))\b",
    re.IGNORECASE,
)
#: Words that open a noun phrase or a sentence, never a command.
_NOT_COMMAND = re.compile(
    r"^(?:the|a|an|this|that|these|those|it|we|i|you|they|my|our|your|please|and|also|then|"
    r"always|never|only|just|run|do|don'?t)\b",
    re.IGNORECASE,
)


def bare_routine(clause: str) -> str | None:
    """ "bundle exec rubocop -a before committing" → "run bundle exec rubocop -a before
    committing"; None unless the clause opens with a command: a known tool among its first
    words, or a program's path (`./gradlew`, `vendor/bin/phpstan`)."""
    match = _BARE_ROUTINE.match(clause.strip())
    if match is None or _NOT_COMMAND.match(match.group("cmd")):
        return None
    words = match.group("cmd").strip("`").split()
    if len(words) > 6:
        return None
    head = words[0].strip("`")
    program = "/" in head and not head.endswith("/")
    if not program and not any(known_tool(w.strip("`")) for w in words[:3]):
        return None
    return f"run {clause.strip()}"


#: "async/await instead of completion handlers": two sides of a few words, no verb.
_BARE_CHOICE = re.compile(
    r"^(?P<x>[\w`'./+#-]+(?:\s[\w`'./+#-]+){0,3}?),?\s+(?:instead of|over|rather than)\s+"
    r"(?P<y>[\w`'./+#-]+(?:\s[\w`'./+#-]+){0,3})[.!\s]*$",
    re.IGNORECASE,
)


def bare_choice(clause: str) -> tuple[str, str] | None:
    """ "async/await instead of completion handlers" → ("async/await", "completion handlers");
    None when a side opens with a verb or a word of a sentence, or is a thing of the task."""
    return _sides(_BARE_CHOICE.match(clause.strip()))


def _sides(match: re.Match[str] | None) -> tuple[str, str] | None:
    """The two sides of a choice a pattern matched, None when a side opens with a verb or a
    word of a sentence, or is a thing of the task."""
    if match is None:
        return None
    x, y = match.group("x").strip(), match.group("y").strip()
    head = x.split()[0].lower()
    if head in VERBS or stem(head) in VERBS or _NOT_COMMAND.match(x) or _NOT_COMMAND.match(y):
        return None
    if ONE_OFF.search(x) or ONE_OFF.search(y):
        return None
    return x, y


#: "f-strings only, no % formatting": one way, "only", and its rival ruled out.
_ONLY_CHOICE = re.compile(
    r"^(?P<x>[\w`'./+#-]+(?:[ \t][\w`'./+#-]+){0,3}?)[ \t]+only(?:[ \t]*[,;][ \t]*|[ \t]+)"
    r"(?:no|not|never)"
    r"[ \t]+(?P<y>[\w`'./+#%-]+(?:[ \t][\w`'./+#%-]+){0,3})[.!\t ]*$",
    re.IGNORECASE,
)


def only_choice(clause: str) -> tuple[str, str] | None:
    """ "f-strings only, no % formatting" → ("f-strings", "% formatting"): a way said as the
    only one, its rival ruled out; None when a side opens with a verb ("run the tests only,
    not the linter" is how to do a task) or is a thing of the task ("this file only, not the
    others")."""
    return _sides(_ONLY_CHOICE.match(clause.strip()))


#: A clause that ends in brackets whose words are the user's own aside: a subject, a plea or
#: a rule word opens it ("(I prefer …)", "(we group imports …)", "(always …)").
_ASIDE = re.compile(
    r"^(?P<a>.*\S)\s*\((?P<b>(?:i|i'd|i'm|we|we're|our|please|always|never|from now on|going "
    r"forward|by default|as always|as usual|fyi|btw|note|reminder)\b[^()]{6,})\)\s*[.!]?$",
    re.IGNORECASE,
)


def asides_apart(listed: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Clauses (as written, as read) with a bracketed aside of the user's own taken apart:
    "Add the eviction loop (I prefer testify)" is the task and "I prefer testify"."""
    apart: list[tuple[str, str]] = []
    for written, read in listed:
        said, heard = _ASIDE.match(written), _ASIDE.match(read)
        if said is None or heard is None:
            apart.append((written, read))
            continue
        apart.append((said.group("a"), heard.group("a")))
        apart.append((said.group("b").strip(), heard.group("b").strip()))
    return apart


#: "we follow PSR-12, please keep to it": a way stated, then asked to be kept to.
_KEPT_TO = re.compile(
    r"^(?P<x>[a-z][^,;]{4,100}?)\s*[,;:-]+\s*(?:so\s+|and\s+)?(?:please\s+)?"
    r"(?:keep to|stick to|stick with|follow|respect|honou?r)\s+(?:it|that|this|them|those)"
    r"(?:\s+please)?[\s.!]*$",
    re.IGNORECASE,
)
#: The first words of a way stated by the user or their team.
_WAY_SUBJECT = re.compile(r"^(?:we|our|in this (?:repo|project|codebase) we)\b", re.IGNORECASE)


def kept_way(clause: str) -> str | None:
    """ "we follow PSR-12, please keep to it" → "we follow PSR-12"; None unless the user or
    their team states the way ("we", "our") and asks that it be kept to."""
    match = _KEPT_TO.match(clause.strip())
    if match is None or not _WAY_SUBJECT.match(match.group("x")):
        return None
    x = match.group("x").strip()
    return None if ONE_OFF.search(x) else x
