"""The words a lexical search looks for, the same on both backends: a query cut into words as
the index cuts documents (`fts_text`), English clitics and stop words dropped; and a lexical
search's arguments checked once for both (`lexical_query`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.models import MemoryType
from squirrel_memory.storage.checks import check_limit, check_type, encodable
from squirrel_memory.storage.formats import fts_text

MAX_QUERY_TERMS = 32
TERMS_CACHE_SIZE = 256
"""Texts whose searchable words stay cached (`search_terms`)."""

_QUERY_TOKEN = re.compile(r"[^\W_]+")
# An English clitic after a word: possessive `Anna's`, `Anna’s`, contractions `didn't`, `we'll`.
# The tokenizer would make a one-letter term of it (`anna` + `s`) that matches half the rows.
_CLITIC = re.compile(r"(?<=[^\W_])['’](?:s|t|d|m|ll|re|ve)\b", re.IGNORECASE)
# Function words: they carry no topic, yet in short texts BM25 weighs them like content words.
# Porter over-stems some of them (`has` → `ha`, `was` → `wa`), which makes them match odd rows.
_STOP_WORD_TEXT = (
    "a about after again all also am an and any are as at be been before being both but by can"
    " could did didn do does doesn doing don during each even ever for from had has have having"
    " he her here hers him his how i if in into is isn it its itself just let me might more most"
    " much must my no nor not now of off on once only or other our ours out over own same shall"
    " she should so some such than that the their theirs them then there these they this those"
    " through to too under until up upon us very was wasn we were what when where whether which"
    " while who whom whose why will with within without would you your yours"
)
STOP_WORDS = frozenset(_STOP_WORD_TEXT.split())


def search_terms(text: str) -> list[str]:
    """The distinct searchable words of `text`, lower-cased, in order, at most 64 chars each.

    Identifiers are split on `_ . / - :` and camelCase; English clitics (`'s`, `n't`, `'ll`)
    are dropped; stop words are dropped unless nothing else is left. Not capped in number.
    """
    return list(_search_terms(text))


@functools.lru_cache(maxsize=TERMS_CACHE_SIZE)
def _search_terms(text: str) -> tuple[str, ...]:
    """`search_terms`, cached: a search cuts its query into words twice (the query's terms on
    the event loop, then the lexical side's), and a task context cuts the same text again."""
    tokens: list[str] = []
    seen: set[str] = set()
    for token in _QUERY_TOKEN.findall(fts_text(_CLITIC.sub("", text))):
        lowered = token.lower()[:64]
        if lowered not in seen and encodable(lowered):
            seen.add(lowered)
            tokens.append(lowered)
    return tuple([t for t in tokens if t not in STOP_WORDS] or tokens)


def match_terms(query: str) -> list[str]:
    """The terms a query searches for: `search_terms` of its first 4,096 characters, at most
    32 of them (none: nothing is searchable)."""
    if not isinstance(query, str):
        raise InvalidArgumentError("query must be a string")
    return search_terms(query[:4096])[:MAX_QUERY_TERMS]


@dataclass(frozen=True, slots=True)
class LexicalQuery:
    """A lexical search's checked arguments: the terms it looks for (`match_terms`, never
    empty) and the memory types it keeps (their values; None: every type)."""

    terms: list[str]
    kinds: list[str] | None


def lexical_query(
    query: str, types: Sequence[MemoryType] | None, limit: int
) -> LexicalQuery | None:
    """The checked arguments of a lexical search (`search_fts` on either backend), or None when
    the query has no searchable words (the search finds nothing).

    Raises `InvalidArgumentError` for a limit outside 1 to `MAX_PAGE` or a query that is not a
    string (both checked first), and for an unknown type, checked only when there are words to
    search for."""
    check_limit(limit)
    terms = match_terms(query)
    if not terms:
        return None
    kinds = [str(check_type(t)) for t in types] if types else None
    return LexicalQuery(terms, kinds)
