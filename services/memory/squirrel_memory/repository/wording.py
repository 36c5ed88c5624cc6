"""Shared wording for repository memories: keys, versions, articles, candidates."""

from __future__ import annotations

import re
from collections.abc import Iterable

from squirrel_core.redaction import redact
from squirrel_memory.models import MemoryCandidate, MemoryType

#: Every memory read from the repository has a key starting with this.
KEY_PREFIX = "repo:"
MAX_REFS = 12

_VERSION = re.compile(r"\d+(?:\.\d+)*")


def short_version(spec: str) -> str:
    """`1.7.14` from `~> 1.7.14`, `^18.2.0`, `>=3.11`; "" when there is no number."""
    match = _VERSION.search(spec or "")
    return match.group(0) if match else ""


def article(word: str) -> str:
    """`an` before Elixir/Angular/Actix and a letter said with a vowel (R, F#), `a` otherwise."""
    head = word[:1].upper()
    if head and not word[1:2].isalpha():  # a letter read as its name: "an R", "a C++"
        return "an" if head in "AEFHILMNORSX" else "a"
    return "an" if head in "AEIOU" else "a"


def join_words(items: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def about_text(name: str, description: str, source: str) -> str:
    """The statement "What this project (<name>) is and does, per its <file>: <description>"
    (a README paragraph or a manifest's one-line description)."""
    return f"What this project ({name}) is and does, per its {source}: {description}"


def slug(text: str, words: int = 8) -> str:
    """A short key part from text: lower-case words joined by `_`."""
    found = re.findall(r"[a-z0-9]+", text.lower())
    return "_".join(found[:words]) or "note"


def candidate(
    kind: MemoryType,
    key: str,
    content: str,
    *,
    refs: Iterable[str],
    importance: float,
    tags: Iterable[str] = (),
    files: Iterable[str] = (),
) -> MemoryCandidate:
    """A repository memory: redacted text, `repo:` key, its `path:line` references."""
    text, _ = redact(content)
    unique_refs = tuple(dict.fromkeys(r for r in refs if r))[:MAX_REFS]
    return MemoryCandidate(
        type=kind,
        key=KEY_PREFIX + key,
        content=text,
        tags=tuple(dict.fromkeys(t.lower() for t in ("repository", *tags) if t)),
        importance=importance,
        file_paths=tuple(dict.fromkeys(f for f in files if f)),
        source_refs=unique_refs,
        rule=f"repository:{key.split(':', 1)[0]}",
    )


def ref_path(ref: str) -> str:
    """The file of a `path:line` reference."""
    head, sep, tail = ref.rpartition(":")
    return head if sep and tail.isdigit() else ref
