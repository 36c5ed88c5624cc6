"""What the assistant learned: its own explanations of how something behaves, kept offline.

When a session hits a surprise, the assistant says what it found: "The issue is that Next.js
doesn't serve `index.html` files from subdirectories in `public/`." Such a sentence is worth
keeping when a rule can tell it is a finding about how the project's tools behave rather than
a note on the work at hand:

- it opens as an explanation ("the issue/problem/reason is that …", "this is because …",
  "it turns out …");
- it states a rule of behaviour: a negation, "only", "requires", "instead of", "by default";
- it speaks of no one (no "I", "we", "you": those describe the session's own steps), hedges
  nothing ("might", "probably": a guess is not a finding), and is not about a test's
  expectation (a failing test restated);
- it can be quoted whole.

The memory says it was found in a session ("Found in a session: …"): a finding about the
project's own code may stop holding once the code changes. Findings that say the same thing
in other words are kept once. Where things live and how they are wired is `placements.py`;
what only a model can tell apart goes through the model path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.instruction_words import instruction_words
from squirrel_memory.extractors.wording import key_slug, sentence
from squirrel_memory.models import StoredEvent

MIN_CHARS = 30
MAX_CHARS = 220
#: Findings kept per episode.
MAX_FINDINGS = 3
IMPORTANCE = 0.4
FOUND_PREFIX = "Found in a session: "
#: Two findings sharing this share of the shorter one's words say the same thing.
SAME_SHARE = 0.5

#: Words left out of a finding's key.
_KEY_DROP = frozenset(
    str.split(
        "a an the t s is are was were be been of in on at to for from by with and or it its "
        "this that these those there when which"
    )
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")
_OPENING = re.compile(
    r"^(?:[\w!,' ]{0,40}?\b)?(?:the (?:real |actual |root |underlying )?(?:issue|problem|reason|"
    r"catch|cause|culprit) (?:is|was) that|this is because|that'?s because|it turns out"
    r"(?: that)?|turns out(?: that)?)\s+(?P<finding>.+)$",
    re.IGNORECASE,
)
_PERSONAL = re.compile(
    r"\b(?:i|i'm|i've|i'd|my|me|we|we're|we've|our|us|you|your|you're)\b|"
    r"\b(?:the|this|that|a) (?:test|tests|mock|assertion)\b|\bexpected\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"\b(?:might|may|maybe|probably|perhaps|likely|seems?|must be|could|possibly|i think|"
    r"guess|somehow)\b",
    re.IGNORECASE,
)
_RULE = re.compile(
    r"\b(?:does not|doesn'?t|don'?t|do not|can'?t|cannot|isn'?t|aren'?t|is not|are not|won'?t|"
    r"only|requires?|needs?|always|never|instead of|by default|expects?)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Learned:
    """A finding the assistant stated: key, the sentence, and the reply it was said in."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def finding(text: str) -> str:
    """The finding one sentence states, as a sentence of its own, or ""."""
    match = _OPENING.match(" ".join(text.split()))
    if match is None:
        return ""
    found = match.group("finding").strip()
    if not MIN_CHARS <= len(found) <= MAX_CHARS or found.count("`") % 2:
        return ""
    if _PERSONAL.search(found) or _HEDGE.search(found) or not _RULE.search(found):
        return ""
    if found.endswith((":", "?")):
        return ""
    # Said as found at the time: a finding about the project's own code may not hold once
    # the code changes, so the memory says where it comes from rather than stating it as now.
    said = sentence(f"{FOUND_PREFIX}{found}")
    return said or ""


def learned(events: list[StoredEvent]) -> list[Learned]:
    """The assistant's findings in `events`, at most `MAX_FINDINGS`, each said once."""
    kept: list[Learned] = []
    for event in events:
        if event.event_type != EventType.ASSISTANT_RESPONSE:
            continue
        text = event.content.get("text")
        if not isinstance(text, str):
            continue
        prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
        for paragraph in prose.split("\n"):
            for raw in _SENTENCE.split(" ".join(paragraph.replace("**", "").split())):
                said = finding(raw)
                what = said.removeprefix(FOUND_PREFIX)
                if not said or any(_same(what, k.content.removeprefix(FOUND_PREFIX)) for k in kept):
                    continue
                key = f"pitfall:learned:{key_slug(what, _KEY_DROP) or 'finding'}"
                kept.append(Learned(key, said, (event.id,)))
                if len(kept) >= MAX_FINDINGS:
                    return kept
    return kept


def _same(first: str, second: str) -> bool:
    a, b = instruction_words(first), instruction_words(second)
    if not a or not b:
        return False
    return len(a & b) / min(len(a), len(b)) >= SAME_SHARE
