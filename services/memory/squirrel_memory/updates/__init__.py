"""Mem0-style update decisions: by the rules (`rules`, the default, weighing how alike two
statements are: `similarity`), or by the model (`llm`).

`squirrel_memory.updates.llm.LlmUpdateDecider` is imported from its module, so the offline path
never loads a model client.
"""

from squirrel_memory.updates.rules import (
    MAX_MERGED_CHARS,
    contradicts,
    decide_update,
    merge_contents,
    replaces,
    reverses,
    says_less,
)
from squirrel_memory.updates.similarity import (
    NEAR_DUPLICATE_JACCARD,
    NEAR_DUPLICATE_RATIO,
    RELATED_JACCARD,
    RELATED_RATIO,
    Similarity,
    content_words,
    edit_ratio,
    edit_ratio_reaches,
    jaccard,
    similarity,
)

__all__ = [
    "MAX_MERGED_CHARS",
    "NEAR_DUPLICATE_JACCARD",
    "NEAR_DUPLICATE_RATIO",
    "RELATED_JACCARD",
    "RELATED_RATIO",
    "Similarity",
    "content_words",
    "contradicts",
    "decide_update",
    "edit_ratio",
    "edit_ratio_reaches",
    "jaccard",
    "merge_contents",
    "replaces",
    "reverses",
    "says_less",
    "similarity",
]
