"""What the user sets out to build, and the plan they settle for it, in their own words.

A session often opens on a plan, not a task: "I would like to start planning out an integration
for the payment terminal to allow refunds from the till as well as …", or settles one in
passing: "I think what we should do is pick one existing importer and add the new format to it,
make sure that works, then move the others over". The next session needs it (what is under
way, in which order), and nothing else in the session says it: no file holds it yet. The rule,
the same in every project and ecosystem:

- the sentence is the user's own (`user_requests`: not a pasted log, a skill's body, a
  subagent's prompt or the host's text), not quoted (`>`), not a question;
- it is one of two shapes:
  - **an intent to plan**: a first-person lead ("I would like to", "I want to", "I'm going
    to", "let's"), an optional "start", then "plan" (or "planning", with an optional "out"),
    then what is planned: a noun phrase opening on an article or possessive ("an
    integration …", "the billing rewrite …") of at least `MIN_WHAT_WORDS` words;
  - **a plan settled**: "what we should do is", "the plan is", "my plan is", "here's the
    plan:" (an "I think" before it is a way of putting it, not a doubt), then steps in order:
    a word of sequence ("then", "after that", "once", "first", "followed by") joins them, and
    they do not point at a plan kept elsewhere ("the plan is in `PLAN.md`, then …");
  - **a change wanted, its plan asked for**: the message asks the assistant to think through,
    come up with, draft or outline a plan ("Think through a plan for the switch and share
    it", "Draft a plan first"), and a sentence of it, not a question, says the change the user
    wants ("I'd like us to …", "I want to …", "I think we can …", "we should …" with remove,
    drop, replace, move, migrate, switch, get rid of, simplify …). The memory quotes the
    message from that sentence up to the request for a plan (what the user has seen work in
    another project included), or the request itself when the change is named in it ("a plan
    to move the jobs to RQ"); the wanted sentence must not be negated, have at least
    `MIN_WANTED_WORDS` words and use its verb of change as a change ("let's move on" is
    none), and nothing is said as done;
- nothing in it hedges (maybe, perhaps, might, not sure, whether, or not …) or negates the
  plan ("not", "never", "don't"), except in what the user said around a wanted change;
- at most `MAX_CHARS` characters: a longer plan is a brief, cut nowhere (say less);
- a later message of the user's that drops the plan ("scratch that", "change of plan",
  "never mind", "forget the plan") leaves it unsaid.

The memory quotes the user's words, says it was a plan, and never that anything was built
("The user set out to plan (their words): \"an integration for …\"", "The user wants this
change and asked for a plan of it first (their words): \"…\"").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

IMPORTANCE = 0.5
KEY_PREFIX = "plan:"
MAX_CHARS = 320
#: The fewest words after the article of what is planned ("the next step" says nothing).
MIN_WHAT_WORDS = 4
_SENTENCE = re.compile(r"(?<=[.!])\s+|\n+")
_LEAD = r"^(?:(?:so|ok(?:ay)?|and|also|now|next|then|right)[,\s]+)*"
_INTENT = re.compile(
    _LEAD + r"(?:i(?:'d| would)? like to|i want to|i(?:'m| am) (?:going|about) to|"
    r"we(?:'d| would)? like to|we want to|let'?s)\s+(?:start\s+)?plan(?:ning)?(?:\s+out)?\s+"
    r"(?P<what>(?:a|an|the|our|my)\s+.+?)[.!]?$",
    re.IGNORECASE,
)
_SETTLED = re.compile(
    _LEAD + r"(?:i think,?\s+)?(?:what we should do is|the plan is(?: to)?|my plan is(?: to)?|"
    r"our plan is(?: to)?|here'?s the plan:)\s*(?P<steps>.+?)[.!]?$",
    re.IGNORECASE,
)
#: Words after "the plan is" that point at a plan kept elsewhere ("the plan is in PLAN.md, then
#: …"), not steps.
_POINTER = re.compile(
    r"^(?:in|at|on|under|from|inside|described|written|outlined|documented|located|here|there|"
    r"that|this|it|still|already|as)\b",
    re.IGNORECASE,
)
_SEQUENCE = re.compile(r"\b(?:then|after that|once|first|followed by)\b", re.IGNORECASE)
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|might|probably|not sure|unsure|whether|or not|wonder|not|never|"
    r"don'?t|doesn'?t|won'?t|shouldn'?t|if)\b|n't\b",
    re.IGNORECASE,
)
#: The user drops a plan said or approved before ("scratch that", "scrap this whole plan",
#: "let's abandon the plan", "new plan"): shared with `planned_checks`.
DROPPED_PLAN = re.compile(
    r"\b(?:scrap|scratch|drop|abandon|discard|cancel|ditch|forget|throw away|revert|undo|"
    r"stop)\b[^.!?\n]{0,30}\bplan\b|"
    r"\b(?:scratch that|change of plans?|never ?mind|forget (?:that|it)|new plan)\b",
    re.IGNORECASE,
)


#: A request for a plan ("think through a plan", "come up with a migration plan", "draft a
#: plan first", "plan it out").
_PLAN_ASKED = re.compile(
    r"\b(?:think(?:ing)? through|come up with|draft|sketch|outline|work out|put together|"
    r"write up|propose|prepare|make)\s+(?:a|an|the|your)\s+(?:[\w-]+\s+){0,2}?plan\b|"
    r"\bplan (?:it|this|that) out\b",
    re.IGNORECASE,
)
#: The user wanting a change: a first-person wish, then a verb of change within a few words.
_WANTED = re.compile(
    r"\b(?:i|we)(?:'d| would)?\s+(?:like|want|need)(?:\s+us)?\s+to\b|"
    r"\bi think we (?:can|could|should)\b|\bwe should\b|\blet'?s\b",
    re.IGNORECASE,
)
_CHANGE_WORDS = (
    r"(?:remov|drop|replac|mov|migrat|switch|simplif|swap|rewrit|retir|ditch)\w*|"
    r"port(?:s|ed|ing)?\b|get(?:ting)? rid of"
)
_CHANGE = re.compile(r"\b(?:" + _CHANGE_WORDS + ")", re.IGNORECASE)
#: A change named in the request for a plan itself ("a plan to move the jobs to RQ").
_PLAN_OF_CHANGE = re.compile(
    r"\bplan (?:to|for)\s+(?:the\s+|a\s+)?(?:" + _CHANGE_WORDS + ")", re.IGNORECASE
)
_NEGATED = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.IGNORECASE)
#: Ways of speaking a verb of change takes part in without naming a change ("let's move on").
_IDIOM = re.compile(
    r"\b(?:mov(?:e|ing) (?:on|forward|ahead|along)|switch(?:ing)? (?:gears|context)|"
    r"drop(?:ping)? (?:by|in|it)\b)",
    re.IGNORECASE,
)
#: The fewest words of a quoted change: fewer name none.
MIN_WANTED_WORDS = 6
_WANTED_SAID = "The user wants this change and asked for a plan of it first (their words)"
_ANY_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True, slots=True)
class UserPlan:
    """One plan in the user's words, and the message it was said in."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _plan(sentence: str) -> tuple[str, str] | None:
    """(what is planned or the plan's steps, how the memory says it) of one sentence, or None
    (module docstring)."""
    plain = " ".join(sentence.split())
    if not plain or plain.startswith(">") or plain.endswith("?") or len(plain) > MAX_CHARS:
        return None
    if (intent := _INTENT.match(plain)) is not None:
        what = intent.group("what").strip()
        if len(what.split()) - 1 < MIN_WHAT_WORDS or _HEDGE.search(what):
            return None
        return what, "The user set out to plan (their words)"
    if (settled := _SETTLED.match(plain)) is not None:
        steps = settled.group("steps").strip()
        if not _SEQUENCE.search(steps) or _HEDGE.search(steps) or _POINTER.match(steps):
            return None
        return steps, "The user's plan for the work (their words)"
    return None


