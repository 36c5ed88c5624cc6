"""A description's claims about the stack, checked against what the repository declares.

A README may be out of date ("a Flask app backed by PostgreSQL" over code that runs Starlette)
or name a command the project no longer has. A sentence of the description that names a
framework, database, queue, cache or search engine of the project's own ecosystem where the
repository declares another one of that role and not the one named (the code contradicts it),
or a developer command in backticks, is left out: commands and the stack are said from the
code. A name the repository says nothing against stays ("an embedded SQLite database" over a
manifest that declares no database). When the first sentence (what the project is) goes, no
description is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from squirrel_core.commands import classify_command
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.stack import CLAIMED_ROLES, claimed_names, dependency_role

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_CODE_SPAN = re.compile(r"`([^`]+)`")


def _declared(out: Readings) -> dict[str, set[str]]:
    """Each role → the stack names of that role the repository's manifests, compose files and
    configuration name."""
    found: dict[str, set[str]] = {}
    for service in out.services:
        found.setdefault(service.kind, set()).add(service.name)
    for dep in out.dependencies:
        role = dependency_role(dep.ecosystem, dep.name)
        if role is not None and role.role in CLAIMED_ROLES:
            found.setdefault(role.role, set()).add(role.name)
    return found


def _names(sentence: str, names: Iterable[str]) -> set[str]:
    return {
        name
        for name in names
        if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", sentence) is not None
    }


#: A sentence that tells the reader to run something in backticks ("Run tests with `x`").
_INSTRUCTION = re.compile(r"\b(?:run|type|execute|invoke)\b[^`]*`", re.IGNORECASE)


def _names_a_command(sentence: str) -> bool:
    """Whether a sentence names a developer command: a known tool's, or any in backticks it
    tells the reader to run."""
    spans = _CODE_SPAN.findall(sentence)
    return bool(spans) and (
        _INSTRUCTION.search(sentence) is not None
        or any(classify_command(span) is not None for span in spans)
    )


def backed_description(
    description: str, out: Readings, ecosystems: Iterable[str], own_name: str = ""
) -> str:
    """`description` without the sentences whose stack claims the repository contradicts
    (see the module's docstring); "" when its first sentence is one of them."""
    declared = _declared(out)
    claimable: set[str] = set()
    for ecosystem in ecosystems:
        for name, role in claimed_names(ecosystem).items():
            others = declared.get(role, set())
            if others and name not in others and name.lower() not in own_name.lower():
                claimable.add(name)
    kept: list[str] = []
    for index, sentence in enumerate(_SENTENCE_END.split(description)):
        unbacked = _names(sentence, claimable) or _names_a_command(sentence)
        if unbacked and index == 0:
            return ""
        if not unbacked:
            kept.append(sentence)
    return " ".join(kept)
