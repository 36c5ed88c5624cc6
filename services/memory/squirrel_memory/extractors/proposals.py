"""Standing rules agreed in an exchange: a rule put as a question, then a yes from the other side.

Users often state a rule as a proposal: "let's add a fetch tool so we use that tool exclusively,
makes sense?", "shall we always squash before merging?". The assistant proposes rules too
("Should I run the linter before every commit from now on?"). Such a question becomes a
standing instruction only when
- it proposes (a "let's", "shall we", "should I", "want me to" lead, or a closing "makes
  sense?", "right?", "agreed?") a rule (a word of permanence: "exclusively", "always", "never",
  "from now on", "every time", "by default" …), and
- the other side accepts it in its very next turn ("Makes sense — …", "Yes", "Agreed", "Sounds
  good, go ahead"): the assistant, for the user's proposal; the user, for the assistant's.
A plain question ("do we always run the migrations?"), a proposal about the task at hand
("shall we rename it?") and a proposal declined or answered with a reservation ("No — …",
"Makes sense, but …") give nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import event_text, user_words
from squirrel_memory.extractors.firmness import STANDING_IMPORTANCE, STANDING_TAG, StatedPreference
from squirrel_memory.extractors.instruction_keys import instruction_key, topic
from squirrel_memory.extractors.own_words import CODE_BLOCK
from squirrel_memory.extractors.wording import sentence, strip_markdown
from squirrel_memory.models import Scope, StoredEvent

AGREED_TAG = "agreed"
#: A proposal longer than this is cut to its clause that states the rule.
MAX_RULE_CHARS = 220
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
#: Words that make a proposal a rule for all later work rather than a step of the task.
_PERMANENT = re.compile(
    r"\b(?:exclusively|always|never|from now on|going forward|from here on|every ?time|"
    r"each time|whenever|by default|as a (?:general )?rule|in (?:the )?future|"
    r"(?:only|solely) (?:use|call|go through|through)|(?:for|before|after|on|in|with) "
    r"(?:all|every|each) \w+|"
    # a habit's condition: "… when I'm trying to solve", "… while we're iterating"
    r"(?:when|while) (?:i|we|you)(?:'m|'re| am| are) (?:\w+ )?\w+ing)\b",
    re.IGNORECASE,
)
#: How a proposal opens, and what is left out of the rule it states.
_LEAD = re.compile(
    r"^(?:(?:so|ok|okay|and|also|then|maybe|perhaps|hmm|well)[,\s]+)*"
    r"(?:let'?s|lets|shall (?:we|i)|should (?:we|i)|how about(?: we)?|what about|"
    r"what if we|why don'?t we|can we|could we|(?:i think )?we should|we could|"
    r"(?:do you )?want me to|would you like me to|do you want (?:me|us) to)\b[,\s]*",
    re.IGNORECASE,
)
#: A subject before the rule's firm word: "we never bump …" states "never bump …".
_SUBJECT = re.compile(r"^\s*(?:we|i|you)\s+(?=(?:always|never|only|should|must)\b)", re.I)
#: A rule whose object is a bare pronoun ("run it on all pushes") says nothing on its own.
_VAGUE = re.compile(
    r"^\w+\s+(?:it|them|this|that|those|these)(?:\s*$|,|\s+(?:on|in|at|for|before|after|to|"
    r"with|from|by|as|every|each|all|always|exclusively|only|when|whenever)\b)",
    re.IGNORECASE,
)
#: A hedge after a modal in a proposal: "should probably not …".
_HEDGED = re.compile(r"\b(should|must|could|can)\s+(?:probably|maybe|perhaps)\s+", re.I)
#: A closing tag that turns a statement into a proposal: "…, makes sense?".
_TAG = re.compile(
    r"(?<![,;\s—–-])[,;\s—–-]*\b(?:(?:does that |that )?makes? sense|right|ok(?:ay)?|agreed|"
    r"sounds? good|"
    r"wdyt|what (?:do )?you think|thoughts|yes|no|good idea|fair)\s*\?+\s*$",
    re.IGNORECASE,
)
#: The first words of an answer that accepts what was proposed.
_YES = re.compile(
    r"^(?:yes|yep|yeah|yup|sure|agreed|absolutely|definitely|exactly|correct|of course|"
    r"(?:that )?makes (?:total |perfect |a lot of )?sense|sounds (?:good|great|like a plan)|"
    r"(?:that'?s |a |what a )?(?:good|great|sensible|solid|smart) (?:idea|call|plan|approach|"
    r"thinking)|i agree|go ahead|do it|please do|let'?s do (?:it|that|this)|will do|ok(?:ay)?)\b",
    re.IGNORECASE,
)
#: A reservation in the accepting sentence: the answer is not a plain yes.
_BUT = re.compile(
    r"\b(?:but|however|although|though|except|instead|rather|not)\b|n't\b", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class _Turn:
    event: StoredEvent
    text: str
    user: bool


def _turns(events: list[StoredEvent]) -> list[_Turn]:
    """The conversation: the user's own messages and the assistant's replies, in order. A
    subagent's text is not in it: it talks to the agent that launched it, never to the user."""
    turns: list[_Turn] = []
    for event in events:
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            text = user_words(event)
            if text:
                turns.append(_Turn(event, text, user=True))
        elif event.event_type == EventType.ASSISTANT_RESPONSE and not event.sidechain:
            text = event_text(event).strip()
            if text:
                turns.append(_Turn(event, text, user=False))
    return turns


