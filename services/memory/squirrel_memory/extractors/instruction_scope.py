"""Where an instruction applies: this project when it names it, else the user's way of working.

A clause is about this project when it says "here" or "this repo", or names a path or a file
("keep `app/models.py` small", "tests go in tests/unit/").
"""

from __future__ import annotations

import re

from squirrel_memory.models import Scope

_PROJECT_MARKERS = re.compile(
    r"\bthis (?:project|repo|repository|codebase)\b|\bhere\b", re.IGNORECASE
)
_FILE_EXTENSIONS = re.compile(
    r"\.(?:py|pyi|ts|tsx|js|jsx|mjs|go|rs|rb|ex|exs|java|kt|cs|php|swift|c|h|cpp|toml|json|"
    r"ya?ml|md|css|scss|html|sql|sh)$"
)


def instruction_scope(clause: str) -> Scope:
    """`Scope.PROJECT` for an instruction about this project, else `Scope.USER`."""
    return Scope.PROJECT if _mentions_project(clause) else Scope.USER


def _mentions_project(text: str) -> bool:
    """Whether a clause is about this project: "here", "this repo", or a path or file name."""
    if _PROJECT_MARKERS.search(text):
        return True
    for raw in text.split():
        token = raw.strip("`'\"()[],;:!?").rstrip(".")
        if _FILE_EXTENSIONS.search(token) or (
            "/" in token and (raw.rstrip(".,;:!?").endswith("/") or token.count("/") >= 2)
        ):
            return True
    return False
