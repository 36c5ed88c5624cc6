"""The registry of projects (`<home>/projects.json`) and mapping paths to registered roots."""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path

from squirrel_core.errors import (
    FailedPreconditionError,
    InvalidArgumentError,
    PermissionDeniedError,
)
from squirrel_core.files import write_private_file


def checked_path(text: str) -> str:
    """`text` when it can name a project: not empty, no NUL byte, no control character (a
    newline or a tab in a folder's name would split every line that shows the path)."""
    if not text.strip():
        raise InvalidArgumentError("a project path is required")
    if "\x00" in text:
        raise InvalidArgumentError("a project path may not contain NUL bytes")
    if any(unicodedata.category(c) == "Cc" for c in text):
        raise InvalidArgumentError(
            "a project path may not contain control characters (a newline, a tab …); "
            "rename the folder"
        )
    if not utf8_text(text):  # a folder named in another encoding: bytes Python keeps as surrogates
        raise InvalidArgumentError(
            f"the path {shown_path(text)} is not UTF-8 text, which is all Squirrel stores and "
            "matches; rename the folder"
        )
    return text


def utf8_text(text: str) -> bool:
    """Whether `text` is UTF-8 text (a name in another encoding holds surrogates here)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_path(path: str | Path) -> str:
    """`path` for a one-line message: control characters escaped (`\\n`)."""
    text = os.fspath(path)
    if not utf8_text(text):  # the bytes of another encoding, as `\xff`
        text = os.fsencode(text).decode("utf-8", "backslashreplace")
    return "".join(
        c.encode("unicode_escape").decode() if unicodedata.category(c) == "Cc" else c for c in text
    )


def canonical_root(path: str | Path) -> Path:
    """Absolute and symlink-resolved; rejects what `checked_path` refuses (in the path given,
    and in the folders it resolves to: `.` inside a folder named in another encoding)."""
    text = checked_path(str(path))
    try:
        given = Path(text).expanduser()
    except RuntimeError:  # `~name/…` of a user this machine does not know
        raise InvalidArgumentError(
            f"the path {shown_path(text)} starts with a home folder this machine does not know; "
            "give the folder's full path"
        ) from None
    try:
        resolved = given.resolve()
    except (RuntimeError, OSError):  # a loop of symbolic links (an OSError from Python 3.13)
        raise InvalidArgumentError(
            f"the path {shown_path(text)} is a loop of symbolic links; give the folder's real path"
        ) from None
    checked_path(str(resolved))
    return resolved


def read_projects(path: Path) -> list[str]:
    """Registered project roots, in registration order ([] when the file is absent)."""
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except json.JSONDecodeError as exc:
        raise FailedPreconditionError(  # the home's state, never a value the caller gave
            f"{path} is not valid JSON ({exc.msg}); fix or delete it"
        ) from None
    except RecursionError:  # nested past the parser's depth
        raise FailedPreconditionError(
            f"{path} is not valid JSON (nested too deep); fix or delete it"
        ) from None
    except UnicodeDecodeError:
        raise FailedPreconditionError(f"{path} is not UTF-8 text; fix or delete it") from None
    roots = data.get("projects", []) if isinstance(data, dict) else []
    if not isinstance(roots, list):  # a string would be read as one project per character
        raise FailedPreconditionError(
            f'{path}: "projects" is not a list of paths; fix or delete it'
        )
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
    """The deepest registered root containing `path` (which is resolved first), or None. A path
    in a linked worktree of a registered repository (`git worktree add ../app-feature`) is
    that repository's: it is read as the same path in the main checkout. A worktree or clone
    of another repository is not, wherever it lies."""
    try:
        target = canonical_root(path)
    except (InvalidArgumentError, OSError, RuntimeError):
        return None
    best = _deepest_root(target, roots)
    if best is not None or not roots:
        return best
    from squirrel_core.worktrees import checkout_of  # noqa: PLC0415 - worktrees only

    place = checkout_of(target)
    if place is None or place[0] == place[1]:
        return None
    checkout, main = place
    return _deepest_root(main / target.relative_to(checkout), roots)


def _deepest_root(target: Path, roots: list[str]) -> str | None:
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
        canonical_root(path)  # a path that can name no project says why (a loop, a name's bytes)
        raise PermissionDeniedError(
            f"No project is registered at {shown_path(path)}; "
            "run `sqrl init` in the repository first."
        )
    return owner
