"""The part of the work the user keeps for themselves: "I always do the commits myself", "I'll
push it myself", "leave the merging to me".

Read as a directive, "I always do the commits myself" would become "Always do the commits
myself": the opposite of what the user said. So what the user does themselves is stated as
what to leave to them ("Leave it to the user to do the commits"), for the recurring steps of
getting work out only (committing, pushing, merging, tagging, releasing, deploying, opening
pull requests): "I'll fix the test myself" is the task at hand, not a habit.

- Said as a practice ("I always …", "I usually …") it is a standing habit.
- Said of this time ("I'll commit it myself", "leave the merging to me") it is tentative: kept
  once the user says it again in another session.
- "I never merge myself" tells what the user does not do, not what to do: nothing is read.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.instruction_parts import Found, worded

#: The recurring steps of getting work out, as verbs ("commit", "push the branch") or nouns
#: ("the commits", "git", "the release").
_STEP_VERB = (
    r"(?:commit|push|merge|tag|release|publish|deploy|rebase|squash|"
    r"write\s+(?:the\s+)?(?:changelog|release\s+notes)|"
    r"(?:open|create|make|raise|file)\s+(?:the\s+|a\s+)?(?:pull\s+requests?|prs?|mrs?|"
    r"merge\s+requests?))"
)
_STEP_NOUN = (
    r"(?:(?:the\s+|all\s+(?:the\s+)?)?(?:git(?:\s+(?:stuff|side|part|operations|commands))?|"
    r"commits?|committing|pushe?s|pushing|merges|merging|tags|tagging|releases?|releasing|"
    r"deploy(?:s|ments?)|deploying|publishing|pull\s+requests|prs|mrs))"
)
#: What may follow the step: "…, thanks", "…, I'll do it myself".
_TAIL = (
    r"(?:,?\s+(?:thanks|thank\s+you|please|(?:i'll|i’ll|i\s+will)\s+do\s+(?:it|that|them)"
    r"(?:\s+myself)?))?"
)
#: What the step is done to, named plainly ("the branch", "to main"), or "it"/"them".
_OBJECT = r"(?:\s+(?!myself\b)[\w`./:-]+){0,4}?"
_HABIT = re.compile(
    rf"^i\s+(?:always|usually|normally|prefer\s+to|like\s+to)\s+(?P<x>(?:do\s+{_STEP_NOUN}|"
    rf"{_STEP_VERB}{_OBJECT}))\s+(?:myself|by\s+hand|manually){_TAIL}$",
    re.IGNORECASE,
)
_THIS_TIME = re.compile(
    rf"^(?:(?:i'll|i’ll|i\s+will|i\s+want\s+to|i'd\s+rather|i’d\s+rather)\s+"
    rf"(?P<x>(?:do\s+{_STEP_NOUN}|{_STEP_VERB}{_OBJECT}))\s+(?:myself|by\s+hand|manually)"
    rf"|(?:(?:please|just)\s+)?leave\s+(?P<n>{_STEP_NOUN})\s+to\s+me"
    rf"|(?:i'll|i’ll|i\s+will)\s+(?:handle|take\s+care\s+of|do)\s+(?P<h>{_STEP_NOUN})"
    rf"(?:\s+myself)?){_TAIL}$",
    re.IGNORECASE,
)
#: An object of the moment, left out of the habit: "commit it" is "commit".
_PRONOUN = re.compile(r"(?<!\s)\s+(?:it|them|this|that|these|those)$", re.IGNORECASE)


def left_to_user(clause: str) -> Found | None:
    """What `clause` says the user does themselves, worded as what to leave to them: standing
    when said as their practice, else tentative; None when it says nothing of the kind."""
    text = " ".join(clause.split()).strip(" .!,;")
    if match := _HABIT.match(text):
        found = _left(match.group("x"))
        return Found(found.content, found.subject, standing=True) if found else None
    if match := _THIS_TIME.match(text):
        if noun := match.group("n") or match.group("h"):
            return worded(f"leave {_plain_noun(noun)} to the user", _plain_noun(noun))
        return _left(match.group("x"))
    return None


def _left(step: str) -> Found | None:
    step = _PRONOUN.sub("", step)
    return worded(f"leave it to the user to {step}", step)


def _plain_noun(noun: str) -> str:
    """ "all the git stuff" → "the git stuff"; "commits" → "the commits"."""
    bare = re.sub(r"^(?:all\s+)?(?:the\s+)?", "", noun, flags=re.IGNORECASE)
    return f"the {bare}"
