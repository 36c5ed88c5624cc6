"""Memory extractors: the offline rules extractor (default) and the Anthropic-backed one.

Each extractor is imported from its own module (`squirrel_memory.extractors.rules.RulesExtractor`,
`squirrel_memory.extractors.anthropic.AnthropicExtractor`): the offline path never loads the
Anthropic SDK, and a module outside the package that uses one of the rules' helpers (the loaded
files' sources, the task context) does not load every rule, and through them itself, on import.
"""

from squirrel_memory.extractors.base import (
    ExtractionError,
    Extractor,
    PermanentExtractionError,
    RetryableExtractionError,
)

__all__ = [
    "ExtractionError",
    "Extractor",
    "PermanentExtractionError",
    "RetryableExtractionError",
]
