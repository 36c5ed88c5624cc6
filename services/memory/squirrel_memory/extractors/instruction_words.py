"""The words that carry an instruction's meaning, for telling two wordings of one apart."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from squirrel_memory.extractors.wording import stem, strip_markdown, word_set

#: Words left out when two instructions are compared (`instruction_words`): how firmly, who,
#: and the glue between the words that carry the meaning.
_FILLER = word_set(
    "a an the to of for in on at with and or be is are it its this that these those my our ",
    "your we i you me us it's use using any all every each always never don dont do not no ",
    "avoid stop prefer please should must need have will would can could may might shall ",
    "if once when whenever from now forward future default rule general also too very really ",
    "just only so then as by into up out about what which who how there their them they ",
    "yes ok okay thing things something way like more most much many some other was were been ",
    "being am has had does did doing make sure here repo repository project codebase doesn ",
    "isn won can't cannot",
)
#: Verbs too common to make two instructions the same on their own ("run", "add").
_GENERIC = word_set(
    "run add make keep go get put set take give let check use write change create update try ",
    "start continue finish done instead rather than over before after until",
)


#: A word in any script (letters and digits, then `+`, `#`, `_` or `-` inside it).
_WORD = re.compile(r"[^\W_][\w+#-]*")
#: Letters of scripts written without spaces between words.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


#: Everyday ways of saying the same thing about how work is carried out, said one way.
_SAME_MEANING = (
    (re.compile(r"\b(?:don'?t|do not|never|without) stop(?:ping)?\b"), "continue"),
    (re.compile(r"\b(?:keep (?:going|working|at it)|carry on|go on)\b"), "continue"),
    (re.compile(r"\b(?:finish(?:ed|es)?|complet(?:e|ed|es))\b"), "done"),
)


def instruction_words(text: str) -> frozenset[str]:
    """The stemmed content words of an instruction, without the words that only say how firmly
    it is meant or link the others: what two wordings of one instruction share ("don't stop"
    and "keep going" are one word here, "continue")."""
    lowered = strip_markdown(text).lower().replace("’", "'")
    for pattern, word in _SAME_MEANING:
        lowered = pattern.sub(word, lowered)
    plain = re.sub(r"'(?:s|re|ll|ve|d|m|t)\b", "", lowered)
    words: set[str] = set()
    for raw in _WORD.findall(plain):
        if _UNSPACED.search(raw):  # Chinese, Japanese: each pair of characters is a word
            words.update(a + b for a, b in itertools.pairwise(raw))
            continue
        word = stem(raw.strip("-"))
        if word and word not in _FILLER and raw not in _FILLER:
            words.add(word)
    return frozenset(words)


def telling_words(words: frozenset[str]) -> frozenset[str]:
    """`words` without the verbs too common to tell two instructions apart."""
    return frozenset(w for w in words if w not in _GENERIC)


@lru_cache(maxsize=8192)
def common_word(word: str) -> bool:
    """Whether `word` is one of the verbs too common to tell instructions apart, or a stem of
    one ("mak" of "making", "updat" of "updated")."""
    return word in _GENERIC or any(g.startswith(word) for g in _GENERIC if len(word) >= 3)
