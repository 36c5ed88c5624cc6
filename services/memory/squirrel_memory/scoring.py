"""Hybrid relevance (BM25 + cosine fusion) and the spec's memory score; pure functions.

score = 0.6*similarity + 0.2*importance + 0.1*recency + 0.1*path_match, every part in [0, 1],
where `similarity` is the fused lexical + vector relevance.
"""

from __future__ import annotations

import fnmatch
import functools
import math
import posixpath
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

# (memory_id, score), higher = better, in any order. Lexical lists are BM25 relevance >= 0
# (`Store.search_fts`: higher is better); vector lists are cosines.
Hits = Sequence[tuple[str, float]]

RRF_K = 60
# Memories are durable facts: recency only breaks ties. After 60 days a memory keeps half its
# recency credit, after a week 92 %, after a year 1.5 %.
RECENCY_HALF_LIFE_DAYS = 60.0

_LN2 = math.log(2)

PATH_EXACT = 1.0
PATH_IN_SCOPE = 0.75
PATH_SAME_DIR = 0.5

GLOB_CHARS = frozenset("*?[")
PATH_CACHE_SIZE = 20_000
"""Distinct file paths whose normalised form stays cached (ranking scores them per query)."""


class FusionMethod(StrEnum):
    """How the lexical and the vector lists become one relevance.

    `weighted`: weighted mean of saturated BM25 and rescaled cosine; a memory outside the
    vector candidate pool counts cosine 0. `exact`: the same mean, but every candidate gets
    its own cosine (read back from the index), so a lexically strong memory is not pushed
    down by memories that are merely close in meaning. `rrf`: reciprocal-rank fusion (k=60),
    ranks only; its values are not comparable to relevance thresholds.
    """

    WEIGHTED = "weighted"
    EXACT = "exact"
    RRF = "rrf"


@dataclass(frozen=True, slots=True)
class FusionWeights:
    """How much the lexical (BM25) and the vector (cosine) lists count in the fused relevance."""

    lexical: float = 0.5
    vector: float = 0.5

    def __post_init__(self) -> None:
        if not (_finite_non_negative(self.lexical) and _finite_non_negative(self.vector)):
            raise ValueError("fusion weights must be finite and non-negative")
        if self.lexical + self.vector <= 0:
            raise ValueError("at least one fusion weight must be positive")

    @property
    def total(self) -> float:
        """Sum of the weights."""
        return self.lexical + self.vector


@dataclass(frozen=True, slots=True)
class ScoreWeights:
    """The spec's weights of the final memory score."""

    similarity: float = 0.6
    importance: float = 0.2
    recency: float = 0.1
    path_match: float = 0.1

    def __post_init__(self) -> None:
        parts = (self.similarity, self.importance, self.recency, self.path_match)
        if not all(_finite_non_negative(p) for p in parts):
            raise ValueError("score weights must be finite and non-negative")


@dataclass(frozen=True, slots=True)
class MemoryScore:
    """The final score and its parts (each in [0, 1]), kept for explaining a result."""

    total: float
    similarity: float
    importance: float
    recency: float
    path_match: float


def rank_fusion(
    lexical: Hits, vector: Hits, weights: FusionWeights | None = None, *, k: int = RRF_K
) -> dict[str, float]:
    """Weighted reciprocal-rank fusion, scaled to [0, 1] (1 = first in every weighted list).

    Ranks are 1-based by descending score; equal scores take the better rank in id order.
    Only ranks count, so the top item scores high even when nothing is truly relevant: decide
    abstention on `score_fusion` or on the raw cosine, not on this.
    """
    if k < 0:
        raise ValueError("k must be non-negative")
    w = weights or FusionWeights()
    fused: dict[str, float] = {}
    for hits, weight in ((lexical, w.lexical), (vector, w.vector)):
        if weight == 0:
            continue
        for rank, memory_id in enumerate(_ranked_ids(hits), start=1):
            fused[memory_id] = fused.get(memory_id, 0.0) + weight / (k + rank)
    best = w.total / (k + 1)
    return {memory_id: min(1.0, value / best) for memory_id, value in fused.items()}


