"""Memory extractors: the offline rules extractor (default) and the Anthropic-backed one.

`squirrel_memory.extractors.anthropic.AnthropicExtractor` is imported from its module so the
offline path never loads the Anthropic SDK.
"""

from squirrel_memory.extractors.base import (
    ExtractionError,
    Extractor,
    PermanentExtractionError,
    RetryableExtractionError,
)
from squirrel_memory.extractors.rules import RulesExtractor

__all__ = [
    "ExtractionError",
    "Extractor",
    "PermanentExtractionError",
    "RetryableExtractionError",
    "RulesExtractor",
]
