"""What a short question about the project asks for, and the memories that answer it by kind.

"what is this repository?" shares no word with "The project is a game engine built with …",
and a question this short is too far from any memory in meaning for the vector side to
lift it past the search floor: search used to return nothing. Such questions come in a few
kinds (what the project is, what it is written in, how to run, build or test it, where things
are, how the user wants to be answered, how commits are written), and the memories that answer
them are the ones whose key says that kind (`about`, `language`, `recipe:run`, `where:…`) or,
for the user's style, their type.

A question has an intent when EVERY word it holds that says what it is about belongs to that
intent's vocabulary: "how do I restart the server?" asks how to run the project, "how do I run
a marathon?" holds a word no intent knows and has none, so an off-topic question that merely
shares a verb keeps getting nothing. The memories answering an intent are ranked as matches of
`INTENT_RELEVANCE` at least (`Retriever.search`; the task context's gate stands above it).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.retrieval.queries import is_generic, stem
from squirrel_memory.storage.search_terms import STOP_WORDS

INTENT_RELEVANCE = 0.3
"""The fused relevance a memory answering the question's intent counts as, at least (the
first of the intent's key words; each later one 0.02 less): above `min_similarity`, below the
task context's `RELEVANT_WITH_VECTORS`. Only `SearchMemory` asks with a question's intents."""
STEP = 0.02
MAX_QUESTION_WORDS = 16
"""A longer text is a request, not a short question of one intent."""
MAX_QUESTION_CHARS = 200
_WORD = re.compile(r"[^\W_]+")
#: The words a question opens with: a search for a list of words ("run the tests test command",
#: "start", the hooks' own searches for the everyday commands) asks no question, and has no intent.
_QUESTION_WORD_TEXT = (
    "what whats which how where who why when can could do does did is are should would will"
    " tell describe explain"
)
QUESTION_WORDS = frozenset(_QUESTION_WORD_TEXT.split())


#: Verbs written as two words that ask what their one-word form asks: "how do I set up a
#: development environment?" asks for the setup, as "what is the setup?" does.
_JOINED: dict[tuple[str, str], str] = {("set", "up"): "setup"}


def joined(words: list[str]) -> list[str]:
    """`words` with each two-word verb of `_JOINED` ("set up", "set-up") as its one word."""
    out: list[str] = []
    for word in words:
        one = _JOINED.get((out[-1], word)) if out else None
        if one is None:
            out.append(word)
        else:
            out[-1] = one
    return out


def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in text.split())


def _ordered(text: str) -> tuple[str, ...]:
    return tuple(stem(w) for w in text.split())


@dataclass(frozen=True, slots=True)
class Intent:
    """A kind of question: the words it is asked with and the memories that answer it."""

    name: str
    asks: frozenset[str]
    """One of these words is in the question (empty: none needed); stop words count here."""
    cues: frozenset[str]
    """One of these words is in the question."""
    words: frozenset[str]
    """Every word of the question that says what it is about is a cue or one of these."""
    key_words: tuple[str, ...]
    """A memory answers when its key holds one of these words, best first."""
    types: frozenset[MemoryType]
    """The types of the memories that answer (empty: any type, by `key_words`)."""
    any_key: bool = False
    """Every memory of `types` answers, whatever its key."""

    def rank(self, item: MemoryItem) -> int | None:
        """The place of the first of `key_words` the memory's key holds (0 for `any_key`),
        or None when the memory does not answer this intent."""
        return self.rank_key(item.type, item.key)

    def rank_key(self, memory_type: MemoryType, key: str) -> int | None:
        """`rank` of a memory of `memory_type` under `key`."""
        return self.rank_stems(memory_type, key_stems(key))

    def rank_stems(self, memory_type: MemoryType, held: frozenset[str]) -> int | None:
        """`rank` of a memory of `memory_type` whose key's words stem to `held`."""
        if self.types and memory_type not in self.types:
            return None
        if self.any_key:
            return 0
        for place, word in enumerate(self.key_words):
            if word in held:
                return place
        return None


def key_stems(key: str) -> frozenset[str]:
    """The stems of the words of a memory's key (`recipe:run_web` → recipe, run, web)."""
    return frozenset(stem(w) for w in _WORD.findall(key.lower()))


def _intent(row: dict[str, Any], project: str) -> Intent:
    """An intent of `intents.toml` (its "{project}" the file's `project` words)."""

    def text(field: str) -> str:
        return str(row.get(field, "")).replace("{project}", project)

    return Intent(
        str(row["name"]),
        asks=_stems(text("asks")),
        cues=_stems(text("cues")),
        words=_stems(text("words")),
        key_words=_ordered(text("key_words")),
        types=frozenset(MemoryType(t) for t in text("types").split()),
        any_key=bool(row.get("any_key", False)),
    )


def _load() -> tuple[Intent, ...]:
    data = tomllib.loads(resources.files(__package__).joinpath("intents.toml").read_text())
    return tuple(_intent(row, data["project"]) for row in data["intent"])


INTENTS: tuple[Intent, ...] = _load()
"""The kinds of question search answers by the memories' kind (`intents.toml`)."""


def question_intents(text: str) -> tuple[Intent, ...]:
    """The intents a short question is asked with: none for a longer text, for one that is no
    question (it neither opens with a `QUESTION_WORDS` word nor ends with "?"), or for one
    holding a word that says what it is about outside every intent's vocabulary."""
    if len(text) > MAX_QUESTION_CHARS:
        return ()
    words = joined(_WORD.findall(text.lower()))
    if not words or len(words) > MAX_QUESTION_WORDS:
        return ()
    if words[0] not in QUESTION_WORDS and not text.rstrip().endswith("?"):
        return ()
    held = frozenset(stem(w) for w in words)
    topical = {stem(w) for w in words if len(w) > 1 and w not in STOP_WORDS and not is_generic(w)}
    return tuple(
        intent
        for intent in INTENTS
        if (not intent.asks or held & intent.asks)
        and held & intent.cues
        and topical <= intent.cues | intent.words | intent.asks
    )


def intent_relevance(intents: tuple[Intent, ...], items: Iterable[MemoryItem]) -> dict[str, float]:
    """memory id -> the relevance each memory answering one of `intents` counts as at least."""
    lifted: dict[str, float] = {}
    for item in items:
        for intent in intents:
            place = intent.rank(item)
            if place is not None:
                value = INTENT_RELEVANCE - STEP * place
                lifted[item.id] = max(lifted.get(item.id, 0.0), value)
    return lifted