def _is_wanted(sentence: str) -> bool:
    """Whether a sentence states a change the user wants (`_WANTED` before a `_CHANGE` verb,
    not a question, not negated)."""
    wish = _WANTED.search(sentence)
    return (
        wish is not None
        and len(sentence.split()) >= MIN_WANTED_WORDS
        and not sentence.rstrip().endswith("?")
        and not _NEGATED.search(sentence)
        and not _IDIOM.search(sentence)
        and _CHANGE.search(sentence, wish.end()) is not None
    )


def wanted_change(text: str) -> str | None:
    """The user's words of a change they want and ask a plan for, from one message, or None
    (module docstring)."""
    sentences = [" ".join(s.split()) for s in _ANY_SENTENCE.split(text)]
    sentences = [s for s in sentences if s and not s.startswith(">")]
    asked = next((i for i, s in enumerate(sentences) if _PLAN_ASKED.search(s)), None)
    if asked is None:
        return None
    first = next((i for i in range(asked) if _is_wanted(sentences[i])), None)
    if first is not None:
        words = " ".join(sentences[first:asked])
    elif _is_wanted(sentences[asked]) or (
        not sentences[asked].endswith("?")
        and not _NEGATED.search(sentences[asked])
        and _PLAN_OF_CHANGE.search(sentences[asked])
    ):
        words = sentences[asked]
    else:
        return None
    words = words.rstrip(" .!")
    return words if len(words) <= MAX_CHARS else None


def user_plans(events: list[StoredEvent]) -> list[UserPlan]:
    """The plans the user set out or settled in their own words (module docstring)."""
    found: list[UserPlan] = []
    for event, text in user_requests(events):
        if DROPPED_PLAN.search(text):
            found.clear()
            continue
        for sentence in _SENTENCE.split(text):
            plan = _plan(sentence)
            if plan is None:
                continue
            words, said = plan
            found.append(
                UserPlan(f"{KEY_PREFIX}{key_slug(words)}", f'{said}: "{words}".', (event.id,))
            )
        if (wanted := wanted_change(text)) is not None:
            found.append(
                UserPlan(
                    f"{KEY_PREFIX}{key_slug(wanted)}", f'{_WANTED_SAID}: "{wanted}".', (event.id,)
                )
            )
    return found
