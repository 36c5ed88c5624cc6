"""The sentences of a user's message that set no habit, however they are worded.

A rule word does not make a rule of these; read as one, each would be a habit the user never
has:

- a rule the next sentence takes back ("From now on put the brace on its own line. Actually,
  scratch that, the formatter decides."): the rule and the words that take it back are left
  out (what follows them stays: it is what the user wants instead);
- a rule under a future the project may never reach ("If we ever go public with this, always
  sign commits; for now just commit normally."): a hypothetical, not how work is done now. "If
  you ever need a new dependency, ask me first" is a situation of the work: it stays;
- a rule the user's next message takes back, in the same words ("ah wait, scratch that — I was
  thinking of the other repo"): `takes_back` tells the preference rules to drop it;
- a rule bounded to the day ("Never touch the routes file today, it is mid-refactor"): the
  clause with the rule word and the day's bound is the task at hand, not a standing rule.

`standing_text` gives the message without them, for the preference rules to read.
"""

from __future__ import annotations

import re

#: Where a message's sentences end (the separator kept, to put the message back together).
_SENTENCE_END = re.compile(r"((?<=[.!?])[ \t]+|\n+)")
#: A sentence that opens by taking back the one before it ("Actually, scratch that, …",
#: "Forget that.", "Wait, ignore what I just said."); "ignore that warning" ignores a thing,
#: and "ignore what I said yesterday" takes back an earlier session's words, not this sentence.
_TAKES_BACK = re.compile(
    r"^(?:(?:actually|wait|no|nah|oh|ah|hm+|ok(?:ay)?|sorry|hmm)\W+)*"
    r"(?:scratch that|strike that|forget (?:that|it|what i (?:just )?said)|"
    r"ignore (?:that|what i (?:just )?said)|disregard (?:that|what i (?:just )?said)|"
    r"never ?mind(?: that)?|i take (?:that|it) back)"
    r"(?!\s+(?:\w+\s+)?(?:yesterday|earlier|before|last|the other day|in the last)\b)"
    r"(?:\s*[,;:.!—–-]+\s*|\s*$)",
    re.IGNORECASE,
)
#: A condition on a future the project may never reach: "if we ever go public", "once this is
#: ever open-sourced", "should we one day move to …". The assistant's own situations ("if you
#: ever …") are the work's, and stay.
_HYPOTHETICAL = re.compile(
    r"^(?:(?:and|but|also|oh|oh and|btw|by the way|ps)\W+)*"
    r"(?:if|once|when|whenever|should|in case|in the event that)\s+"
    r"(?:we|this|it|the (?:project|repo|repository|app|code|codebase|team|company)|our \w+)\s+"
    r"(?:(?:\w+\s+){0,2}?)(?:ever|someday|some day|one day|eventually|at some point)\b",
    re.IGNORECASE,
)
#: A word that makes a clause a rule: with a day's bound, the rule is the day's.
_RULE_WORD = re.compile(
    r"\b(?:always|never|don'?t|do not|no more|avoid|under no circumstances)\b", re.IGNORECASE
)
#: A bound of the day, or of the days until an event: "today", "tonight", "this week", "until
#: tomorrow", "until Monday", "until the release is out".
_DAY_BOUND = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening|week|weekend|sprint)|"
    r"until (?:tomorrow|monday|tuesday|wednesday|thursday|friday|the weekend|next week|"
    r"(?:the|after the) (?:release|demo|freeze|merge|launch|deadline)\b))\b",
    re.IGNORECASE,
)
#: A clause's end inside a sentence.
_CLAUSE_END = re.compile(r"[,;:—–]|\s-\s")


def standing_text(text: str) -> str:
    """`text` without the sentences that set no habit (see the module); unchanged when it has
    none."""
    parts = _SENTENCE_END.split(text)
    sentences, separators = parts[0::2], [*parts[1::2], ""]
    kept: list[str] = []
    for index, said in enumerate(sentences):
        flat = said.strip()
        following = sentences[index + 1].strip() if index + 1 < len(sentences) else ""
        if following and _TAKES_BACK.match(following):
            continue  # taken back by the next sentence
        if index > 0 and (taken := _TAKES_BACK.match(flat)):
            flat = flat[taken.end() :]  # what the user wants instead stays
        if _HYPOTHETICAL.match(flat) or _for_the_day(flat):
            continue
        kept.append(flat + separators[index])
    return "".join(kept).strip() if len(kept) < len(sentences) else text


def takes_back(text: str) -> bool:
    """Whether a message opens by taking back what the user said just before it ("ah wait,
    scratch that — …", "Never mind that."): the words before it set no habit."""
    return bool(_TAKES_BACK.match(text.strip()))


def _for_the_day(sentence: str) -> bool:
    """Whether one clause of `sentence` holds both a rule word and a day's bound ("Never touch
    the routes file today, …")."""
    return any(
        _RULE_WORD.search(clause) and _DAY_BOUND.search(clause)
        for clause in _CLAUSE_END.split(sentence)
    )
