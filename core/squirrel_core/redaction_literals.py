"""The literals that gate redaction's rules, all found in one pass over a text (Aho-Corasick).

Each redaction rule runs only when one of its literal hints is in the text. Asking `hint in text`
for some hundred hints scans a text a hundred times; here one automaton scans the lower-cased
text once, and the answers are exactly those of `in`: `in_lower(word)` is `word in lowered`, and
`in_text(literal)` is `literal in text`, asked of the text only when the lower-cased text holds
the literal's lower-case form (so rarely).
"""

from __future__ import annotations

from collections.abc import Iterable

import ahocorasick_rs


class Literals:
    """A fixed set of ASCII literals, searched for together in the lower-cased text."""

    def __init__(self, literals: Iterable[str]) -> None:
        words = sorted({literal.lower() for literal in literals})
        if not words or not all(word.isascii() and word for word in words):
            raise ValueError("literals must be non-empty ASCII strings")
        self._words = tuple(words)
        # A DFA: more memory than the default (some kB here), and the fastest scan.
        self._automaton = ahocorasick_rs.AhoCorasick(
            list(words), implementation=ahocorasick_rs.Implementation.DFA
        )

    def __contains__(self, literal: object) -> bool:
        return isinstance(literal, str) and literal.lower() in self._words

    def scan(self, text: str, lowered: str) -> Found:
        """The literals in `text`; `lowered` is `text` lower-cased with every character kept at
        its index (as `redaction` lower-cases), so an ASCII literal's place is the same in both."""
        matches = self._automaton.find_matches_as_indexes(lowered, overlapping=True)
        return Found(text, self._words, matches)


class Found:
    """The answer of one scan: which literals a text holds, and where (in the lower-cased text)."""

    __slots__ = ("_matches", "_text", "_words", "words")

    def __init__(
        self, text: str, words: tuple[str, ...], matches: list[tuple[int, int, int]]
    ) -> None:
        self._text = text
        self._words = words
        self._matches = matches
        #: The lower-case forms of the literals the lower-cased text holds.
        self.words = frozenset(words[index] for index, _, _ in matches)

    @property
    def empty(self) -> bool:
        """True when the text holds none of the literals."""
        return not self._matches

    def in_lower(self, word: str) -> bool:
        """`word in lowered`, for a lower-case literal of the set."""
        return word in self.words

    def in_text(self, literal: str) -> bool:
        """`literal in text`, for a literal of the set (in any case)."""
        return literal.lower() in self.words and literal in self._text

    def any_lower(self, words: Iterable[str]) -> bool:
        """Whether the lower-cased text holds one of `words`."""
        return any(word in self.words for word in words)

    def any_text(self, literals: Iterable[str]) -> bool:
        """Whether the text holds one of `literals`."""
        return any(self.in_text(literal) for literal in literals)

    def starts(self, words: Iterable[str]) -> list[int]:
        """Every index where one of the lower-case `words` starts in the lower-cased text,
        ascending, each index once."""
        wanted = self.words.intersection(words)
        if not wanted:
            return []
        return sorted({start for index, start, _ in self._matches if self._words[index] in wanted})
