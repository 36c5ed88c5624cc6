"""Linked git worktrees of a repository, read from git's own records, and remembered once seen.

A repository's linked worktrees are listed by `git worktree list --porcelain`, which reads the
admin folders under `<common dir>/worktrees/<name>/` (`gitdir` names the worktree's `.git` file,
`HEAD` its branch). Both are read here: the admin folders directly (cheap, no subprocess) and the
porcelain listing when git is installed. A worktree removed with `git worktree remove` leaves no
record, so every worktree path seen is remembered in `<home>/worktrees.json`.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Final

import structlog

from squirrel_core.files import write_private_file

log = structlog.get_logger()

_GIT_TIMEOUT_S: Final = 5.0
_MAX_REMEMBERED: Final = 10_000
_MAX_ADMIN_FILE: Final = 64 * 1024
_HEAD_PREFIX: Final = "ref: refs/heads/"
CLAUDE_WORKTREES: Final = (".claude", "worktrees")
"""Where Claude Code puts the worktrees it creates: `<repo>/.claude/worktrees/<name>`."""


@dataclass(frozen=True, slots=True)
class Worktree:
    """A linked worktree: its checkout root and the branch checked out there (None if detached)."""

    path: str
    branch: str | None = None


def _read_small(path: Path) -> str | None:
    try:
        with path.open("rb") as fh:
            data = fh.read(_MAX_ADMIN_FILE)
    except OSError:
        return None
    return data.decode("utf-8", "replace").strip()


def _branch_of_head(head: str | None) -> str | None:
    if head and head.startswith(_HEAD_PREFIX):
        return head[len(_HEAD_PREFIX) :].strip() or None
    return None


def _absolute(text: str, base: Path) -> Path:
    path = Path(text)
    return path if path.is_absolute() else base / path


def common_dir(repo_root: str | os.PathLike[str]) -> Path | None:
    """The repository's shared git folder (`<root>/.git`, or the one a `.git` file points to)."""
    dot_git = Path(repo_root) / ".git"
    if dot_git.is_dir():
        return dot_git
    text = _read_small(dot_git)
    if not text or not text.startswith("gitdir:"):
        return None
    git_dir = _absolute(text[len("gitdir:") :].strip(), dot_git.parent)
    common = _read_small(git_dir / "commondir")
    found = _absolute(common, git_dir) if common else git_dir
    try:
        return found.resolve()  # `commondir` is usually `../..`
    except (OSError, RuntimeError):
        return found


def admin_worktrees(repo_root: str | os.PathLike[str]) -> list[Worktree]:
    """Linked worktrees recorded in `<common dir>/worktrees/*/gitdir` (also ones since deleted
    from disk but not yet pruned)."""
    common = common_dir(repo_root)
    if common is None:
        return []
    try:
        admins = sorted((common / "worktrees").iterdir())
    except OSError:
        return []
    found: list[Worktree] = []
    for admin in admins:
        gitdir = _read_small(admin / "gitdir")
        if not gitdir:
            continue
        dot_git = _absolute(gitdir, admin)
        root = dot_git.parent if dot_git.name == ".git" else dot_git
        found.append(Worktree(_resolved(root), _branch_of_head(_read_small(admin / "HEAD"))))
    return found


def parse_porcelain(output: str) -> list[Worktree]:
    """Worktrees from `git worktree list --porcelain` output, the main checkout first."""
    found: list[Worktree] = []
    path: str | None = None
    branch: str | None = None
    for line in [*output.splitlines(), ""]:
        if line.startswith("worktree "):
            path, branch = line[len("worktree ") :], None
        elif line.startswith("branch refs/heads/"):
            branch = line[len("branch refs/heads/") :] or None
        elif not line and path is not None:
            found.append(Worktree(_resolved(Path(path)), branch))
            path = None
    return found


