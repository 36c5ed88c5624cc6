"""That the repository's long-lived branch is `master`, not `main`, as `git branch` listed it.

An assistant assumes `main` (`git checkout main`, `git merge main`, `gh pr create --base main`);
in a repository whose branch is still `master` each such command fails or does the wrong
thing. When a successful `git branch` run in the project (alone or in a compound line, with
`-a`, `-r` or `--list`, without a pattern) listed `master` and no `main`, locally or on a
remote, that is one project fact: "The repository has a `master` branch and no `main` (as
`git branch` listed them)." A listing with `main`, one that shows no `master`, a `git branch`
that creates, deletes or filters branches, a failed run and a run in another folder or
repository (`cd`, `git -C`) say nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import CommandRun, commands, in_folder
from squirrel_memory.extractors.elsewhere import ran_elsewhere
from squirrel_memory.models import StoredEvent

KEY = "main_branch"
#: A fact of the whole repository, beside where its source is hosted.
IMPORTANCE = 0.5
#: Flags of a `git branch` that only lists (anything else creates, deletes or filters).
_LISTING_FLAGS = frozenset({"-a", "--all", "-r", "--remotes", "-l", "--list", "--no-color"})
#: A line of `git branch` output: a marker (`*` the current branch, `+` another worktree's)
#: and one branch name, or a remote's `HEAD -> origin/main` line.
_BRANCH_LINE = re.compile(r"^[*+ ] (?:\(.*\)|(?P<name>[\w./-]+)(?: -> (?P<target>\S+))?)$")
_REMOTE = re.compile(r"^remotes/[\w.-]+/")
_REMOTE_TARGET = re.compile(r"^(?:remotes/)?[\w.-]+/")


@dataclass(frozen=True, slots=True)
class MainBranch:
    """The branch fact: its key, sentence and the run behind it."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _lists_branches(run: CommandRun) -> bool:
    """Whether one of the run's simple commands is a `git branch` that only lists."""
    return any(
        tokens[:2] == ["git", "branch"] and all(t in _LISTING_FLAGS for t in tokens[2:])
        for tokens in run.segments
    )


def listed_branches(output: str) -> set[str]:
    """The branch names a `git branch` output lists, remotes' prefixes removed."""
    found: set[str] = set()
    for line in output.splitlines():
        match = _BRANCH_LINE.match(line.rstrip())
        if match and match.group("name"):
            found.add(_REMOTE.sub("", match.group("name")))
        if match and match.group("target"):  # `remotes/origin/HEAD -> origin/main`
            found.add(_REMOTE_TARGET.sub("", match.group("target")))
    return found


def main_branch(events: list[StoredEvent]) -> MainBranch | None:
    """The `master` fact the episode's `git branch` listings show, or None (see the module)."""
    if not events:
        return None
    project_id = events[0].project_id
    for run in commands(events):
        if run.ok is not True or not _lists_branches(run):
            continue
        cwd = (run.cwd or project_id).rstrip("/")
        if not in_folder(cwd, project_id) or ran_elsewhere(run.command, project_id):
            continue
        branches = listed_branches(run.output)
        if "main" in branches:
            return None  # `main` is there: nothing to warn of
        if "master" in branches:
            return MainBranch(
                KEY,
                "The repository has a `master` branch and no `main` (as `git branch` listed them).",
                (run.event_id,),
            )
    return None
