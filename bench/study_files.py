"""What the hand-written studies share: their error, the concepts a memory must state, transcripts.

The habits, lessons and learned studies (`bench/data/*_study/`) each list sessions with what a
senior engineer would note about them; an entry's `match` is a list of concepts, each a pattern or
a list of alternative patterns, and a memory states the entry when it states every concept. A
session's `transcripts` are files or folders under the study's own folder (a folder gives each
`.jsonl` and Gemini CLI `session-*.json` in it), or `shared:<path>` for the fixtures beside the
repository.
"""

from __future__ import annotations

import re
from pathlib import Path

from bench import fixture_pipeline

SHARED = fixture_pipeline.ROOT.parent / "shared" / "fixtures"
SHARED_PREFIX = "shared:"

Concepts = tuple[tuple[re.Pattern[str], ...], ...]


class StudyError(ValueError):
    """A study's file is malformed (the message says where)."""


def concepts(raw: object, where: str) -> Concepts:
    """An entry's `match`, compiled; raises `StudyError` when it is empty or not patterns."""
    if not isinstance(raw, list) or not raw:
        raise StudyError(f"{where}: `match` must be a non-empty list of concepts")
    found = []
    for concept in raw:
        options = concept if isinstance(concept, list) else [concept]
        if not options or not all(isinstance(o, str) and o for o in options):
            raise StudyError(f"{where}: a concept is a pattern or a non-empty list of patterns")
        found.append(tuple(re.compile(o, re.IGNORECASE) for o in options))
    return tuple(found)


def states_all(wanted: Concepts, text: str) -> bool:
    """Whether `text` states every concept (any one pattern of each)."""
    return all(any(p.search(text) for p in concept) for concept in wanted)


def transcript_paths(raw: object, where: str, study: Path) -> tuple[Path, ...]:
    """A session's `transcripts`, as files; raises `StudyError` when the list is bad."""
    if not isinstance(raw, list) or not raw:
        raise StudyError(f"{where}: `transcripts` must be a non-empty list")
    found: list[Path] = []
    for entry in raw:
        if not isinstance(entry, str):
            raise StudyError(f"{where}: a transcript is a path string")
        if entry.startswith(SHARED_PREFIX):
            found.append(SHARED / entry.removeprefix(SHARED_PREFIX))
            continue
        folder = study / entry
        if folder.is_dir():
            found.extend(sorted([*folder.glob("*.jsonl"), *folder.glob("session-*.json")]))
        else:
            found.append(folder)
    return tuple(found)
