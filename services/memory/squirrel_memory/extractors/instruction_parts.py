"""The parts every instruction form shares: what a clause's instruction is (`Found`), its
sentence, the clean cut of a directive's object, the verbs that open a directive and the words
that tie one to the task at hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.wording import sentence, stem, word_set

#: The longest object a directive keeps; a longer one is cut at its last comma, or dropped.
MAX_OBJECT_CHARS = 160
#: Words that tie a directive to the task at hand: it is dropped unless phrased as a rule.
ONE_OFF = re.compile(
    r"\b(?:yet|for now|right now|this time|today|at the moment|just now|above|below|"
    r"these|those|it|them|this (?!(?:repo|repository|project|codebase)\b)\w+|(?:for|with|in) this$|"
    r"that (?:file|function|test|change|one|part|section|method|class))\b",
    re.IGNORECASE,
)
#: What the conversation itself named ("the edge cases we discussed", "the errors I mentioned",
#: "the plan"): a rule over the things later work makes does not point back at it.
TOLD_OF = (
    r"\b(?:(?:we|i|you)\s+(?:just\s+|already\s+)?(?:discussed|mentioned|described|agreed|"
    r"talked\s+about|listed|outlined|planned|wrote|said)|the\s+(?:plan|brief))\b"
)
#: Verbs that start an instruction about how work is done.
VERBS = word_set(
    "add answer ask avoid be build bump call check clean close commit confirm continue create ",
    "delete deploy document double-check edit ensure explain finish fix flag follow format give ",
    "go include inject install keep leave let lint list log make mark mention merge move name ",
    "notify open pass pin point prefer prefix print push put ",
    "raise read rebase ",
    "release remove rename reply respond return review run say send show sign skip split squash ",
    "start stick summarize summarise tag tell test type-check update use verify wait wrap write",
)
#: Where a directive's object ends and the rest of the sentence begins.
_CONTINUATION = re.compile(
    r",\s+(?=(?:it|this|that|we|i|you|they|looks|seems|because|since|as|but|so|then|which|just|"
    r"otherwise|unless)\b)",
    re.IGNORECASE,
)
_IDIOM = re.compile(r"^(?:mind|ever|again|before|forget|say never)\b", re.IGNORECASE)
_VAGUE_OBJECT = re.compile(
    r"^(?:it|that|this|them|those|these|so|one|do (?:it|that|this)|that again)\W*$", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Found:
    """A clause's instruction: its statement, the subject it is keyed by, and whether it is a
    choice of one tool over another."""

    content: str
    subject: str
    choice: bool = False
    #: Holds for all later work as said, without a rule word (`way_forms`).
    standing: bool = False


def clean(fragment: str) -> str:
    text = _CONTINUATION.split(" ".join(fragment.split()), maxsplit=1)[0]
    text = text.strip(" .!,;:")
    if len(text) > MAX_OBJECT_CHARS:
        cut = text[:MAX_OBJECT_CHARS]
        text = cut[: cut.rfind(",")] if "," in cut else ""
    return text.strip(" ,")


def usable(obj: str) -> bool:
    return bool(obj) and not _VAGUE_OBJECT.match(obj) and not _IDIOM.match(obj)


def first_verb(text: str) -> str:
    word = text.split(maxsplit=1)[0].lower().strip(",.:") if text.split() else ""
    return word if word in VERBS else stem(word) if stem(word) in VERBS else ""


def base_form(gerund: str) -> str:
    """ "running the tests twice" → "run the tests twice" (the verb as a directive takes it)."""
    head, _, rest = gerund.partition(" ")
    base = stem(head.lower())
    return f"{base} {rest}".strip() if base in VERBS else gerund


def worded(text: str, subject: str, *, choice: bool = False) -> Found | None:
    """`text` as the instruction's sentence, or None when nothing of it is left."""
    content = sentence(text)
    return Found(content, subject, choice) if content else None
