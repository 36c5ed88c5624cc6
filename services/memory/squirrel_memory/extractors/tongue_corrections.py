"""A correction of the assistant said in a language other than English, in the user's words.

`user_corrections` reads the English shapes ("no, not X — Y", "it's not X, it's Y"). A user
writing in French, Russian or Japanese opens the same correction with their language's "no"
(`tongue_markers`: "non", "nein", "нет", "不对", "違う", "아니"), and the same conditions hold
as in English: the message is short and the user's own, its first sentence opens with that
"no", it names something of its own (code: a backticked span, a file, a command), it guesses
nothing, asks nothing and is not about the moment ("not yet", "for now"). The statement quotes
the user's sentence and names its language in English.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.reply_language import language_name
from squirrel_memory.extractors.tongue_instructions import code_names, instruction_language
from squirrel_memory.extractors.tongue_markers import (
    CORRECT,
    HEDGE,
    ONE_OFF,
    TAKEN_BACK,
    markers,
    script_language,
    without_correction,
)

MAX_MESSAGE_CHARS = 400
#: A sentence's end, full-width ones too.
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")
_QUESTION = re.compile(r"[?？]\s*$|か[。\s]*$")
_PASTED = re.compile(r"```|^\s*>", re.M)
_CODE = re.compile(r"`[^`\n]*`")


def tongue_correction(text: str) -> str:
    """The correction a non-English message states, quoted with its language, or ""."""
    flat = text.strip()
    if len(flat) > MAX_MESSAGE_CHARS or _PASTED.search(flat) or "\n\n" in flat:
        return ""
    # a script only one language here uses decides without a marker ("不对，在 `x.yaml`")
    lang = instruction_language(flat) or script_language(_CODE.sub(" ", flat))
    if lang is None:
        return ""
    flat = " ".join(flat.split())
    first = next((p for p in _SENTENCE.split(flat) if p.strip()), "").strip()
    if not first or _QUESTION.search(first) or not markers(lang, first).has(CORRECT):
        return ""
    rest = without_correction(lang, first)
    marked = markers(lang, rest)
    if not rest or marked.has(HEDGE, ONE_OFF, TAKEN_BACK) or not code_names(rest):
        return ""
    return f"“{first.rstrip()}” (said in {language_name(lang)})"


def taken_back_in(text: str) -> bool:
    """Whether a non-English message takes back what the user said ("oublie ça", "算了")."""
    lang = instruction_language(text)
    return lang is not None and markers(lang, text).has(TAKEN_BACK)


__all__ = ["taken_back_in", "tongue_correction"]
