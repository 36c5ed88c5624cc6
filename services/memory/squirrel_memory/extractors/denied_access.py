"""A command refused for want of access: kept as a pitfall of where the project is worked,
whether or not the session got past it.

Three refusals teach the next session something whatever the language, and each is told by
its program's own line in the failed command's output, never by the words elsewhere:

- `sudo` could not ask for a password (`sudo: a terminal is required to read the password`,
  `sudo: a password is required`, `sudo: no tty present and no askpass program specified`):
  the commands run without a terminal to type it in, so a step that needs root fails until
  the user runs it in their own terminal. Only when the command ran `sudo` itself and no run
  of `sudo` passed in the session (a cached or password-free `sudo` works);
- the remote refused a push to a protected branch (GitHub `GH006: Protected branch update
  failed for refs/heads/<branch>`, GitLab `You are not allowed to push code to protected
  branches`, a `[remote rejected] <b> -> <branch> (protected branch hook declined)` line):
  changes reach that branch through a pull (merge) request. Only for a `git push`, and not
  when a later push of the session updated that branch;
- the system denied access to a path (EACCES, in the shapes of the shell and coreutils,
  Python, Node, Rust, Go and apt): the user the commands run as may not read, write or run
  it. Not when the command itself names the words (a search for them), not for a tree walk's
  own complaints (`find`, `grep`, `du`), not for ssh's `Permission denied (publickey)` (a
  key, not a path), and not when a later run of the same command passed (the fix's lesson
  says more).

Each reads what was seen and what it means, with the command as run (the failed run is the
memory's source; the project's paths relative to its root, a home folder's from `~`: where
one machine keeps things says nothing to another), under one key per cause (`pitfall:denied:sudo`,
`pitfall:denied:protected:<branch>`, `pitfall:denied:path:<path>`), so the same refusal in
another session restates one memory. Commands the user typed and failures whose outcome is
unknown say nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import CommandRun, commands
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.reported import local_paths
from squirrel_memory.models import StoredEvent

#: A fact of the machine or the forge from one failure, as a missing program's (0.45).
IMPORTANCE = 0.45
MAX_DENIED = 3
MAX_COMMAND_CHARS = 120
MAX_LINE_CHARS = 160
#: How many lines of an output are read for a refusal's line.
MAX_LINES = 80

_SUDO = re.compile(
    r"^sudo: (?:a terminal is required to read the password|a password is required"
    r"|no tty present and no askpass program specified)"
)
#: `sudo` starting a simple command of a line (after `;`, `&&`, `||`, a pipe or a newline,
#: environment words aside); not `ssh host sudo …`, whose `sudo` runs elsewhere.
_RUNS_SUDO = re.compile(r"(?:^|[;&|(\n])\s*(?:[A-Za-z_]\w*=\S*\s+)*(?:\S*/)?sudo(?:\s|$)")

_GITHUB_PROTECTED = re.compile(
    r"^(?:remote: )?error: GH006: Protected branch update failed"
    r" for refs/heads/(?P<branch>\S+?)\.?$"
)
_GITLAB_PROTECTED = re.compile(
    r"^(?:remote: )?(?:GitLab: )?You are not allowed to push code to protected branches"
)
_REJECTED = re.compile(
    r"^! \[remote rejected\] \S+ -> (?P<branch>\S+) \((?P<why>protected branch hook declined"
    r"|pre-receive hook declined)\)$"
)
#: A reason line the forge gives below its refusal (`- 3 of 3 required status checks are
#: expected.`, `- Changes must be made through a pull request.`).
_REASON = re.compile(r"^remote: - (?P<reason>\S.*?)\s*$")

_QUOTED = r"""['‘`"](?P<path>[^'’`"\n]+)['’`"]"""
#: The system's "permission denied" lines for a path, in each runtime's shape.
_DENIED = (
    # bash, sh and coreutils: `bash: ./run.sh: Permission denied`, `cat: /root/x: …`
    re.compile(
        r"^(?P<who>[\w./-]+): (?:line )?(?:\d+: )?(?P<path>[^\s:'‘`\"]+): Permission denied$"
    ),
    # zsh: `zsh: permission denied: ./run.sh`
    re.compile(r"^(?P<who>zsh): permission denied: (?P<path>\S+)$"),
    # coreutils' verbs: `mkdir: cannot create directory '/opt/x': Permission denied`
    re.compile(rf"^(?P<who>[\w.-]+): cannot [a-z ]+ {_QUOTED}: Permission denied$"),
    # Python: `PermissionError: [Errno 13] Permission denied: '/usr/lib/…'`
    re.compile(rf"\[Errno 13\] Permission denied: {_QUOTED}"),
    # Node: `Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/x'`
    re.compile(rf"\bEACCES: permission denied, \w+ {_QUOTED}"),
    # Rust: ``failed to open file `/home/u/.cache/x`: Permission denied (os error 13)``
    re.compile(rf"{_QUOTED}: Permission denied \(os error 13\)"),
    # Go: `open /var/run/docker.sock: permission denied`
    re.compile(
        r"\b(?:open|mkdir|remove|rename|stat|lstat|chmod|dial unix) (?P<path>/[^\s:]+)"
        r"(?:: connect)?: permission denied$"
    ),
    # apt and dpkg: `E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: …)`
    re.compile(r"\b(?:open )?(?:lock )?file (?P<path>/\S+) - \w+ \(13: Permission denied\)"),
)
#: Programs whose own "permission denied" lines are a walk's by-the-way, not the failure.
_WALKERS = frozenset({"find", "grep", "egrep", "rg", "du", "locate", "tree"})
_NAMES_WORDS = re.compile(r"permission denied|eacces|terminal is required|protected", re.I)


@dataclass(frozen=True, slots=True)
class DeniedAccess:
    """A refusal for want of access: key, statement and the failed run's event."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()


def _lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines()[:MAX_LINES]]


def _pushes(run: CommandRun) -> bool:
    """Whether `run` is (or holds) a `git push`, `git -C <dir> push` too."""
    for tokens in run.segments:
        if tokens[:1] != ["git"]:
            continue
        rest = tokens[1:]
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] in ("-C", "-c") else rest[1:]
        if rest[:1] == ["push"]:
            return True
    return False


def _shown(run: CommandRun) -> str:
    return clipped(" ".join(run.command.split()), MAX_COMMAND_CHARS)


def _sudo(run: CommandRun, runs: list[CommandRun]) -> DeniedAccess | None:
    if not _RUNS_SUDO.search(run.command):
        return None
    line = next((found.group(0) for raw in _lines(run.output) if (found := _SUDO.match(raw))), "")
    if not line or any(
        other.ok and other.session_id == run.session_id and _RUNS_SUDO.search(other.command)
        for other in runs
    ):
        return None
    content = (
        f"`sudo` cannot ask for a password where these commands run: `{_shown(run)}` failed "
        f"with `{line}`. A step that needs root fails here; the user runs it in their own "
        "terminal."
    )
    return DeniedAccess("pitfall:denied:sudo", content, (run.event_id,))


def _protected(run: CommandRun, runs: list[CommandRun]) -> DeniedAccess | None:
    if not _pushes(run):
        return None
    lines = _lines(run.output)
    seen, branch, reason, forge = "", "", "", ""
    for i, line in enumerate(lines):
        github = _GITHUB_PROTECTED.match(line)
        if github and not seen:
            seen, branch, forge = line.removeprefix("remote: "), github.group("branch"), "pull"
            reasons = (_REASON.match(later) for later in lines[i + 1 : i + 4])
            reason = next((r.group("reason") for r in reasons if r), "")
        elif _GITLAB_PROTECTED.match(line) and not seen:
            seen, forge = line.removeprefix("remote: ").removeprefix("GitLab: "), "merge"
        rejected = _REJECTED.match(line)
        if rejected and not branch and (forge or "protected" in rejected.group("why")):
            branch = rejected.group("branch")
            seen = seen or line
            forge = forge or "pull"
    if not seen or not branch or _pushed_later(run, runs, branch):
        return None
    line = clipped(seen, MAX_LINE_CHARS)
    reason = clipped(reason.rstrip("."), MAX_LINE_CHARS)
    because = f" ({reason})" if reason else ""
    content = (
        f"`{branch}` is a protected branch: the remote refused `{_shown(run)}` with "
        f"`{line}`{because}. Changes reach `{branch}` through another branch and a {forge} "
        "request, not a direct push."
    )
    return DeniedAccess(f"pitfall:denied:protected:{branch}", content, (run.event_id,))


def _pushed_later(failed: CommandRun, runs: list[CommandRun], branch: str) -> bool:
    """Whether a later push of the session updated `branch` (an admin's push, a rule lifted)."""
    updated = re.compile(rf"^\s*[+*]?\s*(?:\S+\s+)?\S+ -> {re.escape(branch)}$", re.MULTILINE)
    return any(
        other.ok
        and other.session_id == failed.session_id
        and other.timestamp > failed.timestamp
        and _pushes(other)
        and updated.search(other.output)
        for other in runs
    )


def denied_path(output: str) -> tuple[str, str]:
    """(the path, the line) when a line of `output` is the system's "permission denied" line
    for a path (not a tree walk's, not ssh's key refusal), else ("", "")."""
    for line in _lines(output):
        if "(publickey" in line:
            continue
        for shape in _DENIED:
            found = shape.search(line)
            if found is None:
                continue
            who = found.groupdict().get("who") or ""
            if who.rsplit("/", 1)[-1] in _WALKERS:
                break
            return found.group("path"), line
    return "", ""


def _path(run: CommandRun, runs: list[CommandRun]) -> DeniedAccess | None:
    if _NAMES_WORDS.search(run.command):
        return None
    path, line = denied_path(run.output)
    if not path or any(
        other.ok
        and other.session_id == run.session_id
        and other.timestamp > run.timestamp
        and other.normalized == run.normalized
        for other in runs
    ):
        return None
    shown = clipped(line.replace("`", "'"), MAX_LINE_CHARS)
    if not shown:
        return None
    content = (
        f"Access to `{path}` is denied to the user these commands run as: `{_shown(run)}` "
        f"failed with `{shown}`. A step that reads, writes or runs it fails until its "
        "permissions (or the user) change."
    )
    return DeniedAccess(f"pitfall:denied:path:{path}", content, (run.event_id,))


def denied_access(events: list[StoredEvent]) -> list[DeniedAccess]:
    """The refusals for want of access the failed commands of `events` show, one per cause."""
    runs = [run for run in commands(events) if not run.by_user]
    root = events[0].project_id if events else ""
    found: dict[str, DeniedAccess] = {}
    for run in runs:
        if run.ok is not False or run.command.startswith("hook:") or not _shown(run):
            continue
        lesson = _sudo(run, runs) or _protected(run, runs) or _path(run, runs)
        if lesson is None:
            continue
        key, content = local_paths(lesson.key, root), local_paths(lesson.content, root)
        if content.count("`") % 2 == 0:
            found.setdefault(key, DeniedAccess(key, content, lesson.event_ids))
        if len(found) == MAX_DENIED:
            break
    return list(found.values())
