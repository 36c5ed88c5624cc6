"""A tool the user says the project does not use ("we don't use Docker here", "don't use yarn,
that lockfile is stale") is not stated as how the project works, whatever files of it the
repository still holds (a compose file, an old lock file, a Makefile nobody runs).

Only the user's own words count (an assistant's "we don't use X" is no evidence), in the
first person or as an instruction: "we/I don't use X", "we/I do not use X", "we never use
X", "we no longer use X", one that says the use ended ("we stopped using X", "I quit using X",
"we moved off X", "we dropped X"), and a sentence that starts "Don't use X" / "Do not use X" /
"Never use X", where the clause
ends after the tool's name or goes on with where, when or why ("we don't use Yarn workspaces"
disowns a feature, not Yarn). A project fact or
recipe that names the tool (as a word: `docker` names Docker Compose, not a `Dockerfile`) is
then left out, unless it says the negation itself ("not", "instead of"); the user's own
note stays.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Set
from datetime import datetime

from squirrel_core.events import is_user_voice
from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

_NOT_USED = re.compile(
    r"(?:(?:\b(?:we|i)\s+(?:don['’]?t|do\s+not|never|no\s+longer)|"
    r"(?:^|[.!?;:]\s*)(?:don['’]?t|do\s+not|never))\s+use\s+(?P<tool>[A-Za-z][\w.+-]*)"
    # "we stopped using beads", "I quit using Docker", "we moved off Jenkins": no longer used
    r"|\b(?:we|i)(?:['’]ve)?\s+(?:(?:stopped|quit)\s+using|moved\s+(?:away\s+from|off(?:\s+of)?)|"
    r"dropped|ditched|abandoned|got\s+rid\s+of)\s+(?P<gone>[A-Za-z][\w.+-]*))"
    # The tool itself, not a part of it ("we don't use Yarn workspaces", "Yarn PnP"): the
    # clause ends after its name, or goes on with where, when or why.
    r"(?=\s*(?:$|[.,;:!?)]|(?:here|there|in|for|on|at|anymore|any\s+more|locally|now|so|but"
    r"|and|because|since|as|with|we|it|last|earlier|recently|already|entirely|completely"
    r"|altogether|a\s+(?:while|month|week|year)|(?:months|weeks|years|days)\s+ago|yesterday)\b))",
    re.IGNORECASE,
)
#: Words after "don't use" that name no tool.
_NOT_TOOLS = frozenset({"the", "a", "an", "any", "this", "that", "it", "them", "those", "these"})
_SAYS_NEGATION = re.compile(r"\b(?:not|never|instead of|rather than|don['’]?t)\b", re.IGNORECASE)
_STATED_KINDS = (MemoryType.PROJECT_FACT, MemoryType.RECIPE)


def disowned_tools(events: list[StoredEvent]) -> set[str]:
    """The tools (lower-cased) the user said in their own words the project does not use."""
    return set(disowned_since(events))


def disowned_since(events: list[StoredEvent]) -> dict[str, datetime]:
    """The tools (lower-cased) the user said in their own words the project does not use, each
    with the time they last said so."""
    found: dict[str, datetime] = {}
    for event, text in user_requests(events):
        if not is_user_voice(event.origin):
            continue
        for match in _NOT_USED.finditer(text):
            tool = (match["tool"] or match["gone"]).rstrip(".-").lower()
            if tool not in _NOT_TOOLS:
                found[tool] = max(found.get(tool, event.timestamp), event.timestamp)
    return found


def states_disowned(memory_type: MemoryType, content: str, tools: Set[str]) -> bool:
    """Whether a memory states a disowned tool as how the project works: a project fact or
    recipe naming one of `tools` as a word, without saying the negation itself."""
    if not tools or memory_type not in _STATED_KINDS:
        return False
    named = _naming(frozenset(tools))
    return bool(named.search(content)) and not _SAYS_NEGATION.search(content)


@functools.lru_cache(maxsize=64)
def _naming(tools: frozenset[str]) -> re.Pattern[str]:
    """A pattern finding any of `tools` as a word, built once per set of tools (every memory
    of a pass is checked against the same set)."""
    return re.compile(
        r"(?<![\w.-])(?:" + "|".join(re.escape(t) for t in sorted(tools)) + r")(?![\w])",
        re.IGNORECASE,
    )


def without_disowned(
    found: list[MemoryCandidate], events: list[StoredEvent]
) -> list[MemoryCandidate]:
    """`found` less the project facts and recipes that name a tool the user disowned."""
    tools = disowned_tools(events)
    return [c for c in found if not states_disowned(c.type, c.content, tools)]
