"""A tool the user says the project does not use ("we don't use Docker here", "don't use yarn,
that lockfile is stale") is not stated as how the project works, whatever files of it the
repository still holds (a compose file, an old lock file, a Makefile nobody runs).

Only the user's own words count (an assistant's "we don't use X" is no evidence), in the
first person or as an instruction: "we/I don't use X", "we/I do not use X", "we never use
X", and a sentence that starts "Don't use X" / "Do not use X" / "Never use X", where the clause
ends after the tool's name or goes on with where, when or why ("we don't use Yarn workspaces"
disowns a feature, not Yarn). A project fact or
recipe that names the tool (as a word: `docker` names Docker Compose, not a `Dockerfile`) is
then left out, unless it says the negation itself ("not", "instead of"); the user's own
note stays.
"""

from __future__ import annotations

import re

from squirrel_core.events import is_user_voice
from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

_NOT_USED = re.compile(
    r"(?:\b(?:we|i)\s+(?:don['’]?t|do\s+not|never)|(?:^|[.!?;:]\s*)(?:don['’]?t|do\s+not|never))"
    r"\s+use\s+(?P<tool>[A-Za-z][\w.+-]*)"
    # The tool itself, not a part of it ("we don't use Yarn workspaces", "Yarn PnP"): the
    # clause ends after its name, or goes on with where, when or why.
    r"(?=\s*(?:$|[.,;:!?)]|(?:here|there|in|for|on|at|anymore|any\s+more|locally|now|so|but"
    r"|and|because|since|as|with|we|it)\b))",
    re.IGNORECASE,
)
#: Words after "don't use" that name no tool.
_NOT_TOOLS = frozenset({"the", "a", "an", "any", "this", "that", "it", "them", "those", "these"})
_SAYS_NEGATION = re.compile(r"\b(?:not|never|instead of|rather than|don['’]?t)\b", re.IGNORECASE)
_STATED_KINDS = (MemoryType.PROJECT_FACT, MemoryType.RECIPE)


def disowned_tools(events: list[StoredEvent]) -> set[str]:
    """The tools (lower-cased) the user said in their own words the project does not use."""
    found: set[str] = set()
    for event, text in user_requests(events):
        if not is_user_voice(event.origin):
            continue
        for match in _NOT_USED.finditer(text):
            tool = match["tool"].rstrip(".-").lower()
            if tool not in _NOT_TOOLS:
                found.add(tool)
    return found


def without_disowned(
    found: list[MemoryCandidate], events: list[StoredEvent]
) -> list[MemoryCandidate]:
    """`found` less the project facts and recipes that name a tool the user disowned."""
    tools = disowned_tools(events)
    if not tools:
        return found
    named = re.compile(
        r"(?<![\w.-])(?:" + "|".join(re.escape(t) for t in sorted(tools)) + r")(?![\w])",
        re.IGNORECASE,
    )
    return [
        c
        for c in found
        if c.type not in _STATED_KINDS
        or not named.search(c.content)
        or _SAYS_NEGATION.search(c.content)
    ]
