"""How branches are merged at the project, as the session's own `git merge` runs did it.

Whether a project keeps a merge commit for each branch (`--no-ff`) or squashes it is a policy
that every later merge should follow, and it shows only in the merges themselves. When at
least `MIN_MERGES` successful `git merge` runs at the project's root merged a work branch with
the same policy option (`--no-ff` or `--squash`) and none used another, that is how branches
are merged here: "Branches are merged with `git merge --no-ff <branch> <branch> -m "<text>"`
(2 merges in sessions, several branches at once)." A single merge, a merge in another
repository or work tree (`git -C`, after a `cd` elsewhere), a merge that stopped on a
conflict or failed, `--abort` / `--continue`, a merge of the upstream, a mainline (`main`,
`develop`, `dev`, `staging`, `trunk` …) or a release line (`release/2.4`, `1.x`) into a work
branch (keeping it current is not the policy) and merges with different policies say nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import CommandRun, commands, outside_project
from squirrel_memory.models import StoredEvent

#: Importance of the recipe: how every later merge at the project is done.
IMPORTANCE = 0.55
#: Fewest merges with the same policy it is read from.
MIN_MERGES = 2
POLICIES = ("--no-ff", "--squash")
#: Options kept in the recipe as they were typed (others are left out).
_KEPT = frozenset({"--no-ff", "--squash", "--no-edit", "--log", "--signoff", "-S", "--gpg-sign"})
_MESSAGE = frozenset({"-m", "--message", "-F", "--file"})
_STOPS = frozenset({"--abort", "--continue", "--quit", "--skip"})
#: Branches a work branch is brought up to date from: merging them in is no merge policy.
_MAINLINE = frozenset(
    {
        "main",
        "master",
        "trunk",
        "develop",
        "development",
        "dev",
        "staging",
        "stage",
        "production",
        "prod",
        "stable",
        "next",
        "HEAD",
        "FETCH_HEAD",
        "ORIG_HEAD",
        "@{u}",
        "@{upstream}",
    }
)
#: Prefixes of long-lived lines cut for a release or a maintained version (`release/2.4`,
#: `releases/v1`, `stable/1.x`, `maint/3.2`): merged in, they too keep a work branch current.
_MAINLINE_PREFIXES = ("release/", "releases/", "stable/", "maint/", "maintenance/", "support/")
_REMOTES = ("origin/", "upstream/")
#: A version line named by its number (`1.x`, `v2.4`, `3-stable`).
_RELEASE_LINE = re.compile(r"^v?\d+(?:\.(?:\d+|x))*(?:-stable)?$")
_STOPPED = ("CONFLICT", "Automatic merge failed", "fatal:", "error:", "not something we can merge")


@dataclass(frozen=True, slots=True)
class BranchMerges:
    """The merge policy the session's merges share: key, sentence and the runs behind it."""

    key: str
    content: str
    event_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Merge:
    run: CommandRun
    options: tuple[str, ...]
    branches: int
    message: bool


def _merge(run: CommandRun, tokens: list[str]) -> _Merge | None:
    """The merge `tokens` make (`git merge …`, git's own options before `merge` not allowed:
    `-C` points at another work tree), or None for anything else."""
    if tokens[:2] != ["git", "merge"]:
        return None
    options: list[str] = []
    branches: list[str] = []
    message = False
    skip = False
    for word in tokens[2:]:
        if skip:
            skip = False
        elif word in _STOPS:
            return None
        elif word in _MESSAGE:
            message = skip = True
        elif word.startswith(("--message=", "--file=")):
            message = True
        elif word.startswith("-"):
            options.append(word)
        elif word.isdigit() or ">" in word or "<" in word:
            continue  # a redirection
        else:
            branches.append(word)
    mainline = [b for b in branches if _is_mainline(b)]
    if not branches or mainline:
        return None
    kept = tuple(o for o in options if o in _KEPT)
    return _Merge(run, kept, len(branches), message)


def _is_mainline(branch: str) -> bool:
    """Whether `branch` is a mainline, a release line or a remote's branch (module doc)."""
    return (
        branch in _MAINLINE
        or branch.startswith(_REMOTES)
        or branch.startswith(_MAINLINE_PREFIXES)
        or bool(_RELEASE_LINE.match(branch))
    )


def branch_merges(events: list[StoredEvent]) -> list[BranchMerges]:
    """The merge policy of the project's branches, from the session's merges (module doc)."""
    merges: list[_Merge] = []
    for run in commands(events):
        project_id = events[0].project_id if events else ""
        if run.ok is not True or outside_project(run, project_id):
            continue
        if any(mark in run.output for mark in _STOPPED):
            continue
        merges.extend(m for tokens in run.segments if (m := _merge(run, tokens)) is not None)
    policies = {p for m in merges for p in POLICIES if p in m.options}
    unstated = [m for m in merges if not any(p in m.options for p in POLICIES)]
    if len(policies) != 1 or unstated:
        return []
    policy = policies.pop()
    if len(merges) < MIN_MERGES:
        return []
    last = merges[-1]
    shown = " ".join(["git merge", *last.options, *(["<branch>"] * last.branches)])
    if last.message:
        shown += ' -m "<text>"'
    several = ", several branches at once" if all(m.branches > 1 for m in merges) else ""
    text = f"Branches are merged with `{shown}` ({len(merges)} merges in sessions{several})."
    key = "recipe:merge:" + policy.lstrip("-")
    return [BranchMerges(key, text, tuple(m.run.event_id for m in merges))]
