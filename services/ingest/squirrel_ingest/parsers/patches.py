"""The files an `apply_patch` body names in its `*** Update/Add/Delete File:` headers."""

from __future__ import annotations

import re

_PATCH_FILE = re.compile(
    r"^\*\*\* (?:Update|Add|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$", re.M
)


def patch_paths(patch: str) -> tuple[str, ...]:
    """File paths named in an `apply_patch` body's `*** Update/Add/Delete File:` headers."""
    found: list[str] = []
    for match in _PATCH_FILE.finditer(patch):
        path = match.group(1) or match.group(2)
        if path and path not in found:
            found.append(path)
    return tuple(found)
