"""The repository itself, read deterministically: manifests, lock files, instruction files,
task runners, CI, config and language shares become project facts and recipes whose
`source_refs` are `path:line`."""

from squirrel_memory.repository.languages import (
    LanguageShare,
    is_excluded,
    language_shares,
    primary_ecosystems,
    repository_languages,
)
from squirrel_memory.repository.reader import RepositoryReader, repository_candidates
from squirrel_memory.repository.scan import RepositoryReading, read_repository

__all__ = [
    "LanguageShare",
    "RepositoryReader",
    "RepositoryReading",
    "is_excluded",
    "language_shares",
    "primary_ecosystems",
    "read_repository",
    "repository_candidates",
    "repository_languages",
]
