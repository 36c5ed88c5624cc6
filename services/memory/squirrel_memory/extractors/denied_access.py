"""A command refused for want of access: kept as a pitfall of where the project is worked,
whether or not the session got past it.

Six refusals teach the next session something whatever the language, and each is told by
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
from dataclasses import dataclass

from squirrel_memory.extractors.activity import CommandRun, commands
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.reported import local_paths
from squirrel_memory.extractors.wording import key_slug
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
_GITHUB_RULES = re.compile(
    r"^(?:remote: )?error: GH013: Repository rule violations found"
    r" for refs/heads/(?P<branch>\S+?)\.?$"
)
_REJECTED = re.compile(
    r"^! \[remote rejected\] \S+ -> (?P<branch>\S+) \((?P<why>protected branch hook declined"
    r"|pre-receive hook declined|push declined due to repository rule violations)\)$"
)
#: A reason line the forge gives below its refusal (`- 3 of 3 required status checks are
#: expected.`, `- Changes must be made through a pull request.`).
_REASON = re.compile(r"^remote: - (?P<reason>\S.*?)\s*$")
#: Rules whose way past is another branch and a pull (merge) request.
_THROUGH_REQUEST = re.compile(
    r"pull request|merge request|protected (?:branch|ref)|required status check", re.I
)
#: Rules listed below a refusal at most this many lines down.
MAX_RULE_LINES = 30
_CREATES = (["gh", "pr", "create"], ["glab", "mr", "create"])
MAX_RULES = 3

#: The forge's push protection found a secret in the pushed commits (GitHub's GH013 with
#: "Push cannot contain secrets", its older GH009, GitLab's "PUSH BLOCKED").
_SECRETS_BLOCKED = re.compile(
    r"^(?:remote:\s*)?(?:- Push cannot contain secrets|error: GH009: Secrets detected"
    r"|PUSH BLOCKED: Secrets detected)",
)
#: GitHub's secret heading: `—— GitHub Personal Access Token ——————`.
_SECRET_TYPE = re.compile(
    r"^(?:remote:\s*)?[—–]{2}\s+(?P<type>[A-Za-z][A-Za-z0-9 .()'/&+-]{1,60}?)\s+[—–]{2,}$"
)
#: GitHub's location: `path: src/api/client.ts:34`.
_SECRET_PATH = re.compile(r"^(?:remote:\s*)?path: (?P<path>[^\s:]+)(?::\d+)?$")
#: GitLab's location and type: `-- test.txt:2 GitLab Personal Access Token`.
_GITLAB_SECRET = re.compile(
    r"^(?:remote:\s*)?-- (?P<path>[^\s:]+)(?::\d+)? (?:\| )?"
    r"(?P<type>[A-Za-z][A-Za-z0-9 .()'/&+-]{1,60}?)$"
)
#: A long run of letters and digits: a value, never a secret's type or a path to name.
_VALUE_LIKE = re.compile(r"[A-Za-z0-9_]{24,}|[0-9a-f]{12,}")
MAX_SECRETS = 3

#: ssh refused every key it offered: `git@github.com: Permission denied (publickey).`
_PUBLICKEY = re.compile(
    r"^(?:(?P<user>[\w.-]+)@)?(?:(?P<host>[\w.-]+): )?"
    r"Permission denied \((?:[\w-]+,)*publickey(?:,[\w-]+)*\)\.?$"
)
#: Programs that reach a host over ssh.
_SSH_PROGRAMS = frozenset({"ssh", "git", "scp", "sftp", "rsync", "ssh-copy-id"})
#: ssh's options that take a value.
_SSH_VALUED = frozenset("bcDEeFIiJLlmOopQRSWw")
_SCP_LIKE = re.compile(r"^[\w.-]+@(?P<host>[\w.-]+):")
_SSH_URL = re.compile(r"^(?:git\+)?ssh://(?:[^@/\s]+@)?(?P<host>[\w.-]+)")
_HTTPS_URL = re.compile(r"^https?://(?:[^@/\s]+@)?(?P<host>[\w.-]+)")
#: Credentials written into an address (`https://user:token@host/`): never shown.
_USERINFO = re.compile(r"\b(https?://)[^/\s@]+@")
_NETWORK_VERBS = frozenset({"push", "pull", "fetch", "clone", "ls-remote"})

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


def _git_verb(tokens: list[str]) -> str:
    """The subcommand of a `git` command (`git -C <dir> push` too), else ""."""
    if tokens[:1] != ["git"]:
        return ""
    rest = tokens[1:]
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in ("-C", "-c") else rest[1:]
    return rest[0] if rest else ""


def _pushes(run: CommandRun) -> bool:
    """Whether `run` is (or holds) a `git push`, `git -C <dir> push` too."""
    return any(_git_verb(tokens) == "push" for tokens in run.segments)


def _shown(run: CommandRun) -> str:
    return clipped(" ".join(_USERINFO.sub(r"\1", run.command).split()), MAX_COMMAND_CHARS)


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
    if any(_SECRETS_BLOCKED.match(line) for line in lines):
        return None  # push protection's, told by its own lesson or not at all
    seen, branch, forge = "", "", ""
    rules: list[str] = []
    for i, line in enumerate(lines):
        github = _GITHUB_PROTECTED.match(line) or _GITHUB_RULES.match(line)
        if github and not seen:
            seen, branch, forge = line.removeprefix("remote: "), github.group("branch"), "pull"
            rules = _rules(lines[i + 1 : i + 1 + MAX_RULE_LINES])
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
    listed = "; ".join(clipped(rule.rstrip("."), MAX_LINE_CHARS) for rule in rules)
    because = f" ({listed})" if listed else ""
    refused = f"the remote refused `{_shown(run)}` with `{line}`{because}."
    if "GH013" in seen and not any(_THROUGH_REQUEST.search(rule) for rule in rules):
        # Rules of another kind (signed commits, a file path): no request is the way past.
        content = f"The repository's rules for `{branch}` refused pushes: {refused}"
        return DeniedAccess(f"pitfall:denied:protected:{branch}", content, (run.event_id,))
    content = (
        f"`{branch}` is a protected branch: {refused} Changes reach `{branch}` through another "
        f"branch and a {forge} request, not a direct push."
    )
    ids: tuple[str, ...] = (run.event_id,)
    opened = _opened_request(run, runs, branch)
    if opened is not None:
        create = next(" ".join(t[:3]) for t in opened.segments if t[:3] in _CREATES)
        content += (
            f" This session did so: it pushed another branch and opened the {forge} request "
            f"with `{create}`."
        )
        ids = (run.event_id, opened.event_id)
    return DeniedAccess(f"pitfall:denied:protected:{branch}", content, ids)


def _rules(lines: list[str]) -> list[str]:
    """The rules a forge lists below its refusal (`- Changes must be made through a pull
    request.`), up to the next refusal or the push's own lines."""
    rules: list[str] = []
    for line in lines:
        if not line.startswith("remote:"):
            break
        reason = _REASON.match(line)
        if reason and not _VALUE_LIKE.search(reason.group("reason")):
            rules.append(reason.group("reason"))
    return list(dict.fromkeys(rules))[:MAX_RULES]


