"""The words that name what a command is for, as a README comment, a sentence or a heading of
the project's docs says it: one table for every rule that reads them (`readme_commands`,
`doc_roles`)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Role:
    """One role: its command-table purpose, how a sentence says it, the words that name it."""

    purpose: str
    said: str
    words: re.Pattern[str]


#: Roles in the order a text is read for them; the first five are the everyday checks.
ROLES: tuple[Role, ...] = (
    Role("test", "test", re.compile(r"\b(?:tests?|testing)\b", re.IGNORECASE)),
    Role("lint", "lint", re.compile(r"\b(?:lints?|linting|linters?|static analysis)\b", re.I)),
    Role(
        "format",
        "format",
        re.compile(r"\b(?:format|formatting|formatter|reformat)\b", re.IGNORECASE),
    ),
    Role("typecheck", "type-check", re.compile(r"\btype[- ]?check\w*", re.IGNORECASE)),
    Role(
        "build",
        "build",
        re.compile(r"\b(?:build|builds|building|rebuild\w*|compil\w+)\b", re.IGNORECASE),
    ),
    Role(
        "build",
        "generate",
        re.compile(r"\b(?:regenerat\w+|generate|generating|codegen)\b", re.IGNORECASE),
    ),
    Role("release", "release", re.compile(r"\b(?:release|releasing|publish|publishing)\b", re.I)),
    Role("deploy", "deploy", re.compile(r"\b(?:deploy|deploying|deployment)\b", re.IGNORECASE)),
)
#: The everyday checks: what a change is tested, linted, formatted, type-checked and built by.
CHECKS: tuple[Role, ...] = ROLES[:5]
