"""The knobs of hybrid retrieval (fusion, floors, candidate pool), checked as they are made."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from squirrel_memory.retrieval.queries import MAX_CANDIDATES
from squirrel_memory.scoring import FusionMethod, FusionWeights, ScoreWeights


@dataclass(frozen=True, slots=True)
class RetrievalSettings:
    """Knobs of hybrid retrieval; the defaults are calibrated by `bench/retrieval_quality.py`
    with all-MiniLM-L6-v2 (56 labelled queries: hybrid recall@5 0.98, MRR 0.99).

    `lexical_saturation` maps BM25 s to s / (s + c). `vector_floor` is the cosine an unrelated
    text reaches with the production embedder; cosines are rescaled so it counts as 0.
    `min_similarity` is the fused relevance a search hit needs to count as a match at all.
    """

    fusion: FusionWeights = field(default_factory=lambda: FusionWeights(lexical=0.6, vector=0.4))
    weights: ScoreWeights = field(default_factory=ScoreWeights)
    lexical_saturation: float = 4.0
    vector_floor: float = 0.25
    min_similarity: float = 0.08
    candidate_pool: int = 50
    use_lexical: bool = True
    use_vector: bool = True
    fusion_method: FusionMethod = FusionMethod.EXACT

    def __post_init__(self) -> None:
        if not (math.isfinite(self.lexical_saturation) and self.lexical_saturation > 0):
            raise ValueError("lexical_saturation must be positive")
        if not (math.isfinite(self.vector_floor) and 0 <= self.vector_floor < 1):
            raise ValueError("vector_floor must be in [0, 1)")
        if not (math.isfinite(self.min_similarity) and 0 <= self.min_similarity <= 1):
            raise ValueError("min_similarity must be in [0, 1]")
        if not 1 <= self.candidate_pool <= MAX_CANDIDATES:
            raise ValueError(f"candidate_pool must be in [1, {MAX_CANDIDATES}]")
        if not (self.use_lexical or self.use_vector):
            raise ValueError("at least one of lexical and vector search must be on")
