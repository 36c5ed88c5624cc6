"""A user's message as the standing-rule readers take it: the usual misspellings of the words
rules are read by mended ("alwasy run the formatter before commiting"), and imperatives joined by
commas taken apart ("respond in English, keep explanations brief" is two instructions)."""

from __future__ import annotations

import re

from squirrel_memory.extractors.instruction_forms import VERBS
from squirrel_memory.extractors.wording import stem

#: Usual misspellings of the words the rules are read by, and their spelling.
_SPELLING = {
    "alwasy": "always",
    "allways": "always",
    "alwyas": "always",
    "awlays": "always",
    "alwys": "always",
    "nevr": "never",
    "nver": "never",
    "neevr": "never",
    "commiting": "committing",
    "comitting": "committing",
    "everytime": "every time",
    "whenver": "whenever",
}
_MISSPELT = re.compile(r"\b(?:" + "|".join(_SPELLING) + r")\b", re.IGNORECASE)


def mended_spelling(message: str) -> str:
    """The message with the usual misspellings of the words rules are read by mended
    ("alwasy run the formatter before commiting")."""
    return _MISSPELT.sub(lambda m: _SPELLING[m.group(0).lower()], message)


def imperatives_apart(listed: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Clauses with imperatives joined by commas taken apart ("respond in English, keep
    explanations brief" is two instructions); a condition, a list of objects or a sentence
    going on after its comma stays whole."""
    apart: list[tuple[str, str]] = []
    for written, clause in listed:
        parts = [p.strip() for p in clause.split(",")]
        if len(parts) > 1 and all(_imperative(p) for p in parts):
            said = [p.strip() for p in written.split(",")]
            apart.extend(
                zip(said, parts, strict=True)
                if len(said) == len(parts)
                else ((p, p) for p in parts)
            )
        else:
            apart.append((written, clause))
    return apart


def _imperative(part: str) -> bool:
    """Whether a part of a clause opens with a verb of work and says something after it."""
    words = part.split()
    return len(words) >= 2 and (words[0].lower() in VERBS or stem(words[0].lower()) in VERBS)
