"""A rule tied to a recurring step of the work: "we should run the formatter on the README before
committing it", "make sure to update the changelog before releasing".

A user who undoes the assistant's step ("reset the commit!", "revert that push") often says in
the same message what should have come first. The rule has three parts, and all must hold:

- a lead that states an obligation, not a request of the moment: "we/you should", "we/you need
  to", "we/you must", "we/you have to", "always", "make sure to", "be sure to", "remember to";
  a plain imperative counts only in a message that undoes or rejects the assistant's step
  (`undoes_step`), where the user is correcting how the work is done;
- an action of how work is carried out (run, format, lint, test, check, verify, update,
  regenerate, bump, rebase, squash, build, sign, tag, document, review) whose object is not the
  thing at hand ("run it", "check those", "this file"): "fix the login bug before pushing" is a
  task, and a fix, an addition or a removal is always one;
- a condition naming a step that comes back in every piece of work: committing, pushing,
  merging, releasing, publishing, deploying, tagging, opening a pull request. Its own object
  ("before committing it") is the commit, not a thing of the task, so "it" there is no sign of
  a one-off, and the rule's wording leaves it off.

A question ("should we run the formatter before committing?"), a plan ("let's run …", "I'll run
…") and anything the user did not type (quoted lines, a command's injected context) never reach
this: `clauses` and the callers keep them out, and the lead must open the clause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.instruction_parts import ONE_OFF, Found, worded
from squirrel_memory.extractors.wording import stem, word_set

#: The longest action kept; a longer one is a story, not a rule.
MAX_ACTION_WORDS = 12

#: Leads that state an obligation; the action follows them.
_OBLIGATION = re.compile(
    r"^(?:(?:we|you)\s+(?:(?:really|always|still|also)\s+)?(?:should|need to|must|have to|"
    r"ought to)\s+(?:(?:always|also|first)\s+)?|always\s+|"
    r"(?:make sure|be sure) (?:to|that you|you)\s+(?:(?:always|also|first)\s+)?|"
    r"remember to\s+)",
    re.IGNORECASE,
)
#: Verbs of how work is carried out; a fix, an addition or a removal is the task itself.
_ACTIONS = word_set(
    "run format lint test check verify update regenerate bump rebase squash build sign tag ",
    "document review prettify type-check typecheck validate sync pull",
)
#: The recurring step a rule is tied to, as the condition names it.
_STEP = (
    r"(?:committing|commit(?:s|ted)?|pushing|push(?:es|ed)?|merging|merg(?:e|es|ed)|"
    r"releasing|releas(?:e|es|ed)|publishing|publish(?:es|ed)?|deploying|deploy(?:s|ed)?|"
    r"tagging|tag(?:s|ged)?|shipping|ship(?:s|ped)?|opening (?:a|the|any) (?:pr|pull request)|"
    r"(?:open|opens|opened) (?:a|the|any) (?:pr|pull request))"
)
_GERUNDS = (
    "committing",
    "pushing",
    "merging",
    "releasing",
    "publishing",
    "deploying",
    "tagging",
    "shipping",
)
_CONDITION = re.compile(
    rf"\s+(?P<when>before|after|when|whenever|every ?time|each time|prior to)\s+"
    rf"(?:(?:you|we|i)\s+|(?:any|each|every|a|the)\s+)?(?P<step>{_STEP})"
    r"(?P<rest>(?:\s+[\w`'./-]+){0,4}?)\s*[.!]*$",
    re.IGNORECASE,
)
#: What may follow the step in its condition: the change being committed, pushed or merged.
_STEP_OBJECT = re.compile(
    r"^(?:\s+(?:it|them|this|that|anything|something|changes?|the changes?|your changes|"
    r"(?:any |the )?[\w.-]+ changes?|"
    r"our changes|the code|(?:to|into) (?:main|master|the main branch)|"
    r"(?:a|the|any) (?:pr|pull request|release|change|commit)))*$",
    re.IGNORECASE,
)
_PRONOUN = re.compile(r"\b(?:it|them|this|that|anything|something)\b", re.IGNORECASE)
#: Undoing or rejecting the assistant's step: "reset the commit!", "revert that", "undo the push".
_UNDO = re.compile(
    r"^(?:(?:no|nope|wait|stop)\b[\s,.!]*)?(?:reset|revert|undo|roll ?back|uncommit|drop|"
    r"back out)\s+(?:the|that|this|your|my)?\s*(?:last\s+)?(?:commit|push|merge|change|"
    r"changes|release|tag)\b|^(?:reset|revert|undo|roll ?back|back out)\s+(?:that|it|this)\b|"
    r"^(?:no|nope)\b(?!\s+(?:worries|problem|need|rush|thanks|idea)\b)|^(?:don'?t|do not)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class StepRule:
    """A rule tied to a step: its statement, subject, and whether a lead stated it as one."""

    found: Found
    stated: bool


def undoes_step(message: str) -> bool:
    """Whether a message opens by undoing or rejecting what the assistant just did."""
    return bool(_UNDO.match(message.strip()))


def _action(text: str) -> str | None:
    """The action of a rule when it is one of how work is done and names nothing at hand."""
    words = text.split()
    if not words or len(words) > MAX_ACTION_WORDS:
        return None
    verb = words[0].lower()
    if verb not in _ACTIONS and stem(verb) not in _ACTIONS:
        return None
    if len(words) < 2 or ONE_OFF.search(text):
        return None
    return text


def _gerund(step: str) -> str:
    """ "push" → "pushing", "open a PR" → "opening a PR": the step as the rule says it."""
    head, _, rest = step.partition(" ")
    if rest:
        return f"opening {rest}"
    head = head.lower()
    return next((g for g in _GERUNDS if head.startswith(g[:3])), head)


def step_rule(clause: str, *, correcting: bool) -> StepRule | None:
    """The rule `clause` ties to a recurring step, or None.

    `correcting` says the message undid or rejected the assistant's step: only then does a
    plain imperative ("run the formatter before committing it") count.
    """
    text = clause.strip()
    if text.endswith("?"):
        return None
    text = text.rstrip(" .!")
    lead = _OBLIGATION.match(text)
    if lead is None and not correcting:
        return None
    body = text[lead.end() :] if lead else text
    condition = _CONDITION.search(body)
    if condition is None or not _STEP_OBJECT.match(condition.group("rest")):
        return None
    action = _action(body[: condition.start()].strip(" ,"))
    if action is None:
        return None
    step = _gerund(condition.group("step"))
    what = " ".join(_PRONOUN.sub("", condition.group("rest")).split())
    when = condition.group("when").lower()
    found = worded(f"{action} {when} {step} {what}".strip(), f"{action} {step}")
    return StepRule(found, stated=lead is not None) if found else None
