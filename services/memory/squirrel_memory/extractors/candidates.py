"""How a rule's finding becomes a memory candidate: tags and event ids once each, in order, and
the importance kept within 0..1."""

from __future__ import annotations

import sys

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
    rule: str = "",
) -> MemoryCandidate:
    """A candidate of `kind` (no episode id yet: the extractor sets it); `rule` names the rule
    that found it, by default the module that asks (one rule per module)."""
    return MemoryCandidate(
        type=kind,
        key=key,
        content=content,
        tags=tuple(dict.fromkeys(t for t in tags if t)),
        importance=round(max(0.0, min(1.0, importance)), 3),
        file_paths=file_paths,
        source_event_ids=tuple(dict.fromkeys(event_ids)),
        scope=scope,
        rule=rule or rule_of(sys._getframe(1).f_globals.get("__name__", "")),
    )


def rule_of(module: str, family: str = "") -> str:
    """A rule's name: its module's last part (`squirrel_memory.extractors.placements` ->
    `placements`), with the family of what it found when one module holds several rules
    (`facts:database`)."""
    name = module.rsplit(".", 1)[-1]
    return f"{name}:{family}" if family else name
