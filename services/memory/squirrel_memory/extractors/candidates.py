"""How a rule's finding becomes a memory candidate: tags and event ids once each, in order, and
the importance kept within 0..1."""

from __future__ import annotations

from squirrel_memory.models import MemoryCandidate, MemoryType, Scope


def candidate(
    kind: MemoryType,
    key: str,
    content: str,
    *,
    tags: tuple[str, ...],
    importance: float,
    event_ids: tuple[str, ...] | list[str],
    scope: Scope = Scope.PROJECT,
    file_paths: tuple[str, ...] = (),
) -> MemoryCandidate:
    """A candidate of `kind` (no episode id yet: the extractor sets it)."""
    return MemoryCandidate(
        type=kind,
        key=key,
        content=content,
        tags=tuple(dict.fromkeys(t for t in tags if t)),
        importance=round(max(0.0, min(1.0, importance)), 3),
        file_paths=file_paths,
        source_event_ids=tuple(dict.fromkeys(event_ids)),
        scope=scope,
    )
