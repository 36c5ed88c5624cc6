"""A command refused for want of access: kept as a pitfall of where the project is worked,
whether or not the session got past it.

Seven refusals teach the next session something whatever the language, and each is told by
its program's own line in the failed command's output, never by the words elsewhere:

- `sudo` could not ask for a password (`sudo: a terminal is required to read the password`,
  `sudo: a password is required`, `sudo: no tty present and no askpass program specified`):
  the commands run without a terminal to type it in, so a step that needs root fails until
  the user runs it in their own terminal. Only when the command ran `sudo` itself and no run
  of `sudo` passed in the session (a cached or password-free `sudo` works);
- the remote refused a push to a protected branch (GitHub `GH006: Protected branch update
  failed for refs/heads/<branch>`, GitLab `You are not allowed to push code to protected
  branches`, a `[remote rejected] <b> -> <branch> (protected branch hook declined)` line) or by
  the repository's rules (GitHub `GH013: Repository rule violations found`), naming the rules
  the server lists below it ("Changes must be made through a pull request", "2 of 2 required
  status checks are expected"): when a rule or the protection asks for a request, changes reach
  that branch through a pull (merge) request, and when the session then pushed another branch
  and opened one, it says so; rules of another kind (signed commits) are named alone. Only for
  a `git push`, and not when a later push of the session updated that branch;
- the forge's push protection blocked a push whose commits hold a secret (GitHub `GH013` with
  "Push cannot contain secrets", `GH009: Secrets detected`, GitLab `PUSH BLOCKED: Secrets
  detected`): the secret's type and the files it was found in, never its value, the commit or
  the address that would let it through (a word that looks like a value is left out);
- ssh refused the keys on offer (`git@github.com: Permission denied (publickey).`) to a command
  of ssh, git, scp, sftp or rsync: one pitfall per host (the message's, else the command's
  `user@host:path`, `ssh://` address or `ssh` host), with what got past it when a later run of
  the session reached the host after a change: the remote switched to https (`git remote
  set-url <name> https://…`), the key loaded (`ssh-add`), another key (`-i`), git told which
  key to use (`GIT_SSH_COMMAND`, `core.sshCommand`), the same over https;
- the agent's sandbox refused a write (the host's `failed in sandbox` or `sandbox denied exec
  error` with the command's own `Operation not permitted` or `Read-only file system` line:
  git's `.git/index.lock`, a shell's here-document file): inside the sandbox the step fails
  whatever the files' permissions, and runs once approved to run outside it;
- the agent's sandbox could not start at all (its launcher's own line first: bubblewrap's
  `bwrap: …`, `sandbox-exec: …`) and the same command passed later, run outside it: every
  sandboxed command fails so on that machine (`pitfall:denied:sandbox:start`);
- the system denied access to a path (EACCES, in the shapes of the shell and coreutils,
  Python, Node, Rust, Go and apt): the user the commands run as may not read, write or run
  it. Not when the command itself names the words (a search for them), not for a tree walk's
  own complaints (`find`, `grep`, `du`), not for ssh's `Permission denied (publickey)` (a
  key, not a path), and not when a later run of the same command passed (the fix's lesson
  says more).

Each reads what was seen and what it means, with the command as run (the failed run is the
memory's source; the project's paths relative to its root, a home folder's from `~`: where
one machine keeps things says nothing to another; an address's credentials never shown), under
one key per cause (`pitfall:denied:sudo`, `pitfall:denied:protected:<branch>`,
`pitfall:denied:push-protection:<path>`, `pitfall:denied:ssh:<host>`,
`pitfall:denied:sandbox:<folder or program>`,
`pitfall:denied:path:<path>`), so the same refusal in another session restates one memory.
Commands the user typed and failures whose outcome is unknown say nothing.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import CommandRun, commands
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.refusal_parts import (
    MAX_LINE_CHARS,
    NAMES_WORDS,
    DeniedAccess,
    output_lines,
    shown_command,
)
from squirrel_memory.extractors.refused_keys import refused_key
from squirrel_memory.extractors.refused_pushes import protected_branch, pushed_secrets
from squirrel_memory.extractors.reported import local_paths
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

#: A fact of the machine or the forge from one failure, as a missing program's (0.45).
IMPORTANCE = 0.45
MAX_DENIED = 3

_SUDO = re.compile(
    r"^sudo: (?:a terminal is required to read the password|a password is required"
    r"|no tty present and no askpass program specified)"
)
#: `sudo` starting a simple command of a line (after `;`, `&&`, `||`, a pipe or a newline,
#: environment words aside); not `ssh host sudo …`, whose `sudo` runs elsewhere.
_RUNS_SUDO = re.compile(r"(?:^|[;&|(\n])[ \t]*(?:[A-Za-z_]\w*=\S*\s+)*(?:\S*/)?sudo(?:\s|$)")


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


def _sudo(run: CommandRun, runs: list[CommandRun]) -> DeniedAccess | None:
    if not _RUNS_SUDO.search(run.command):
        return None
    line = next(
        (found.group(0) for raw in output_lines(run.output) if (found := _SUDO.match(raw))), ""
    )
    if not line or any(
        other.ok and other.session_id == run.session_id and _RUNS_SUDO.search(other.command)
        for other in runs
    ):
        return None
    content = (
        f"`sudo` cannot ask for a password where these commands run: `{shown_command(run)}` failed "
        f"with `{line}`. A step that needs root fails here; the user runs it in their own "
        "terminal."
    )
    return DeniedAccess("pitfall:denied:sudo", content, (run.event_id,))


def denied_path(output: str) -> tuple[str, str]:
    """(the path, the line) when a line of `output` is the system's "permission denied" line
    for a path (not a tree walk's, not ssh's key refusal), else ("", "")."""
    for line in output_lines(output):
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


#: The host's sandbox refused the command's write (Codex: `failed in sandbox …`, `sandbox denied
#: exec error`), and the line the command itself printed for it.
_SANDBOXED = re.compile(r"^failed in sandbox\b|\bsandbox denied exec error\b")
_NOT_PERMITTED = ("Operation not permitted", "Read-only file system")
_HOST_PREFIX = re.compile(r"^failed in sandbox\b[^:]*?(?:stderr: |: )")
_SANDBOX_PATH = re.compile(_QUOTED)


def _sandbox(run: CommandRun) -> DeniedAccess | None:
    """A write the agent's sandbox refused (the folder the project's repository keeps its
    metadata in, a shell's temporary file): a step that needs it fails inside the sandbox
    whatever the user's own permissions."""
    if not _SANDBOXED.search(run.output[:400]):
        return None
    line = ""
    for raw in output_lines(run.output):
        said = _HOST_PREFIX.sub("", raw).rsplit("stderr: ", 1)[-1].strip()
        if any(words in said for words in _NOT_PERMITTED):
            line = said
            break
    if not line:
        return None
    quoted = _SANDBOX_PATH.search(line)
    where = quoted.group("path") if quoted else ""
    shown = clipped(line.replace("`", "'"), MAX_LINE_CHARS)
    program = next((tokens[0] for tokens in run.segments), "")
    content = (
        f"The agent's sandbox refused `{shown_command(run)}`: it failed with `{shown}`. Inside the "
        "sandbox such a step fails whatever the user's own permissions; it runs once approved "
        "to run outside it."
    )
    slug = key_slug(where.rsplit("/", 2)[-2] if where.count("/") >= 1 else where) or key_slug(
        program
    )
    return DeniedAccess(f"pitfall:denied:sandbox:{slug or 'write'}", content, (run.event_id,))