def _opened_request(failed: CommandRun, runs: list[CommandRun], branch: str) -> CommandRun | None:
    """The successful `gh pr create` (`glab mr create`) of the session after the refused push,
    once another branch was pushed (by then or by itself), else None."""
    pushed_other = False
    other_branch = re.compile(rf"-> (?!{re.escape(branch)}$)\S+$", re.MULTILINE)
    for other in runs:
        if (
            other.session_id != failed.session_id
            or other.timestamp <= failed.timestamp
            or other.ok is not True
        ):
            continue
        if _pushes(other) and other_branch.search(other.output):
            pushed_other = True
        if pushed_other and any(t[:3] in _CREATES for t in other.segments):
            return other
    return None


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


def _secrets(run: CommandRun) -> DeniedAccess | None:
    """A push the forge's push protection blocked: the secret's type and where it is, never its
    value, its commit or the address that would let it through."""
    if not _pushes(run):
        return None
    lines = _lines(run.output)
    if not any(_SECRETS_BLOCKED.match(line) for line in lines):
        return None
    kinds: list[str] = []
    paths: list[str] = []
    for line in lines:
        heading = _SECRET_TYPE.match(line)
        located = _SECRET_PATH.match(line)
        gitlab = _GITLAB_SECRET.match(line)
        if heading:
            kinds.append(heading.group("type"))
        elif located:
            paths.append(located.group("path"))
        elif gitlab:
            kinds.append(gitlab.group("type"))
            paths.append(gitlab.group("path"))
    kinds = [k for k in dict.fromkeys(kinds) if not _VALUE_LIKE.search(k)][:MAX_SECRETS]
    paths = [p for p in dict.fromkeys(paths) if not _VALUE_LIKE.search(p)][:MAX_SECRETS]
    if not kinds:
        return None
    what = _listed(kinds, article=True)
    where = f" in {_listed([f'`{p}`' for p in paths])}" if paths else ""
    content = (
        f"The remote's push protection blocks commits that hold a secret: `{_shown(run)}` was "
        f"refused for {what}{where}. Such a value stays out of committed files; a blocked "
        "push goes through once no pushed commit holds it."
    )
    key = f"pitfall:denied:push-protection:{paths[0] if paths else key_slug(kinds[0])}"
    return DeniedAccess(key, content, (run.event_id,), tuple(paths))


