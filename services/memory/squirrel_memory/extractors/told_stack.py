"""What the project is built with, as the user described it in a prompt.

Starting a project, or handing one over, users say what it is made of: "This project will
primarily contain Java source and test directory built using latest Gradle", "The app is a
Flutter app with a Go backend", "Our service runs on Bun". Before any manifest exists (a new
repository) or where the session reads none, that sentence is the only evidence of the stack,
and the user is its authority. It becomes a project fact when a rule can tell it describes the
project, the same for every ecosystem:

- it is the user's own typed sentence (`told_layout.told_sentences`: not a paste, not taken
  back later in the session);
- its subject is the project itself ("this project", "the repo", "our app", "my service", …),
  then a verb that says what it is or is made of ("is", "uses", "contains", "is written in",
  "is built with", "runs on"), said of now or of what the project is to be ("will primarily
  contain"): a new project's stack is what the user says it will be;
- what follows names a language, runtime, framework, database or build system of the stack
  table, as a word;
- it asks, hedges and negates nothing ("maybe", "I think", "if", "doesn't", "not", "?").

The memory quotes the user's sentence ("The user describes the project: “…”."), one per
episode; a sentence `user_about` quotes after the user's wish of what the repository is to
become is left to that memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from squirrel_memory.extractors.stack_mentions import names_pattern
from squirrel_memory.extractors.told_layout import told_sentences
from squirrel_memory.extractors.user_about import (
    opening_statement,
    user_about,
    user_statement,
)
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.stack import stack_names

IMPORTANCE = 0.6
KEY_PREFIX = "stack:told:"
MAX_CHARS = 240

_DESCRIBED = re.compile(
    r"^(?:(?:so|and|basically|essentially)[,]?\s+)?"
    r"(?P<subject>(?:this|the|our|my)\s+(?:project|repo|repository|app|application|codebase|"
    r"code base|service|library|site|website|game|tool|cli|backend|frontend|api|server|bot|"
    r"plugin|extension|firmware))\s+"
    r"(?:(?:will|is going to)\s+)?(?:(?:primarily|mostly|mainly|only|just|also)\s+)?"
    r"(?:is|be|uses?|contains?|targets?|runs? on|is written in|be written in|"
    r"(?:is|be) built (?:with|on|using|in)|(?:is|be) (?:a|an))\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_NOT_STATED = re.compile(
    r"\b(?:maybe|perhaps|probably|might|could|would|should|i think|i guess|i believe|"
    r"not sure|seems?|if|unless|suppose|not|no|never|don'?t|doesn'?t|isn'?t|won'?t|"
    r"used to|previously|was|were|instead)\b|\?",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ToldStack:
    """The stack the user described: key, content, the message."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()


@cache
def _stack_word() -> re.Pattern[str]:
    """A language, runtime, framework, database or build system of the stack table, as a word."""
    names = {n for n in stack_names() if len(n) > 1 and "/" not in n and ":" not in n}
    return names_pattern(names, re.IGNORECASE)


def _described(clause: str) -> re.Match[str] | None:
    """The description of what the project is built with that `clause` is, or None."""
    found = _DESCRIBED.match(clause)
    if found is None or len(clause) > MAX_CHARS or _NOT_STATED.search(clause):
        return None
    return found if _stack_word().search(found.group("rest")) else None


def describes_stack(sentence: str) -> bool:
    """Whether a sentence of the user's describes what the project is built with."""
    return _described(sentence.rstrip(" .!")) is not None


def told_stack(events: list[StoredEvent]) -> list[ToldStack]:
    """The first sentence of the user's messages in `events` that describes what the project
    is built with (see the module's docstring), or nothing."""
    about = user_about(events)
    for event, said in told_sentences(events):
        clause = said.rstrip(" .!")
        found = _described(clause)
        if found is None:
            continue
        quoted = user_statement(said) or opening_statement(said)
        if quoted and _stack_word().search(quoted):
            continue  # `user_about` quotes the stack as what the project is: one memory
        if about is not None and clause in about.content:
            continue  # quoted by `user_about` with the user's wish of what the repository is
        content = f"The user describes the project: “{clause}”."
        key = f"{KEY_PREFIX}{key_slug(found.group('subject'))}"
        return [ToldStack(key, content, (event.id,))]
    return []