def score_fusion(
    lexical: Hits,
    vector: Hits,
    weights: FusionWeights | None = None,
    *,
    lexical_saturation: float | None = None,
) -> dict[str, float]:
    """Weighted mean of normalised scores, in [0, 1]; an id missing from a list scores 0 there.

    Cosines count as they are, clipped to [0, 1], so an unrelated query stays low. BM25
    relevance is divided by the list's best (or, with `lexical_saturation=c`, mapped through
    s / (s + c), which does not depend on the other hits). A list whose scores are all zero,
    as FTS5 gives on tiny corpora, gives each of its items full credit: they all matched.
    """
    return score_fusion_parts(lexical, vector, weights, lexical_saturation=lexical_saturation)[0]


def score_fusion_parts(
    lexical: Hits,
    vector: Hits,
    weights: FusionWeights | None = None,
    *,
    lexical_saturation: float | None = None,
) -> tuple[dict[str, float], dict[str, float]]:
    """`score_fusion`, and the lexical list's part alone: what `score_fusion(lexical, [],
    FusionWeights(1.0, 0.0))` gives, from the same pass over the lexical hits."""
    w = weights or FusionWeights()
    lexical_norm = _normalised_lexical(lexical, lexical_saturation)
    vector_norm = {m: _clip01(score) for m, score in _best_per_id(vector).items()}
    fused: dict[str, float] = {}
    wl, wv, total = w.lexical, w.vector, w.total
    lexical_get, vector_get, clip = lexical_norm.get, vector_norm.get, _clip01
    for memory_id in lexical_norm.keys() | vector_norm.keys():
        value = wl * lexical_get(memory_id, 0.0)
        value += wv * vector_get(memory_id, 0.0)
        value /= total
        # `_clip01`'s fast path inline (a sum of floats is a float): the same value.
        fused[memory_id] = value + 0.0 if 0.0 <= value <= 1.0 else clip(value)
    return fused, {m: _clip01(value) for m, value in lexical_norm.items()}


def recency_score(
    updated_at: datetime, now: datetime, *, half_life_days: float = RECENCY_HALF_LIFE_DAYS
) -> float:
    """Exponential decay by age: 1.0 now (or in the future), 0.5 after one half-life."""
    if not half_life_days > 0:
        raise ValueError("half_life_days must be positive")
    age_days = (_aware(now) - _aware(updated_at)).total_seconds() / 86_400
    if age_days <= 0:
        return 1.0
    return math.exp(-_LN2 * age_days / half_life_days)


def recency_days(updated_at: datetime, now: datetime) -> int:
    """Whole days since `updated_at` (0 for the future), as search results report it."""
    return max(0, (_aware(now) - _aware(updated_at)).days)