def _listed(items: list[str], *, article: bool = False) -> str:
    if article:
        items = [f"{'an' if i[:1].lower() in 'aeiou' else 'a'} {i}" for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ssh_host(run: CommandRun) -> str:
    """The host the command reaches over ssh: `ssh [opts] [user@]host`, a `user@host:path` or
    `ssh://` address among a command's words, else ""."""
    for tokens in run.segments:
        if tokens[0] not in _SSH_PROGRAMS:
            continue
        if tokens[0] == "ssh":
            named = [t for t in tokens[1:] if "@" in t and not t.startswith("-")]
            if named:
                return named[0].rsplit("@", 1)[-1].lower()
            rest = tokens[1:]
            while rest and rest[0].startswith("-"):
                flag = rest[0]
                rest = rest[2:] if len(flag) == 2 and flag[1] in _SSH_VALUED else rest[1:]
            if rest:
                return rest[0].rsplit("@", 1)[-1].lower()
            continue
        for token in tokens[1:]:
            found = _SCP_LIKE.match(token) or _SSH_URL.match(token)
            if found:
                return found.group("host").lower()
    return ""


def _publickey(run: CommandRun, runs: list[CommandRun]) -> DeniedAccess | None:
    """ssh refused the keys on offer: one pitfall per host, with what got past it when the
    session shows it."""
    if _NAMES_WORDS.search(run.command) or not any(
        tokens[0] in _SSH_PROGRAMS for tokens in run.segments
    ):
        return None
    line, host = "", ""
    for raw in _lines(run.output):
        found = _PUBLICKEY.match(raw)
        if found:
            line, host = raw, (found.group("host") or "").lower()
            break
    host = host or _ssh_host(run)
    if not line or not host:
        return None
    content = (
        f"ssh to `{host}` refused the keys these commands offer: `{_shown(run)}` failed with "
        f"`{clipped(line, MAX_LINE_CHARS)}`."
    )
    ids: tuple[str, ...] = (run.event_id,)
    past = _past_publickey(run, runs, host)
    if past is not None:
        how, fix = past
        content += f" What got past it: {how}, `{_shown(fix)}`."
        ids = (run.event_id, fix.event_id)
    return DeniedAccess(f"pitfall:denied:ssh:{host}", content, ids)


def _reached(run: CommandRun, host: str) -> bool:
    """Whether `run` got through to `host` (or to a git remote it does not name)."""
    if run.ok is not True and "successfully authenticated" not in run.output:
        return False
    for tokens in run.segments:
        if tokens[0] == "ssh" and _ssh_host(run) == host:
            return True
        if _git_verb(tokens) in _NETWORK_VERBS:
            named = {
                (_SCP_LIKE.match(t) or _SSH_URL.match(t) or _HTTPS_URL.match(t)) for t in tokens
            } - {None}
            hosts = {found.group("host").lower() for found in named if found}
            if not hosts or host in hosts:
                return True
    return False


def _https_to(tokens: list[str], host: str) -> bool:
    """Whether one of `tokens` is an https address of `host`."""
    return any(
        (https := _HTTPS_URL.match(t)) is not None and https.group("host").lower() == host
        for t in tokens
    )


def _difference(run: CommandRun, host: str) -> str:
    """What `run` changed in how the host is reached, described, else ""."""
    for tokens in run.segments:
        verb = _git_verb(tokens)
        if verb == "remote" and "set-url" in tokens and _https_to(tokens, host):
            return "the remote switched to https"
        if tokens[0] == "ssh-add":
            return "the key loaded into the agent"
        if "GIT_SSH_COMMAND=" in run.command or "core.sshCommand" in run.command:
            return "git told which key to use"
        if tokens[0] in ("ssh", "scp", "sftp") and "-i" in tokens:
            return "a different key"
        if verb in _NETWORK_VERBS and _https_to(tokens, host):
            return "the same over https"
    return ""


def _past_publickey(
    failed: CommandRun, runs: list[CommandRun], host: str
) -> tuple[str, CommandRun] | None:
    """(what changed, the run that changed it) when a later run of the session reached `host`
    after a change the session made, else None."""
    changed: tuple[str, CommandRun] | None = None
    for other in runs:
        if other.session_id != failed.session_id or other.timestamp <= failed.timestamp:
            continue
        if other.ok is True or "successfully authenticated" in other.output:
            how = _difference(other, host)
            if how and changed is None:
                changed = (how, other)
        if _reached(other, host):
            return changed
        if other.ok is False and _PUBLICKEY.search(other.output):
            changed = None  # that change did not get past it
    return None


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
    for raw in _lines(run.output):
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
        f"The agent's sandbox refused `{_shown(run)}`: it failed with `{shown}`. Inside the "
        "sandbox such a step fails whatever the user's own permissions; it runs once approved "
        "to run outside it."
    )
    slug = key_slug(where.rsplit("/", 2)[-2] if where.count("/") >= 1 else where) or key_slug(
        program
    )
    return DeniedAccess(f"pitfall:denied:sandbox:{slug or 'write'}", content, (run.event_id,))


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
        lesson = (
            _sudo(run, runs)
            or _secrets(run)
            or _protected(run, runs)
            or _publickey(run, runs)
            or _sandbox(run)
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
