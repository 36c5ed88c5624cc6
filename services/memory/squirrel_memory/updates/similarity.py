"""How alike two statements are: the share of their content words (Jaccard) and of their
characters (difflib's edit ratio), and the thresholds that make them near-identical or related
enough to merge (`rules`)."""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass

#: Near-identical (→ NOOP): token-set Jaccard at least this, or edit ratio at least the next.
NEAR_DUPLICATE_JACCARD = 0.8
NEAR_DUPLICATE_RATIO = 0.9
#: Related enough to merge (→ UPDATE_EXISTING) when the key is the same.
RELATED_JACCARD = 0.3
RELATED_RATIO = 0.6
#: Edit ratio looks at this many characters of each statement (difflib is quadratic:
#: about 3 ms at 400 characters, 400 ms at 2,000).
MAX_RATIO_CHARS = 400
#: Statements whose word sets stay cached: one statement is compared with up to 20 look-alikes,
#: and a batch compares many statements with the same memories.
WORD_CACHE_SIZE = 512
_STOPWORDS = frozenset(
    {"a", "an", "the", "to", "of", "for", "in", "on", "at", "with", "and", "or", "is", "are"}
    | {"be", "it", "this", "that", "by", "as", "when", "all", "via", "through"}
)


@functools.lru_cache(maxsize=WORD_CACHE_SIZE)
def _words(text: str) -> frozenset[str]:
    found = {t.strip(".") for t in re.findall(r"[a-z0-9][a-z0-9_.+#/'-]*", text.lower())}
    return frozenset(found - _STOPWORDS)


def content_words(text: str, drop: frozenset[str] = frozenset()) -> frozenset[str]:
    """The lower-cased words of a statement that carry meaning (stopwords left out), without
    `drop`."""
    return _words(text) - drop if drop else _words(text)


def jaccard(a: str, b: str) -> float:
    """Token-set Jaccard similarity of two statements (stopwords ignored), 0..1."""
    left, right = content_words(a), content_words(b)
    if not left and not right:
        return 1.0
    return len(left & right) / len(left | right)


def edit_ratio(a: str, b: str) -> float:
    """Normalised edit similarity (difflib ratio on lower-cased, space-collapsed text), 0..1.

    Only the first `MAX_RATIO_CHARS` characters are compared (difflib is quadratic).
    """
    return _matcher(a, b).ratio()


def edit_ratio_reaches(a: str, b: str, threshold: float) -> bool:
    """Whether `round(edit_ratio(a, b), 4) >= threshold`, deciding from difflib's cheap upper
    bounds (`real_quick_ratio`, `quick_ratio`) first: the full ratio is quadratic and most
    pairs that are compared are far apart."""
    matcher = _matcher(a, b)
    for bound in (matcher.real_quick_ratio, matcher.quick_ratio, matcher.ratio):
        if round(bound(), 4) < threshold:
            return False
    return True


def _matcher(a: str, b: str) -> difflib.SequenceMatcher[str]:
    left = " ".join(a.lower().split())[:MAX_RATIO_CHARS]
    right = " ".join(b.lower().split())[:MAX_RATIO_CHARS]
    return difflib.SequenceMatcher(None, left, right, autojunk=False)


@dataclass(frozen=True, slots=True)
class Similarity:
    """How alike two statements are."""

    jaccard: float
    ratio: float

    @property
    def near_duplicate(self) -> bool:
        return self.jaccard >= NEAR_DUPLICATE_JACCARD or self.ratio >= NEAR_DUPLICATE_RATIO

    @property
    def related(self) -> bool:
        return self.jaccard >= RELATED_JACCARD or self.ratio >= RELATED_RATIO

    @property
    def score(self) -> float:
        return max(self.jaccard, self.ratio)


def similarity(a: str, b: str) -> Similarity:
    """Jaccard and edit ratio of two statements."""
    return Similarity(round(jaccard(a, b), 4), round(edit_ratio(a, b), 4))


__all__ = [
    "MAX_RATIO_CHARS",
    "NEAR_DUPLICATE_JACCARD",
    "NEAR_DUPLICATE_RATIO",
    "RELATED_JACCARD",
    "RELATED_RATIO",
    "WORD_CACHE_SIZE",
    "Similarity",
    "content_words",
    "edit_ratio",
    "edit_ratio_reaches",
    "jaccard",
    "similarity",
]
