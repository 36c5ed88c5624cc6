"""Checking the paths a tool call names: its project root and the file paths scoped inside it."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from squirrel_core.errors import InvalidArgumentError, PermissionDeniedError
from squirrel_core.projects import require_project

MAX_PATH_CHARS = 4096
MAX_SCOPE_PATHS = 100


def normalise_project_root(path: str, registered_roots: Sequence[str]) -> str:
    """The project_id for `path`: the deepest registered root that holds it, resolved.

    `path` must be absolute (a host knows its working directory; a relative path would be
    resolved against the server's, which is never what was meant). Symlinks are resolved
    before matching. Raises `InvalidArgumentError` for malformed input and
    `PermissionDeniedError` (saying how to register) for a path in no registered project; a
    folder whose name ends in a space is a project like any other when it is registered.
    """
    _check_path_text(path, "project_root", spaces_allowed=True)
    if not Path(path).is_absolute():
        raise InvalidArgumentError(
            f"project_root must be an absolute path (got {path!r});"
            " send the repository's full path."
        )
    roots = [str(Path(root).resolve()) for root in registered_roots]
    try:
        return require_project(path, roots)
    except PermissionDeniedError as exc:
        if path == path.rstrip():
            raise
        raise PermissionDeniedError(
            f"{exc} (the path {path!r} ends in whitespace; send it without, unless the "
            "folder's name has it)"
        ) from None


def normalise_scope_paths(
    paths: Sequence[str] | None, project_id: str, *, field: str = "scope_paths"
) -> tuple[str, ...]:
    """Project-relative POSIX paths (globs allowed) for `paths`, order kept, duplicates dropped.

    Relative paths are taken relative to the project root; absolute paths are accepted only
    inside it and made relative. Empty entries, NUL bytes, and paths whose `..` climbs out of
    the project raise `InvalidArgumentError`.
    """
    if not paths:
        return ()
    if len(paths) > MAX_SCOPE_PATHS:
        raise InvalidArgumentError(
            f"{field} may list at most {MAX_SCOPE_PATHS} paths (got {len(paths)}); pass the"
            " directories that matter instead of every file."
        )
    root = PurePosixPath(project_id)
    seen: dict[str, None] = {}
    for raw in paths:
        _check_path_text(raw, field)
        text = raw.replace("\\", "/")
        candidate = PurePosixPath(text)
        if candidate.is_absolute():
            normal = PurePosixPath(posixpath.normpath(text))
            if normal != root and root not in normal.parents:
                raise InvalidArgumentError(
                    f"{field} entry {raw!r} is outside the project {project_id}; send paths"
                    " relative to the project root."
                )
            relative = normal.relative_to(root).as_posix()
        else:
            relative = posixpath.normpath(text)
            if relative == ".." or relative.startswith("../"):
                raise InvalidArgumentError(
                    f"{field} entry {raw!r} climbs out of the project with '..'; send paths"
                    " inside the project, relative to its root."
                )
        seen.setdefault("." if relative in ("", ".") else relative, None)
    return tuple(seen)


def _check_path_text(path: object, field: str, *, spaces_allowed: bool = False) -> None:
    """Refuses what cannot be a path; whitespace around it too, unless `spaces_allowed` (a
    folder's name may end in a space: the registry then says whether it is a project)."""
    if not isinstance(path, str):
        raise InvalidArgumentError(f"{field} must be a string path")
    if not path.strip():
        raise InvalidArgumentError(f"{field} must not be empty")
    if "\x00" in path:
        raise InvalidArgumentError(f"{field} must not contain NUL bytes")
    if len(path) > MAX_PATH_CHARS:
        raise InvalidArgumentError(f"{field} is longer than {MAX_PATH_CHARS} characters")
    if path != path.strip() and not spaces_allowed:
        raise InvalidArgumentError(f"{field} {path!r} has leading or trailing whitespace")