#: The sandbox's own launcher failed before the command ran (bubblewrap on Linux, macOS's
#: `sandbox-exec`): its line is the whole story, whatever the command was.
_SANDBOX_START = re.compile(r"^(?:bwrap|sandbox-exec): \S")


def _sandbox_start(run: CommandRun, runs: list[CommandRun]) -> DeniedAccess | None:
    """The agent's sandbox could not start on this machine: the failed run printed the
    launcher's own error first, and the same command passed later in the session (run outside
    the sandbox). Every sandboxed command fails so; the lesson is the machine's."""
    lines = output_lines(run.output)
    if not lines or not _SANDBOX_START.match(lines[0].strip()):
        return None
    passed = any(
        other.ok
        and other.session_id == run.session_id
        and other.timestamp > run.timestamp
        and other.normalized == run.normalized
        for other in runs
    )
    if not passed:
        return None
    shown = clipped(lines[0].strip().replace("`", "'"), MAX_LINE_CHARS)
    content = (
        f"The agent's sandbox could not start on this machine: `{shown_command(run)}` failed with "
        f"`{shown}` before it ran, and the same command passed once run outside the sandbox. "
        "Every command run inside the sandbox fails this way here."
    )
    return DeniedAccess("pitfall:denied:sandbox:start", content, (run.event_id,))


def _path(run: CommandRun, runs: list[CommandRun]) -> DeniedAccess | None:
    if NAMES_WORDS.search(run.command):
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
        f"Access to `{path}` is denied to the user these commands run as: `{shown_command(run)}` "
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
        if run.ok is not False or run.command.startswith("hook:") or not shown_command(run):
            continue
        lesson = (
            _sudo(run, runs)
            or pushed_secrets(run)
            or protected_branch(run, runs)
            or refused_key(run, runs)
            or _sandbox(run)
            or _sandbox_start(run, runs)
            or _path(run, runs)
        )
        if lesson is None:
            continue
        key, content = local_paths(lesson.key, root), local_paths(lesson.content, root)
        if content.count("`") % 2 == 0:
            files = tuple(local_paths(f, root) for f in lesson.files)
            found.setdefault(key, DeniedAccess(key, content, lesson.event_ids, files))
        if len(found) == MAX_DENIED:
            break
    return list(found.values())
