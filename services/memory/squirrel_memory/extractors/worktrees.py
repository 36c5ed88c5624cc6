"""Where new work starts when a project runs each piece of work in its own git worktree.

Experiment folders and teams of agents give every task a worktree of its own: the sessions
run `git worktree add ../worktrees/<name> -b exp/<name>` again and again, each time with
another name. Two successful runs or more that put their worktrees in the same folder make a
recipe with the shared parts kept (the folder, a branch prefix) and the changing name shown
as `<name>`. Runs in different folders, or a worktree made once, say nothing; a path outside
the project's parent folder is one machine's and is not shown.
"""

from __future__ import annotations

import posixpath
import shlex

from squirrel_memory.extractors.evidence.attempts import Attempt, Finding

#: Successful `git worktree add` runs needed.
MIN_RUNS = 2
IMPORTANCE = 0.5
_BRANCH_FLAGS = frozenset({"-b", "-B"})
#: Options of `git worktree add` that take a value (the value is not the path).
_VALUED = frozenset({"-b", "-B", "--reason"})


def _added(attempt: Attempt) -> tuple[str, str | None] | None:
    """(path, new branch or None) of a successful `git worktree add`, or None."""
    words = list(attempt.tokens)
    # A relative path typed in a sub-folder (or another checkout) is not one from the root.
    if attempt.run.ok is not True or attempt.scope or words[:3] != ["git", "worktree", "add"]:
        return None
    path: str | None = None
    branch: str | None = None
    rest = words[3:]
    for n, word in enumerate(rest):
        if n > 0 and rest[n - 1] in _VALUED:
            if rest[n - 1] in _BRANCH_FLAGS:
                branch = word
            continue
        if word.startswith("-"):
            continue
        if path is None:
            path = word
    return (path, branch) if path else None


def _relative(path: str, root: str) -> str | None:
    """`path` as typed from the project root; None for one outside the root's parent folder."""
    if not path.startswith(("/", "~")):
        return posixpath.normpath(path)
    parent = posixpath.dirname(root.rstrip("/"))
    if parent and path.startswith(parent + "/"):
        return posixpath.relpath(path, root)
    return None


def _shared(values: list[str], leaf: str) -> str | None:
    """The prefix every value shares up to a `/`, then `<name>` (`exp/<name>`)."""
    heads = {v.rsplit("/", 1)[0] + "/" if "/" in v else "" for v in values}
    if len(heads) != 1:
        return None
    return f"{heads.pop()}{leaf}"


def worktree_recipe(found: list[Attempt], project_root: str) -> Finding | None:
    """The recipe for starting new work in a worktree, when runs in `found` repeat one layout."""
    paths: list[str] = []
    branches: list[str | None] = []
    event_ids: list[str] = []
    sessions: set[str] = set()
    for attempt in found:
        added = _added(attempt)
        if added is None:
            continue
        relative = _relative(added[0], project_root)
        if relative is None or relative in paths:
            continue
        paths.append(relative)
        branches.append(added[1])
        event_ids.append(attempt.run.event_id)
        sessions.add(attempt.run.session_id or "")
    if len(paths) < MIN_RUNS:
        return None
    folder = _shared(paths, "<name>")
    if folder is None or folder == "<name>":
        return None
    command = f"git worktree add {shlex.quote(folder) if ' ' in folder else folder}"
    named = [b for b in branches if b]
    if len(named) == len(branches):
        prefix = _shared(named, "<name>")
        command += f" -b {prefix}" if prefix else " -b <branch>"
    where = f"in {len(sessions)} sessions" if len(sessions) >= 2 else "in one session"
    return Finding(
        "recipe",
        "recipe:worktree",
        f"New work gets its own git worktree: `{command}` (done {len(paths)} times {where}).",
        ("recipe", "git", "worktree"),
        IMPORTANCE,
        tuple(event_ids[-20:]),
    )