def porcelain_worktrees(repo_root: str | os.PathLike[str], git: str = "git") -> list[Worktree]:
    """Linked worktrees as `git worktree list --porcelain` reports them ([] without git)."""
    try:
        done = subprocess.run(
            [git, "-C", os.fspath(repo_root), "worktree", "list", "--porcelain"],
            capture_output=True,
            text=True,
            timeout=_GIT_TIMEOUT_S,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    if done.returncode != 0:
        return []
    listed = parse_porcelain(done.stdout)
    main = _resolved(Path(repo_root))
    return [w for w in listed if w.path != main]


def linked_worktrees(repo_root: str | os.PathLike[str], *, use_git: bool = True) -> list[Worktree]:
    """Every linked worktree of `repo_root` that git knows of, from both records."""
    merged: dict[str, Worktree] = {}
    for worktree in [
        *(porcelain_worktrees(repo_root) if use_git else []),
        *admin_worktrees(repo_root),
    ]:
        known = merged.get(worktree.path)
        if known is None or (known.branch is None and worktree.branch):
            merged[worktree.path] = worktree
    return list(merged.values())


def current_branch(repo_root: str | os.PathLike[str]) -> str | None:
    """The branch checked out in the main checkout (None when detached or not a repository)."""
    common = common_dir(repo_root)
    return _branch_of_head(_read_small(common / "HEAD")) if common else None


def branches(repo_root: str | os.PathLike[str]) -> frozenset[str]:
    """Local and remote-tracking branch names (`origin/x` counts as `x`), from the ref files."""
    common = common_dir(repo_root)
    if common is None:
        return frozenset()
    names: set[str] = set()
    refs = common / "refs"
    for kind, strip in (("heads", 0), ("remotes", 1)):
        base = refs / kind
        for folder, _dirs, files in os.walk(base):
            for name in files:
                parts = (Path(folder) / name).relative_to(base).parts[strip:]
                if parts and parts != ("HEAD",):
                    names.add("/".join(parts))
    packed = _read_small(common / "packed-refs") or ""
    for line in packed.splitlines():
        _, _, ref = line.partition(" ")
        if ref.startswith("refs/heads/"):
            names.add(ref[len("refs/heads/") :])
        elif ref.startswith("refs/remotes/"):
            remote = ref[len("refs/remotes/") :].split("/", 1)
            if len(remote) == 2 and remote[1] != "HEAD":
                names.add(remote[1])
    return frozenset(names)


def claude_worktree_root(path: PurePath) -> PurePath | None:
    """`<repo>/.claude/worktrees/<name>` when `path` lies in such a folder, else None."""
    parts = path.parts
    for i in range(len(parts) - 2):
        if parts[i : i + 2] == CLAUDE_WORKTREES:
            return PurePath(*parts[: i + 3])
    return None


def _resolved(path: Path) -> str:
    try:
        return str(path.expanduser().resolve())
    except (OSError, RuntimeError):
        return str(path.expanduser().absolute())


class WorktreeMemory:
    """Every worktree path seen, with the repository it belongs to (`<home>/worktrees.json`).

    Paths stay known after the worktree is removed, so sessions that ran there keep routing to
    their repository. Without a file (`path=None`) the memory lasts for the process only.
    """

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._entries: dict[str, str] = {}
        self._load()

    def _load(self) -> None:
        if self._path is None:
            return
        try:
            data = json.loads(self._path.read_text() or "{}")
        except (OSError, ValueError):
            return  # absent or damaged: start empty, rewritten on the next change
        raw = data.get("worktrees", {}) if isinstance(data, dict) else {}
        if isinstance(raw, dict):
            self._entries = {
                str(k): str(v) for k, v in raw.items() if isinstance(k, str) and isinstance(v, str)
            }

    def entries(self) -> Mapping[str, str]:
        """Worktree path → repository root."""
        return self._entries

    def remember(self, repo_root: str, paths: Iterable[str]) -> bool:
        """Records `paths` as worktrees of `repo_root`; True (and saved) when something was new."""
        changed = False
        for path in paths:
            if path != repo_root and self._entries.get(path) != repo_root:
                if len(self._entries) >= _MAX_REMEMBERED and path not in self._entries:
                    break
                self._entries[path] = repo_root
                changed = True
        if changed:
            self._save()
        return changed

    def _save(self) -> None:
        if self._path is None:
            return
        data = {"worktrees": dict(sorted(self._entries.items()))}
        try:
            write_private_file(self._path, (json.dumps(data, indent=2) + "\n").encode())
        except OSError as error:
            log.warning("worktrees_save_failed", error_type=type(error).__name__)


def main_checkout(path: str | os.PathLike[str], max_depth: int = 64) -> Path | None:
    """The main checkout of the repository whose (linked) worktree holds `path`: walks up to the
    nearest `.git` and follows it to the shared git folder. None outside a repository or when
    the shared folder is not a `<root>/.git` (bare repositories). `path` is resolved first, as
    git resolves its working folder: a link inside a repository to a folder outside it leads
    out of the repository, and a link to a worktree leads into it."""
    found = checkout_of(path, max_depth)
    return found[1] if found else None


def checkout_of(path: str | os.PathLike[str], max_depth: int = 64) -> tuple[Path, Path] | None:
    """(the checkout holding `path`, the main checkout of its repository): the same folder twice
    in a main checkout, a linked worktree's root and its repository's main checkout in a
    worktree (`main_checkout` says how it is found; None where it finds none)."""
    try:
        here = Path(path).resolve()
    except (OSError, RuntimeError):  # a link loop
        return None
    for candidate in [here, *here.parents][:max_depth]:
        if (candidate / ".git").exists():
            shared = common_dir(candidate)
            if shared is None:
                return None
            try:
                shared = shared.resolve()
            except OSError:
                return None
            return (candidate, shared.parent) if shared.name == ".git" else None
    return None