def proposed_rule(text: str) -> str | None:
    """The rule a message proposes in question form ("…, makes sense?", "shall we always …?"),
    without its lead and closing tag; None when it proposes no rule for later work."""
    plain = strip_markdown(CODE_BLOCK.sub(" ", text))
    for raw in reversed(_SENTENCES.split(plain)):
        question = " ".join(raw.split())
        if not question.endswith("?"):
            continue
        tagged = _TAG.search(question)
        body = question[: tagged.start()] if tagged else question.rstrip("?")
        if tagged:  # "…, right, what do you think?": the tag before the tag
            body = _TAG.sub("", body + "?").rstrip("?")
        led = _LEAD.match(body)
        if not (tagged or led) or not _PERMANENT.search(body):
            continue
        rule = _SUBJECT.sub("", body[led.end() :] if led else body)
        # "I should probably not …": the other side's yes settles what the proposal hedged
        rule = _HEDGED.sub(r"\1 ", rule)
        return _narrowed(rule.strip(" ,;:—–-"))
    return None


def _narrowed(rule: str) -> str | None:
    """A long proposal cut to its clause that holds the rule; None when nothing usable is left."""
    if len(rule) > MAX_RULE_CHARS:
        parts = re.split(r",\s+|\s+(?:so that|so|and then)\s+", rule)
        rule = next((p for p in parts if _PERMANENT.search(p)), "")
    if _VAGUE.match(rule):
        return None
    return rule if len(rule.split()) >= 3 and len(rule) <= MAX_RULE_CHARS else None


def accepted(reply: str) -> bool:
    """Whether an answer accepts what was just proposed: it opens with a yes and its first
    sentence holds no reservation ("Makes sense, but …" is not a yes)."""
    first = _SENTENCES.split(strip_markdown(reply).strip(), maxsplit=1)[0]
    match = _YES.match(first)
    if match is None:
        return False
    rest = re.split(r"\s[—–-]\s|:", first[match.end() :], maxsplit=1)[0]
    return not _BUT.search(rest)


#: A restatement that takes something back or asks: not the rule as agreed.
_RESERVED = re.compile(r"\b(?:but|however|although|though|except|instead|rather|unless)\b", re.I)
MAX_RESTATED_CHARS = 160
MIN_RESTATED_WORDS = 4


def restated(reply: str) -> str | None:
    """How an accepting answer puts the rule in its own words: what its first sentence says
    after the yes and a dash or colon ("Exactly right — you should only add the insight after
    you've solved it."); None when it says nothing more, asks, or takes something back."""
    first = _SENTENCES.split(strip_markdown(reply).strip(), maxsplit=1)[0]
    match = _YES.match(first)
    if match is None:
        return None
    parts = re.split(r"\s[—–-]\s|:", first[match.end() :], maxsplit=1)
    if len(parts) < 2:
        return None
    said = " ".join(parts[1].split()).rstrip(" .!")
    if "?" in said or _RESERVED.search(said) or len(said.split()) < MIN_RESTATED_WORDS:
        return None
    return said if len(said) <= MAX_RESTATED_CHARS else None


def accepted_proposals(events: list[StoredEvent]) -> list[tuple[StoredEvent, StatedPreference]]:
    """The rules proposed in question form and accepted in the next turn, each with the user's
    message it comes from (their proposal, or their yes)."""
    turns = _turns(events)
    found: list[tuple[StoredEvent, StatedPreference]] = []
    for ask, answer in pairwise(turns):
        if ask.user == answer.user or not accepted(answer.text):
            continue
        rule = proposed_rule(ask.text)
        if rule is None:
            continue
        pref = _preference(
            rule, by_user=ask.user, agreed=restated(answer.text) if ask.user else None
        )
        if pref is not None:
            found.append((ask.event if ask.user else answer.event, pref))
    return found


def _preference(rule: str, *, by_user: bool, agreed: str | None = None) -> StatedPreference | None:
    who = "proposed by the user, agreed" if by_user else "proposed by the assistant, accepted"
    if agreed:
        who += f": \u201c{agreed}\u201d"
    content = sentence(f"{rule} ({who})")
    if content is None:
        return None
    tags = tuple(t for t in ("preference", topic(rule), STANDING_TAG, AGREED_TAG) if t)
    return StatedPreference(
        key=instruction_key(rule),
        content=content,
        tags=tags,
        # agreed while working on this project, mostly about its own tools: kept in it
        scope=Scope.PROJECT,
        importance=STANDING_IMPORTANCE,
        standing=True,
    )
