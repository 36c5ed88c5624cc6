"""A README's (or manifest's) account of the project that the session's own evidence
contradicts: "A small Flask service" where the code the session read imports FastAPI and
nothing shows Flask. READMEs fall behind the code; a statement quoted from one is the project's
own word, so it is kept, less the sentences whose stack claim the evidence contradicts.

A sentence goes when it names a framework, or a main store (`EXCLUSIVE_DATABASES`), that no
evidence of the session shows (code, configuration, a manifest, a test run: any folder, any
strength), while the evidence of that kind shows another one, and it names no stack item the
evidence confirms ("A Django app with a React front end" stays where Django is seen). Where
the evidence shows nothing of that kind, nothing decides and the sentence stays. When no
sentence of the description is left, the statement is not made.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.manifests import known_stack
from squirrel_memory.extractors.stack_evidence import EXCLUSIVE_DATABASES

#: The kinds of stack claim a description can get wrong that the evidence can decide.
_KINDS = ("framework", "database")
_EXCLUSIVE = frozenset(name.lower() for name in EXCLUSIVE_DATABASES)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")


def _claims(sentence: str) -> list[tuple[str, str]]:
    """(kind, name) of each framework or main store a sentence names."""
    lowered = sentence.lower()
    return [
        (kind, name)
        for name, kind in known_stack().items()
        if kind in _KINDS
        and (kind != "database" or name in _EXCLUSIVE)
        and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", lowered)
    ]


def _contradicted(sentence: str, seen: dict[str, set[str]]) -> bool:
    claims = _claims(sentence)
    confirmed = any(name in seen.get(kind, set()) for kind, name in claims)
    return not confirmed and any(seen.get(kind) and name not in seen[kind] for kind, name in claims)


def without_contradicted(statement: str, seen: dict[str, set[str]]) -> str | None:
    """`statement` ("…, per its README.md: <description>") less the description's sentences
    the evidence contradicts; None when none is left. `seen` maps each kind to the lower-cased
    names the session's evidence shows."""
    head, sep, description = statement.partition(": ")
    if not sep:
        return statement
    sentences = _SENTENCE_END.split(description)
    kept = [s for s in sentences if not _contradicted(s, seen)]
    if len(kept) == len(sentences):
        return statement
    return f"{head}: {' '.join(kept)}" if kept else None


def known_stack_named(statement: str) -> bool:
    """Whether a statement names any framework or main store at all (the evidence is weighed
    only then)."""
    return bool(_claims(statement))