class PathMatcher:
    """`path_match_score` against fixed active and scope paths, cleaned once for many memories."""

    def __init__(
        self, active_paths: Iterable[str] = (), scope_paths: Iterable[str] = (), *, root: str | None
    ) -> None:
        self._root = root
        self._actives = _clean_paths(active_paths, root)
        self._scopes = _clean_paths(scope_paths, root)
        self._active_dirs = [posixpath.dirname(a) for a in self._actives]
        # Many memories name the same files: each distinct list is scored once per matcher.
        self._scores: dict[tuple[str, ...], float] = {}

    @property
    def empty(self) -> bool:
        return not (self._actives or self._scopes)

    def score(self, memory_paths: Iterable[str]) -> float:
        if self.empty:
            return 0.0
        paths = tuple(memory_paths)
        found = self._scores.get(paths)
        if found is None:
            found = self._scores[paths] = self._best(_clean_paths(paths, self._root))
        return found

    def matched(self, memory_paths: Sequence[str]) -> tuple[str, ...]:
        """The memory's own paths (as given) that touch the active or scope paths at all."""
        if self.empty:
            return ()
        return tuple(p for p in memory_paths if self._best(_clean_paths([p], self._root)) > 0)

    def _best(self, memories: list[str]) -> float:
        best = 0.0
        for memory in memories:
            memory_dir = posixpath.dirname(memory)
            for active, active_dir in zip(self._actives, self._active_dirs, strict=True):
                if memory == active:
                    return PATH_EXACT
                if active.startswith(memory + "/"):
                    best = max(best, PATH_IN_SCOPE)
                elif memory_dir == active_dir != "":
                    best = max(best, PATH_SAME_DIR)
            for scope in self._scopes:
                if GLOB_CHARS & set(scope):
                    if fnmatch.fnmatchcase(memory, scope):
                        best = max(best, PATH_IN_SCOPE)
                elif memory == scope:
                    return PATH_EXACT
                elif scope == "." or memory.startswith(scope + "/"):
                    best = max(best, PATH_IN_SCOPE)
        return best


def path_match_score(
    memory_paths: Iterable[str],
    active_paths: Iterable[str] = (),
    scope_paths: Iterable[str] = (),
    *,
    root: str | None = None,
) -> float:
    """How closely a memory's files touch the task's files, in [0, 1].

    1.0  a memory file is an active file, or a scope path names it exactly;
    0.75 a memory file lies under a scope directory or matches a scope glob (`*` crosses `/`),
         or a memory path is a directory holding an active file;
    0.5  a memory file shares its directory (not the repository root) with an active file;
    0.0  otherwise. Absolute paths under `root` are compared relative to it.
    """
    return PathMatcher(active_paths, scope_paths, root=root).score(memory_paths)


def memory_score(
    similarity: float,
    importance: float,
    recency: float,
    path_match: float,
    weights: ScoreWeights | None = None,
) -> MemoryScore:
    """The spec's weighted sum; every part is clipped to [0, 1] (NaN counts as 0)."""
    return MemoryScore(*score_parts(similarity, importance, recency, path_match, weights))


def score_parts(
    similarity: float,
    importance: float,
    recency: float,
    path_match: float,
    weights: ScoreWeights | None = None,
) -> tuple[float, float, float, float, float]:
    """`memory_score`'s total and clipped parts as a plain tuple (ranking scores every
    candidate and keeps a `MemoryScore` only for those it returns)."""
    w = weights or ScoreWeights()
    similarity, importance = _clip01(similarity), _clip01(importance)
    recency, path_match = _clip01(recency), _clip01(path_match)
    total = (
        w.similarity * similarity
        + w.importance * importance
        + w.recency * recency
        + w.path_match * path_match
    )
    return total, similarity, importance, recency, path_match


PartScorer = Callable[[float, float, datetime, float], tuple[float, float, float, float, float]]
"""`score_parts(similarity, importance, recency_score(updated_at, now), path_match, weights)`
of one candidate, given its similarity, importance, `updated_at` and path match."""


