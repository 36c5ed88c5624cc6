"""A list the user gives to say how the code being written must behave is the task's design, not
the user's ways of working: "In our case it would be like:\\n1. if there is an error, always
exit with status 1\\n2. …", "The retry wrapper should behave like this:\\n- never retry a 4xx",
"Here's the logic I want for the cache:\\n1. always look in the cache first". Its items say
what the program does ("always exit", "never retry"), in the words a standing rule uses, but
they hold for the one thing being built: read as rules for the assistant, they would tell every
later session to exit, retry or cache so.

The rule, the same in every ecosystem: a list (bulleted or numbered lines) right under a lead
line ending in a colon whose last sentence says how something should work, behave, go or look
("should work as follows", "would be like", "the logic I want", "what I'm trying to achieve")
is taken out of the message before its instructions are read. A lead that speaks to the
assistant ("you should work like this"), names the user's ways ("our conventions", "the
workflow") or marks a standing rule ("from now on") keeps its list: those items are rules.
"""

from __future__ import annotations

import re

#: A list item: a bullet or a number, then its text.
_ITEM = re.compile(r"^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+\S")
#: How something should behave, said in a lead's last sentence.
_BEHAVIOUR_LEAD = re.compile(
    r"\b(?:should|must|would|will|needs? to|has to|is supposed to|ought to)\s+"
    r"(?:work|behave|function|flow|go|look|act|operate)\b"
    r"|\bwould be (?:something )?like\b|\bwould look like\b"
    r"|\b(?:logic|behaviou?r|algorithm|flow|semantics|spec|specification|requirements?)\b"
    r"[^:]{0,40}\b(?:I|we) (?:want|need|have in mind|expect)\b"
    r"|\b(?:the|its) (?:logic|behaviou?r|algorithm|semantics|spec|specification)\b"
    r"[^:]{0,20}\b(?:is|should be|would be)\b"
    r"|\bwhat I'?m (?:trying to (?:achieve|do|get)|after|going for)\b",
    re.IGNORECASE,
)
#: A lead about the assistant's or the user's own ways of working: its list holds rules.
_WAYS_LEAD = re.compile(
    r"\b(?:you|your|yourself)\b|\b(?:rules?|conventions?|guidelines?|norms|practices|workflow|"
    r"process|habits?|ways? of working)\b|\bfrom now on\b|\bgoing forward\b|\bin future\b|"
    r"\bin the future\b|\bevery time\b|\bwhenever\b",
    re.IGNORECASE,
)
#: Where a lead line's sentences end.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _behaviour_lead(line: str) -> bool:
    """Whether `line` leads a list of how the thing being built behaves (module docstring)."""
    text = line.strip()
    if not text.endswith(":"):
        return False
    last = _SENTENCE_END.split(text)[-1]
    return bool(_BEHAVIOUR_LEAD.search(last)) and not _WAYS_LEAD.search(last)


def without_behaviour_lists(text: str) -> str:
    """`text` without the lists that say how the code being written must behave (module
    docstring); the lead line stays, the rest of the message as it was."""
    lines = text.split("\n")
    kept: list[str] = []
    dropping = False
    for line in lines:
        if dropping and _ITEM.match(line):
            continue
        if dropping and line.startswith((" ", "\t")) and line.strip():
            continue  # an item's continued line
        dropping = False
        kept.append(line)
        if not _ITEM.match(line) and _behaviour_lead(line):
            dropping = True
    return "\n".join(kept)
