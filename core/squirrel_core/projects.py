"""The registry of projects (`<home>/projects.json`) and mapping paths to registered roots."""

from __future__ import annotations

import json
import os
from pathlib import Path

from squirrel_core.errors import InvalidArgumentError, PermissionDeniedError
from squirrel_core.files import write_private_file


def canonical_root(path: str | Path) -> Path:
    """Absolute and symlink-resolved; rejects empty paths and NUL bytes."""
    text = str(path)
    if not text.strip():
        raise InvalidArgumentError("a project path is required")
    if "\x00" in text:
        raise InvalidArgumentError("a project path may not contain NUL bytes")
    return Path(text).expanduser().resolve()


def read_projects(path: Path) -> list[str]:
    """Registered project roots, in registration order ([] when the file is absent)."""
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text() or "{}")
    except json.JSONDecodeError as exc:
        raise InvalidArgumentError(
            f"{path} is not valid JSON ({exc.msg}); fix or delete it"
        ) from None
    roots = data.get("projects", []) if isinstance(data, dict) else []
    return [str(r) for r in roots if isinstance(r, str)]


def add_project(path: Path, root: Path) -> bool:
    """Adds `root` to the registry; False when it was already there."""
    roots = read_projects(path)
    if str(root) in roots:
        return False
    roots.append(str(root))
    write_private_file(path, (json.dumps({"projects": roots}, indent=2) + "\n").encode())
    return True


def remove_project(path: Path, root: Path) -> bool:
    """Removes `root` from the registry; False when it was not registered."""
    roots = read_projects(path)
    if str(root) not in roots:
        return False
    roots.remove(str(root))
    write_private_file(path, (json.dumps({"projects": roots}, indent=2) + "\n").encode())
    return True


def owning_project(path: str | Path, roots: list[str]) -> str | None:
    """The deepest registered root containing `path` (which is resolved first), or None."""
    try:
        target = canonical_root(path)
    except (InvalidArgumentError, OSError, RuntimeError):
        return None
    best: str | None = None
    for root in roots:
        if (target == Path(root) or Path(root) in target.parents) and (
            best is None or len(root) > len(best)
        ):
            best = root
    return best


def require_project(path: str | Path, roots: list[str]) -> str:
    """Like `owning_project` but a path in no registered project is refused with how to fix it."""
    if not str(path).strip():
        raise InvalidArgumentError(
            "project_root is required (an absolute path inside a registered project)"
        )
    owner = owning_project(path, roots)
    if owner is None:
        shown = os.fspath(path)
        raise PermissionDeniedError(
            f"No project is registered at {shown}; run `sqrl init` in the repository first."
        )
    return owner