def part_scorer(weights: ScoreWeights | None, now: datetime) -> PartScorer:
    """`score_parts` with `recency_score` at `now` (the default half-life), for the many
    candidates of one query: the same floats by the same operations, with the weights and the
    moment looked up once instead of once per candidate."""
    w = weights or ScoreWeights()
    w_similarity, w_importance, w_recency, w_path = (
        w.similarity,
        w.importance,
        w.recency,
        w.path_match,
    )
    moment = _aware(now)
    half_life = RECENCY_HALF_LIFE_DAYS
    exp, clip = math.exp, _clip01

    def parts(
        similarity: float, importance: float, updated_at: datetime, path_match: float
    ) -> tuple[float, float, float, float, float]:
        if updated_at.tzinfo is None:
            updated_at = updated_at.replace(tzinfo=UTC)
        age_days = (moment - updated_at).total_seconds() / 86_400
        recency = 1.0 if age_days <= 0 else exp(-_LN2 * age_days / half_life)
        # `_clip01`'s fast path inline: a plain float in [0, 1] (+ 0.0 turns -0.0 into 0.0).
        s = (
            similarity + 0.0
            if type(similarity) is float and 0.0 <= similarity <= 1.0
            else clip(similarity)
        )
        i = (
            importance + 0.0
            if type(importance) is float and 0.0 <= importance <= 1.0
            else clip(importance)
        )
        r = recency + 0.0 if 0.0 <= recency <= 1.0 else clip(recency)
        p = (
            path_match + 0.0
            if type(path_match) is float and 0.0 <= path_match <= 1.0
            else clip(path_match)
        )
        total = w_similarity * s + w_importance * i + w_recency * r + w_path * p
        return total, s, i, r, p

    return parts


def _ranked_ids(hits: Hits) -> list[str]:
    best = _best_per_id(hits)
    return sorted(best, key=lambda memory_id: (-best[memory_id], memory_id))


def _best_per_id(hits: Hits) -> dict[str, float]:
    best: dict[str, float] = {}
    seen, isfinite = best.get, math.isfinite
    for memory_id, score in hits:
        value = score if type(score) is float else float(score)  # `_finite_or_zero`, inline
        if not isfinite(value):
            value = 0.0
        known = seen(memory_id)
        if known is None or value > known:
            best[memory_id] = value
    return best


def _normalised_lexical(hits: Hits, saturation: float | None) -> Mapping[str, float]:
    best = {m: max(0.0, s) for m, s in _best_per_id(hits).items()}
    if not best:
        return {}
    if saturation is not None:
        if not saturation > 0:
            raise ValueError("lexical_saturation must be positive")
        return {m: s / (s + saturation) for m, s in best.items()}
    top = max(best.values())
    if top <= 0:
        return dict.fromkeys(best, 1.0)
    return {m: s / top for m, s in best.items()}


def _clean_paths(paths: Iterable[str], root: str | None) -> list[str]:
    prefix = None
    if root:
        prefix = _root_prefix(root)
    cleaned: list[str] = []
    for raw in paths:
        if not isinstance(raw, str):
            continue
        path = _clean_path(raw, prefix)
        if path is not None:
            cleaned.append(path)
    return cleaned


@functools.lru_cache(maxsize=64)
def _root_prefix(root: str) -> str:
    return posixpath.normpath(root.replace("\\", "/")).rstrip("/") + "/"


@functools.lru_cache(maxsize=PATH_CACHE_SIZE)
def _clean_path(raw: str, prefix: str | None) -> str | None:
    """One path normalised, relative to the root `prefix` if under it; None if empty or bad."""
    path = raw.strip().replace("\\", "/")
    if not path or "\x00" in path:
        return None
    path = posixpath.normpath(path)
    if prefix and (path + "/").startswith(prefix):
        path = posixpath.normpath(path[len(prefix) :] or ".")
    return path


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _finite_or_zero(value: float) -> float:
    number = value if type(value) is float else float(value)
    return number if math.isfinite(number) else 0.0


def _finite_non_negative(value: float) -> bool:
    return math.isfinite(value) and value >= 0


def clip01(value: float) -> float:
    """`value` in [0, 1]: NaN and infinities count as 0, the rest is clipped (-0.0 as 0.0)."""
    return _clip01(value)


def _clip01(value: float) -> float:
    # Ranking clips a few hundred parts per query: a plain float in [0, 1] skips the calls
    # below and gives the same value (`+ 0.0` turns -0.0 into 0.0, as `max` does).
    if type(value) is float and 0.0 <= value <= 1.0:
        return value + 0.0
    number = _finite_or_zero(value)
    return min(1.0, max(0.0, number))
